package bfs

import (
	"testing"

	"github.com/oocgraph/ooc/internal/hostcxx"
)

// TestDeviceConstants compares the level record layout bfs.cu defines with the Go
// constants that read the records.
func TestDeviceConstants(t *testing.T) {
	hostcxx.CheckDefines(t, "bfs.cu", map[string]int{
		"REC_WORDS": recWords, "REC_COUNT": recCount, "REC_DEGREES": recDegrees, "REC_EXAMINED": recExamined,
		"REC_LINK": recLink, "REC_T0": recT0, "REC_LEFT": recLeft, "REC_RAN": recRan, "REC_LONG": recLong,
	})
}

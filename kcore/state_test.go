package kcore

import (
	"regexp"
	"testing"

	"github.com/oocgraph/ooc/internal/hostcxx"
)

// TestDeviceConstants compares the control words, step kinds, counters and record layout
// kcore.cu defines with the Go constants that read them.
func TestDeviceConstants(t *testing.T) {
	want := map[string]int{
		"C_MODE": ctlMode, "C_K": ctlK, "C_ALIVE": ctlAlive, "C_FRONT": ctlFront, "C_NEXT": ctlNext,
		"C_NA": ctlNA, "C_NF": ctlNF, "C_NN": ctlNN, "C_NS": ctlNS, "C_LEAST": ctlLeast, "C_BAD": ctlBad,
		"C_HUBS": ctlHubs, "C_LEVEL": ctlLevel, "C_HUBMAX": ctlHubMax, "C_WORDS": ctlWords,
		"STEP_ROUND": stepRound, "STEP_LEVEL": stepLevel, "STEP_DONE": stepDone,
		"A_EDGES": accEdges, "A_BYTES": accBytes, "A_REMOVED": accRemoved, "A_ROUNDS": accRounds, "A_WORDS": accWords,
		"RING": recRing,
	}
	src := hostcxx.CheckDefines(t, "kcore.cu", want)
	if !regexp.MustCompile(`(?m)^#define R_WORDS \(2 \+ A_WORDS\)`).Match(src) || recWords != 2+accWords {
		t.Errorf("kcore.cu's R_WORDS and recWords (%d) are not both 2 + A_WORDS", recWords)
	}
}

package sssp

import (
	"regexp"
	"testing"

	"github.com/oocgraph/ooc/internal/hostcxx"
)

// TestDeviceConstants compares the control words, step kinds, counters and record layout
// sssp.cu defines with the Go constants that read them.
func TestDeviceConstants(t *testing.T) {
	want := map[string]int{
		"C_MODE": ctlMode, "C_BIN": ctlBin, "C_FRONT": ctlFront, "C_NEXT": ctlNext, "C_FAR": ctlFar,
		"C_NF": ctlNF, "C_NN": ctlNN, "C_FN": ctlFN, "C_KN": ctlKN, "C_ROUND": ctlRound, "C_MINBIN": ctlMinBin,
		"C_BAD": ctlBad, "C_STEPS": ctlSteps, "C_HUBS": ctlHubs, "C_HUBMAX": ctlHubMax, "C_HOLD": ctlHold, "C_HELD": ctlHeld, "C_NSV": ctlNsv, "C_BPNS": ctlBpns, "C_HOLDNS": ctlHoldNs, "C_FLOAT": ctlFloat,
		"C_WORDS":    ctlWords,
		"STEP_ROUND": stepRound, "STEP_BIN": stepBin, "STEP_END": stepEnd, "STEP_DONE": stepDone, "STEP_HOLD": stepHold,
		"A_EDGES": accEdges, "A_BYTES": accBytes, "A_WORDS": accWords,
		"RING": recRing, "HUB_BLOCKS": hubBlocks,
	}
	src := hostcxx.CheckDefines(t, "sssp.cu", want)
	if !regexp.MustCompile(`(?m)^#define R_WORDS \(3 \+ A_WORDS\)`).Match(src) || recWords != 3+accWords {
		t.Errorf("sssp.cu's R_WORDS and recWords (%d) are not both 3 + A_WORDS", recWords)
	}
}

package store

import (
	"testing"

	"github.com/oocgraph/ooc/internal/vexcheck"
)

// TestVEXOnly holds the package's assembly to VEX-encoded instructions wherever an
// operand is an X or Y register (vexcheck says why), and each function that uses Y
// registers to a VZEROUPPER before its every RET (vexcheck.Upper).
func TestVEXOnly(t *testing.T) { vexcheck.Test(t, ".", true) }

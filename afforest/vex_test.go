package afforest

import (
	"testing"

	"github.com/oocgraph/ooc/internal/vexcheck"
)

// TestVEXOnly holds the package's assembly to VEX-encoded instructions wherever an
// operand is an X or Y register (vexcheck says why): it has none today; any it gains
// must be VEX, and a function on Y registers must end each return with VZEROUPPER.
func TestVEXOnly(t *testing.T) { vexcheck.Test(t, ".", false) }

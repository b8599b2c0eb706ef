//go:build cuda

package gpu

import (
	"unsafe"

	"github.com/oocgraph/ooc/internal/cuda"
)

// guard readies module m's list checks (store/graph.cuh's ooc_vertices and ooc_fault): the
// vertex count every decoded neighbour is held below, and no fault recorded. Every module
// whose kernels decode lists must be guarded before its first launch; an unguarded one
// refuses every neighbour (ooc_vertices 0), so its runs fail rather than answer.
func (dg *Graph) guard(c *cuda.Ctx, m *cuda.Module) error {
	nv, _, err := c.Global(m, "ooc_vertices")
	if err != nil {
		return err
	}
	n := dg.N
	if err := c.HtoD(nv, unsafe.Pointer(&n), 4); err != nil {
		return err
	}
	f, _, err := c.Global(m, "ooc_fault")
	if err != nil {
		return err
	}
	return c.Memset32(f, 0, 2)
}

// listFault reads module m's fault word after its launches have finished (a synchronous
// call since them: the word is read in the legacy default stream) and returns the
// ListError it names, or nil. It clears the word, so the next run reports its own.
func (dg *Graph) listFault(c *cuda.Ctx, m *cuda.Module) error {
	f, _, err := c.Global(m, "ooc_fault")
	if err != nil {
		return err
	}
	var w uint64
	if err := c.DtoH(unsafe.Pointer(&w), f, 8); err != nil {
		return err
	}
	if w>>faultSetBit == 0 {
		return nil
	}
	if err := c.Memset32(f, 0, 2); err != nil {
		return err
	}
	return listError(dg.G, w)
}

// CheckLists ends a run of module m's kernels whose own outcome is err: it reads the fault
// word on every exit path, so a refused list is reported even where a later CUDA call or
// host check failed (err), and the next run starts with the word clear. It returns the
// ListError of the first list m's kernels refused since the last call (carrying err), else
// err. An algorithm calls it once a run, after its launches, whatever err is, and returns
// no answer when the result is not nil.
func (dg *Graph) CheckLists(m *cuda.Module, err error) error {
	return runError(dg.Dev.Do(func(c *cuda.Ctx) error { return dg.listFault(c, m) }), err)
}

package bfs

import (
	"math/rand/v2"
	"testing"

	"github.com/oocgraph/ooc/internal/testseed"
)

// TestGroupWord holds unreachedAVX2 and applyFoundAVX2 to unreachedMask and the loops
// they replace, on words of every density, and checks that applyFoundAVX2 writes no
// entry outside found and none of level when level is nil.
func TestGroupWord(t *testing.T) {
	if !haveGroupWord {
		t.Skip("no AVX2")
	}
	seed := testseed.Seed(t)
	r := rand.New(rand.NewPCG(seed, 1))
	for i := range 2000 {
		var p, par, lvl, wantP, wantL [64 + 8]uint32 // 8 guard entries past the word
		for k := range p {
			p[k], par[k], lvl[k] = r.Uint32(), r.Uint32(), r.Uint32()
			switch r.IntN(4) {
			case 0:
				p[k] = unreached
			case 1:
				p[k] = ^uint32(1 << r.IntN(32)) // one bit short of unreached
			}
		}
		mask := ^uint64(0)
		for range i % 5 {
			mask &= r.Uint64()
		}
		if i%3 == 0 {
			mask = ^mask
		}
		for k := range 64 {
			if mask>>k&1 != 0 {
				p[k] = unreached
			}
		}
		if got, want := unreachedAVX2(&p[0]), unreachedMask(p[:64]); got != want {
			t.Fatalf("seed %d, word %d: unreachedAVX2 %#x, unreachedMask %#x", seed, i, got, want)
		}
		found := r.Uint64() & mask
		lv := r.Uint32()
		wantP, wantL = p, lvl
		for k := range 64 {
			if found>>k&1 != 0 {
				wantP[k], wantL[k] = par[k], lv
			}
		}
		gotP, gotL := p, lvl
		applyFoundAVX2(&gotP[0], &par[0], &gotL[0], found, lv)
		if gotP != wantP || gotL != wantL {
			t.Fatalf("seed %d, word %d: applyFoundAVX2 with levels, found %#x: parents or levels differ", seed, i, found)
		}
		gotP, gotL = p, lvl
		applyFoundAVX2(&gotP[0], &par[0], nil, found, lv)
		if gotP != wantP || gotL != lvl {
			t.Fatalf("seed %d, word %d: applyFoundAVX2 without levels, found %#x: parents differ", seed, i, found)
		}
	}
}

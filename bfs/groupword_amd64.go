//go:build amd64 && !purego

package bfs

import "golang.org/x/sys/cpu"

// haveGroupWord says whether unreachedAVX2 and applyFoundAVX2 may run: the processor
// has AVX2. TestGroupWord holds both to the Go loops they replace (unreachedMask, the
// parents' and levels' loops), which groups of fewer than 64 vertices and the purego
// build run.
var haveGroupWord = cpu.X86.HasAVX2

// unreachedAVX2 is unreachedMask of p[0:64] (bfs/groupword_amd64.s).
//
//go:noescape
func unreachedAVX2(p *uint32) uint64

// applyFoundAVX2 sets parent[k] = par[k] for each bit k of found, and level[k] = lv
// where level is not nil (each array 64 entries; bfs/groupword_amd64.s).
//
//go:noescape
func applyFoundAVX2(parent, par, level *uint32, found uint64, lv uint32)

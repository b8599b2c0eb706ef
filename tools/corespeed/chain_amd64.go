//go:build amd64 && !purego

package main

// chain runs n iterations of eight dependent adds of an immediate (chain_amd64.s).
//
//go:noescape
func chain(n int64) int64

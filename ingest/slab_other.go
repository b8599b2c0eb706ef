//go:build !linux

package ingest

func allocSlab(n int64) []byte { return make([]byte, n) }

func freeSlab([]byte) {}

// Package parse reads edge lists (SNAP text, MatrixMarket, DIMACS .gr, 32- and 64-bit
// binary pairs; gzip or zstd detected from content) on several goroutines and emits
// batches of 0-based edges. Bad input gives a *ParseError positioned by line (text) or
// byte offset (binary) that matches ErrBadInput. It is the input layer of package ingest.
package parse

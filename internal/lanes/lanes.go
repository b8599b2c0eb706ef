// Package lanes holds the constant vectors that the amd64 assembly of several packages
// loads (store's list decoders, bfs's gathers), once in the binary. Its assembly names
// them by this package's path, github·com∕oocgraph∕ooc∕internal∕lanes·index(SB) and
// ·pred(SB), and the Go file beside that assembly imports this package, blank, so that
// the linker holds them. It declares nothing in Go.
package lanes

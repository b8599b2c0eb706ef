module github.com/oocgraph/ooc

go 1.26.8

require (
	github.com/cheggaaa/pb/v3 v3.3.0
	github.com/edsrzf/mmap-go v1.2.0
	github.com/klauspost/compress v1.20.3
	golang.org/x/sys v0.49.0
)

require (
	github.com/VividCortex/ewma v1.2.0 // indirect
	github.com/clipperhouse/uax29/v2 v2.2.0 // indirect
	github.com/fatih/color v1.19.0 // indirect
	github.com/mattn/go-colorable v0.1.16 // indirect
	github.com/mattn/go-isatty v0.0.24 // indirect
	github.com/mattn/go-runewidth v0.0.31 // indirect
)

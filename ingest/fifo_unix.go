//go:build unix

package ingest

import (
	"os"
	"syscall"
)

// releaseFIFO ends an open of the FIFO at path that waits for a writer, by opening it
// for writing without waiting (which succeeds only while a reader waits) and closing
// it: the waiting open returns, and its reads see the end of the input.
func releaseFIFO(path string) {
	if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		f.Close()
	}
}

//go:build !unix

package robust

import (
	"errors"
	"os"
)

// oNonblock: no such flag; writers of a FIFO are Unix's alone (mkfifo fails here).
const oNonblock = 0

// umask is 0 where the system has none.
func umask() os.FileMode { return 0 }

func mkfifo(path string) error { return errors.ErrUnsupported }

package parse

import (
	"encoding/binary"
	"fmt"
)

// Binary edge lists are little-endian pairs of uint32 (bin32) or uint64
// (bin64), with no header. Blocks hold whole pairs; b.off positions errors.

// parseBin32Block decodes uint32 pairs.
// It records a second id other than 0 for checkCounts.
func parseBin32Block(w *worker, b *block) error {
	data := b.data
	var heads uint64
	for i := 0; i+8 <= len(data); i += 8 {
		u := uint64(binary.LittleEndian.Uint32(data[i:]))
		v := uint64(binary.LittleEndian.Uint32(data[i+4:]))
		heads |= v
		if err := w.addBin(b, i, u, v); err != nil {
			return err
		}
	}
	if heads != 0 && !w.p.headSeen.Load() {
		w.p.headSeen.Store(true)
	}
	return nil
}

// parseBin64Block decodes uint64 pairs.
func parseBin64Block(w *worker, b *block) error {
	data := b.data
	for i := 0; i+16 <= len(data); i += 16 {
		u := binary.LittleEndian.Uint64(data[i:])
		v := binary.LittleEndian.Uint64(data[i+8:])
		if err := w.addBin(b, i, u, v); err != nil {
			return err
		}
	}
	return nil
}

// addBin appends one decoded pair at data[pos].
func (w *worker) addBin(b *block, pos int, u, v uint64) error {
	if u > w.maxID || v > w.maxID {
		id := max(u, v)
		msg := "vertex id %d is above the largest allowed id %d; use --relabel"
		if w.maxID == 1<<32-2 {
			msg = "vertex id %d is >= 2^32-1; use --relabel"
			if w.p.res.Format == FormatBin64 {
				// uint32 pairs read as bin64 give such ids: say what they would be
				msg += fmt.Sprintf(" (or, if the file holds uint32 pairs, --format bin32: this id is ids %d and %d side by side)", uint32(id), id>>32)
			}
			return w.p.offsetError(b.off+int64(pos), msg, id)
		}
		return w.p.offsetError(b.off+int64(pos), msg, id, w.maxID)
	}
	w.batch = append(w.batch, Edge{u, v})
	if len(w.batch) == cap(w.batch) {
		return w.flush()
	}
	return nil
}

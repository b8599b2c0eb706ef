package parse

import "encoding/binary"

// Binary edge lists are little-endian pairs of uint32 (bin32) or uint64
// (bin64), with no header. Blocks hold whole pairs; b.off positions errors.

// parseBin32Block decodes uint32 pairs.
func parseBin32Block(w *worker, b *block) error {
	data := b.data
	for i := 0; i+8 <= len(data); i += 8 {
		u := uint64(binary.LittleEndian.Uint32(data[i:]))
		v := uint64(binary.LittleEndian.Uint32(data[i+4:]))
		if err := w.addBin(b, i, u, v); err != nil {
			return err
		}
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

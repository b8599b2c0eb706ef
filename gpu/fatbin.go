package gpu

import (
	"encoding/binary"
	"fmt"
)

// FatbinEntry is one image inside a fatbin: SASS (an ELF cubin) or PTX, for one architecture.
type FatbinEntry struct {
	PTX  bool // PTX text (JIT-compiled by the driver) rather than SASS
	Arch int  // e.g. 90 for sm_90 SASS, 75 for compute_75 PTX
	Size int64
}

// fatbinMagic starts every fatbin (CUDA's fatbinary.h: FATBIN_MAGIC).
const fatbinMagic = 0xBA55ED50

// FatbinEntries lists the images in a fatbin by walking its headers (the layout nvcc 11.8
// writes: a 16-byte header, then entries of {kind u16, version u16, header size u32, payload
// size u64, ..., arch u32 at +28}). It lets tests check the architectures without a GPU.
func FatbinEntries(b []byte) ([]FatbinEntry, error) {
	if len(b) < 16 || binary.LittleEndian.Uint32(b) != fatbinMagic {
		return nil, fmt.Errorf("gpu: not a fatbin (want magic %#x at offset 0)", uint32(fatbinMagic))
	}
	hs := int64(binary.LittleEndian.Uint16(b[6:]))
	end := hs + int64(binary.LittleEndian.Uint64(b[8:]))
	if hs < 16 || end > int64(len(b)) {
		return nil, fmt.Errorf("gpu: fatbin header says %d+%d bytes, have %d", hs, end-hs, len(b))
	}
	var out []FatbinEntry
	for o := hs; o < end; {
		if o+32 > end {
			return nil, fmt.Errorf("gpu: fatbin entry at offset %d overruns the fatbin (%d bytes)", o, end)
		}
		kind := binary.LittleEndian.Uint16(b[o:])
		ehs := int64(binary.LittleEndian.Uint32(b[o+4:]))
		size := int64(binary.LittleEndian.Uint64(b[o+8:]))
		if kind != 1 && kind != 2 {
			return nil, fmt.Errorf("gpu: fatbin entry at offset %d has kind %d, want 1 (PTX) or 2 (ELF)", o, kind)
		}
		if ehs < 32 || size < 0 || o+ehs+size > end {
			return nil, fmt.Errorf("gpu: fatbin entry at offset %d (header %d, payload %d) overruns the fatbin (%d bytes)", o, ehs, size, end)
		}
		out = append(out, FatbinEntry{PTX: kind == 1, Arch: int(binary.LittleEndian.Uint32(b[o+28:])), Size: size})
		o += ehs + size
	}
	return out, nil
}

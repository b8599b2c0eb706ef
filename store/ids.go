package store

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/oocgraph/ooc/internal/plural"
)

// The compact ids.bin (FORMAT.md, "ids.bin"): magic idsDeltaMagic, and the ids as zigzag
// varints of each one's difference from the one before (the first from 0). A numbering
// that keeps runs of the file's ids (the bisection order of an ego network, --relabel of
// ascending ids) then takes a byte or two a vertex instead of 4 or 8. It is decoded
// whole when the graph is opened, so the writer uses it only for graphs of at most
// IDsDeltaMax vertices, and only where its varints take at most 3/4 of the raw ids:
// decoding is paid for a real saving.
const (
	idsDeltaMagic = "OOCIDS03"
	// IDsDeltaMax is the most vertices whose ids.bin the writer stores compact: decoding
	// 2^20 ids at open takes a few milliseconds and 4 bytes a vertex of memory (kron22's
	// degree order, 2^22 ids in runs of ascending ids, would shrink 16.0 -> 4.8 MiB, 1.05
	// -> 0.32 bits per edge, for 10-17 ms of decoding at open on the VM).
	IDsDeltaMax = 1 << 20
)

// idDelta maps the difference b - a (mod 2^64) to an unsigned value, small for small
// differences either way.
func idDelta(a, b uint64) uint64 {
	d := int64(b - a)
	return uint64(d<<1) ^ uint64(d>>63)
}

// idAfter is the id after a whose zigzag difference is z.
func idAfter(a, z uint64) uint64 { return a + uint64(int64(z>>1)^-int64(z&1)) }

// uvarintLen is the length of x as a varint.
func uvarintLen(x uint64) int { return (bits.Len64(x|1) + 6) / 7 }

// IDsBytes is the size of the ids.bin that WriteIDs writes for the ids at(0..n-1): the
// compact layout where its varints take at most 3/4 of the raw ids and n is at most
// IDsDeltaMax, else the raw one.
func IDsBytes(n int, at func(i int) uint64) int64 {
	width, _, delta := idsLayout(n, at)
	if delta > 0 {
		return delta
	}
	return IDsFileBytes(int64(n), width)
}

// idsLayout reads the ids once: their raw width, whether they ascend, and the compact
// file's size when the writer stores them compact (else 0).
func idsLayout(n int, at func(i int) uint64) (width int, asc bool, delta int64) {
	width, asc = 4, true
	var prev uint64
	body := int64(0)
	for i := range n {
		id := at(i)
		if id > math.MaxUint32 {
			width = 8
		}
		if i > 0 && id <= prev {
			asc = false
		}
		body += int64(uvarintLen(idDelta(prev, id)))
		prev = id
	}
	if n > 0 && n <= IDsDeltaMax && 4*body <= 3*int64(width)*int64(n) {
		delta = IDsFileBytes(0, 4) + body
	}
	return width, asc, delta
}

// appendDeltaIDs appends the compact body of the ids at(i..end-1), prev being id i-1 (0
// for the first).
func appendDeltaIDs(b []byte, prev uint64, i, end int, at func(i int) uint64) ([]byte, uint64) {
	for ; i < end; i++ {
		id := at(i)
		b = binary.AppendUvarint(b, idDelta(prev, id))
		prev = id
	}
	return b, prev
}

// decodeDeltaIDs decodes the compact body of n ids (the file's bytes from idsHeader to
// the checksum) into ids32 (width 4) or ids64 (width 8), refusing, with the offset in the
// file, a varint that runs past the body, one not in its shortest form, an id that does
// not fit the width, ids flagged ascending that do not ascend, a body that ends before
// n ids or holds bytes after them. path names the file in the errors.
func decodeDeltaIDs(path string, body []byte, n uint64, width int, asc bool) (ids32 []uint32, ids64 []uint64, err error) {
	if n > uint64(len(body)) { // every id takes a byte at least
		return nil, nil, corrupt(path, idsHeader+int64(len(body)), "holds %s of ids, too few for %s", plural.Of(len(body), "byte"), plural.Of(n, "id"))
	}
	var at int
	if width == 4 {
		ids32 = make([]uint32, n)
		at, err = decodeDeltaInto(path, body, ids32, math.MaxUint32, asc)
	} else {
		ids64 = make([]uint64, n)
		at, err = decodeDeltaInto(path, body, ids64, math.MaxUint64, asc)
	}
	if err != nil {
		return nil, nil, err
	}
	if at != len(body) {
		return nil, nil, corrupt(path, idsHeader+int64(at), "%s after the %s", plural.Of(len(body)-at, "byte"), plural.Of(n, "id"))
	}
	return ids32, ids64, nil
}

// decodeDeltaInto decodes len(ids) ids from body (decodeDeltaIDs), each at most limit,
// and returns how many bytes they took. A varint of one byte, most of them, takes the
// short path.
func decodeDeltaInto[T uint32 | uint64](path string, body []byte, ids []T, limit uint64, asc bool) (int, error) {
	n := len(ids)
	var prev uint64
	at := 0
	for i := range ids {
		z, k := uint64(0), 1
		if at < len(body) && body[at] < 0x80 {
			z = uint64(body[at])
		} else {
			z, k = binary.Uvarint(body[at:])
			switch {
			case k == 0:
				return 0, corrupt(path, idsHeader+int64(at), "id %d of %d: a varint runs past the ids (truncated?)", i, n)
			case k < 0:
				return 0, corrupt(path, idsHeader+int64(at), "id %d of %d: a varint of more than 64 bits", i, n)
			case body[at+k-1] == 0:
				return 0, corrupt(path, idsHeader+int64(at), "id %d of %d: a varint not in its shortest form", i, n)
			}
		}
		id := idAfter(prev, z)
		switch {
		case id > limit:
			return 0, corrupt(path, idsHeader+int64(at), "id %d of %d is %d, wider than the file's 4 bytes", i, n, id)
		case asc && i > 0 && id <= prev:
			return 0, corrupt(path, idsHeader+int64(at), "ids flagged ascending but not at index %d", i)
		}
		ids[i] = T(id)
		prev = id
		at += k
	}
	return at, nil
}

// deltaIDOffset is where id i's varint starts in a compact ids.bin whose body decoded
// (decodeDeltaIDs): for errors found after the decoding.
func deltaIDOffset(body []byte, i int64) int64 {
	at := 0
	for range i {
		_, k := binary.Uvarint(body[at:])
		at += k
	}
	return idsHeader + int64(at)
}

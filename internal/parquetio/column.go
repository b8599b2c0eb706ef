package parquetio

import (
	"fmt"
	"io"
	"math"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"
)

// columnStream reads one id column chunk page by page as uint64 ids: signed values are
// sign-extended (and refused when negative), unsigned ones zero-extended.
type columnStream struct {
	pages         parquet.Pages
	col           *column
	group, groups int
	path          string
	opt           *ReadOptions

	page parquet.Page
	// The current page's values: plain ids in i32 or i64, or dictionary indexes in idx
	// into dict, the dictionary's ids.
	i32     []int32
	i64     []int64
	bits    []uint64 // a float weight page's values as float32 bits
	idx     []int32
	dict    []uint64
	dictSrc parquet.Dictionary
	pos, n  int
	row     int64 // values consumed in the row group
}

// fill reads up to len(dst) ids into dst; io.EOF says the chunk ended before dst filled.
func (s *columnStream) fill(dst []uint64) (int, error) {
	n := 0
	for n < len(dst) {
		if s.pos == s.n {
			if err := s.nextPage(); err != nil {
				return n, err
			}
			continue
		}
		out := dst[n : n+min(len(dst)-n, s.n-s.pos)]
		switch {
		case s.idx != nil:
			for i, j := range s.idx[s.pos : s.pos+len(out)] {
				if uint32(j) >= uint32(len(s.dict)) {
					return n, s.error(s.row+int64(i), fmt.Sprintf("dictionary index %d is past the dictionary's %d entries", j, len(s.dict)), nil)
				}
				out[i] = s.dict[j]
			}
		case s.col.float:
			copy(out, s.bits[s.pos:s.pos+len(out)])
		case s.i32 != nil:
			widen32(out, s.i32[s.pos:s.pos+len(out)], s.col.unsigned)
		default:
			widen64(out, s.i64[s.pos:s.pos+len(out)])
		}
		if err := s.check(out); err != nil {
			return n, err
		}
		s.pos += len(out)
		s.row += int64(len(out))
		n += len(out)
	}
	return n, nil
}

// floatBits appends the float32 bits of each value (rounded from a double; -0 as 0).
func floatBits[F float32 | float64](dst []uint64, src []F) []uint64 {
	for _, v := range src {
		f := float32(v)
		if f == 0 {
			f = 0 // -0 too
		}
		dst = append(dst, uint64(math.Float32bits(f)))
	}
	return dst
}

func widen32(dst []uint64, src []int32, unsigned bool) {
	if unsigned {
		for i, v := range src {
			dst[i] = uint64(uint32(v))
		}
		return
	}
	for i, v := range src {
		dst[i] = uint64(int64(v))
	}
}

func widen64(dst []uint64, src []int64) {
	for i, v := range src {
		dst[i] = uint64(v)
	}
}

// check refuses negative ids (of signed columns) and ids above the limit, and weights
// outside [0, 2^32-1].
func (s *columnStream) check(ids []uint64) error {
	if s.col.weight {
		return s.checkWeights(ids)
	}
	limit := s.opt.MaxID
	signed := !s.col.unsigned
	for i, id := range ids {
		switch {
		case signed && int64(id) < 0:
			return s.error(s.row+int64(i), fmt.Sprintf("holds %d; ids must be 0 or more", int64(id)), nil)
		case id > limit:
			return s.error(s.row+int64(i), fmt.Sprintf("holds %d, above the largest allowed id %d%s", id, limit, s.opt.Hint), nil)
		}
	}
	return nil
}

func (s *columnStream) checkWeights(ws []uint64) error {
	if s.col.float {
		for i, w := range ws {
			if w >= 0x7F800000 { // negative, NaN, infinite, or beyond float32's range
				return s.error(s.row+int64(i), fmt.Sprintf("holds the weight %g (as a float32); float weights are non-negative and finite", math.Float32frombits(uint32(w))), nil)
			}
		}
		return nil
	}
	for i, w := range ws {
		switch {
		case !s.col.unsigned && int64(w) < 0:
			return s.error(s.row+int64(i), fmt.Sprintf("holds the weight %d; weights are integers from 0 to %d", int64(w), uint32(1<<32-1)), nil)
		case w > 1<<32-1:
			return s.error(s.row+int64(i), fmt.Sprintf("holds the weight %d, above the largest weight %d", w, uint32(1<<32-1)), nil)
		}
	}
	return nil
}

// nextPage moves to the next page; io.EOF at the end of the chunk.
func (s *columnStream) nextPage() error {
	s.release()
	p, err := s.pages.ReadPage()
	if err == io.EOF {
		return io.EOF
	}
	if err != nil {
		return s.error(-1, "unreadable page", err)
	}
	s.page = p
	if p.NumNulls() > 0 {
		row := int64(-1)
		for i, d := range p.DefinitionLevels() {
			if d == 0 {
				row = s.row + int64(i)
				break
			}
		}
		return s.error(row, "holds a null; every row needs both ids", nil)
	}
	s.pos, s.i32, s.i64, s.idx = 0, nil, nil, nil
	data := p.Data()
	if s.col.float && p.Dictionary() == nil {
		switch data.Kind() {
		case encoding.Float:
			s.bits = floatBits(s.bits[:0], data.Float())
		case encoding.Double:
			s.bits = floatBits(s.bits[:0], data.Double())
		default:
			return s.error(-1, fmt.Sprintf("a page holds %s values; expected floating-point weights", data.Kind()), nil)
		}
		s.n = len(s.bits)
		return nil
	}
	if d := p.Dictionary(); d != nil {
		if d != s.dictSrc {
			s.dict, s.dictSrc = s.decodeDictionary(d.Page().Data(), s.dict[:0]), d
		}
		s.idx = data.Int32()
		s.n = len(s.idx)
		return nil
	}
	switch data.Kind() {
	case encoding.Int32:
		s.i32 = data.Int32()
		s.n = len(s.i32)
	case encoding.Int64:
		s.i64 = data.Int64()
		s.n = len(s.i64)
	default:
		return s.error(-1, fmt.Sprintf("a page holds %s values; expected integer ids", data.Kind()), nil)
	}
	return nil
}

// decodeDictionary widens a dictionary's values into dst.
func (s *columnStream) decodeDictionary(data encoding.Values, dst []uint64) []uint64 {
	switch data.Kind() {
	case encoding.Int32:
		v := data.Int32()
		dst = append(dst, make([]uint64, len(v))...)
		widen32(dst, v, s.col.unsigned)
	case encoding.Int64:
		v := data.Int64()
		dst = append(dst, make([]uint64, len(v))...)
		widen64(dst, v)
	case encoding.Float:
		dst = floatBits(dst, data.Float())
	case encoding.Double:
		dst = floatBits(dst, data.Double())
	}
	return dst
}

// release hands the current page back to the library's pool.
func (s *columnStream) release() {
	if s.page != nil {
		parquet.Release(s.page)
		s.page = nil
	}
}

// error is an *Error at row (-1: none) of this column in this row group.
func (s *columnStream) error(row int64, msg string, err error) *Error {
	return &Error{Path: s.path, RowGroup: s.group, Groups: s.groups, Column: s.col.name, Row: row, Msg: msg, Err: err}
}

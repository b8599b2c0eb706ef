package gen

// kron is the Graph500 Kronecker generator (Graph500 specification, section 3.2;
// Leskovec et al., "Kronecker graphs", JMLR 2010). Each edge picks, for each of the
// Scale bit levels, one quadrant of the adjacency matrix: top-left with probability A,
// top-right B, bottom-left C, bottom-right D, independently per level; the row bits make
// U and the column bits V, and both go through the vertex permutation.
//
// The specification's reference code draws two uniforms per level. Here the levels are
// taken four at a time: the 256 outcomes of four levels are drawn with one alias-table
// lookup (Walker 1977, Vose 1991) on 32 random bits, so a scale-24 edge costs three
// 64-bit draws. The table is built in integer arithmetic from A:B:C:D = 57:19:19:5, so
// it is exact (each outcome's probability is off by less than 2^-32) and identical on
// every platform.
type kron struct {
	spec  Spec
	four  *aliasTable // four levels
	rest  *aliasTable // the Scale%4 remaining levels, nil if none
	perm  Perm
	draws int // 32-bit lookups per edge
}

// kronWeights are A, B, C, D in hundredths, in quadrant order (row<<1 | col).
var kronWeights = [4]uint64{57, 19, 19, 5}

// aliasTable draws one of 4^levels outcomes, each a (row bits, column bits) pair.
type aliasTable struct {
	levels uint
	shift  uint // bucket = x >> shift for a 32-bit x
	bucket []aliasBucket
}

// aliasBucket keeps its own outcome when the low bits of the draw are below thr, and
// takes alias otherwise.
type aliasBucket struct {
	thr        uint32
	own, alias uint16 // outcome: row bits << levels | column bits
}

// outcomeWeight returns the weight of outcome o (levels quadrants, two bits each, in
// weight units of 100^-levels).
func outcomeWeight(o uint64, levels uint) (w uint64) {
	w = 1
	for l := range levels {
		w *= kronWeights[o>>(2*l)&3]
	}
	return w
}

// newAliasTable builds the table for 1 to 4 levels with Vose's method. With 4^levels
// buckets and a total weight of 100^levels, each bucket holds exactly 25^levels.
func newAliasTable(levels uint) *aliasTable {
	n := uint64(1) << (2 * levels)
	capacity := uint64(1)
	for range levels {
		capacity *= 25
	}
	w := make([]uint64, n)
	var small, large []uint64
	for o := range n {
		w[o] = outcomeWeight(o, levels)
		if w[o] < capacity {
			small = append(small, o)
		} else {
			large = append(large, o)
		}
	}
	t := &aliasTable{levels: levels, shift: 32 - 2*levels, bucket: make([]aliasBucket, n)}
	fracBits := t.shift
	for len(small) > 0 && len(large) > 0 {
		s, l := small[len(small)-1], large[len(large)-1]
		small = small[:len(small)-1]
		t.bucket[s] = aliasBucket{thr: uint32(w[s] << fracBits / capacity), own: t.pair(s), alias: t.pair(l)}
		w[l] -= capacity - w[s]
		if w[l] < capacity {
			large = large[:len(large)-1]
			small = append(small, l)
		}
	}
	for _, o := range append(small, large...) { // full buckets (exactly capacity)
		t.bucket[o] = aliasBucket{thr: 1 << fracBits, own: t.pair(o), alias: t.pair(o)}
	}
	return t
}

// pair turns an outcome index (two bits per level) into row bits << levels | col bits.
func (t *aliasTable) pair(o uint64) uint16 {
	var row, col uint16
	for l := range t.levels {
		q := uint16(o >> (2 * l) & 3)
		row |= q >> 1 << l
		col |= q & 1 << l
	}
	return row<<t.levels | col
}

// draw returns the row and column bits for the 32-bit uniform x.
func (t *aliasTable) draw(x uint32) (row, col uint64) {
	b := &t.bucket[x>>t.shift]
	p := b.alias
	if x&(1<<t.shift-1) < b.thr {
		p = b.own
	}
	return uint64(p >> t.levels), uint64(p & (1<<t.levels - 1))
}

func newKron(s Spec) *kron {
	k := &kron{spec: s, four: newAliasTable(4), perm: NewPerm(uint(s.Scale), s.Seed)}
	k.draws = s.Scale / 4
	if r := s.Scale % 4; r > 0 {
		k.rest = newAliasTable(uint(r))
	}
	return k
}

func (k *kron) block(dst []Edge, b uint64) []Edge {
	lo, hi := k.spec.blockRange(b)
	r := newRNG(k.spec.Seed, streamKron, b)
	var x uint64
	var have bool // x holds an unused 32-bit half
	next := func() uint32 {
		if have {
			have = false
			return uint32(x >> 32)
		}
		x, have = r.next(), true
		return uint32(x)
	}
	for range hi - lo {
		var u, v uint64
		for range k.draws {
			row, col := k.four.draw(next())
			u, v = u<<4|row, v<<4|col
		}
		if k.rest != nil {
			row, col := k.rest.draw(next())
			u, v = u<<k.rest.levels|row, v<<k.rest.levels|col
		}
		dst = append(dst, Edge{k.perm.At(u), k.perm.At(v)})
	}
	return dst
}

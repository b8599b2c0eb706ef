package gen

// Perm is a pseudorandom permutation of [0, 2^bits), as the Graph500 specification asks
// of the Kronecker generator's vertex labels (so that a vertex id says nothing about its
// degree).
//
// It is a 4-round Feistel network whose round function is mix64 keyed per round (Luby and
// Rackoff: four rounds of a pseudorandom function give a pseudorandom permutation).
// Compared with a seeded Fisher-Yates shuffle it needs no O(n) table (8 GiB of ids at
// scale 30), is computed independently per vertex (so in parallel, by each generation
// block) and is the same for a seed on every machine. The halves may differ in width by
// one bit: each round maps (L: a bits, R: b bits) to (R, L xor F(R) mod 2^a), which is
// invertible, and after an even number of rounds the widths are back where they began,
// so odd bit counts need no cycle walking.
type Perm struct {
	bits uint
	keys [4]uint64
}

// NewPerm returns the permutation of [0, 2^bits) for seed (bits <= 32).
func NewPerm(bits uint, seed uint64) Perm {
	p := Perm{bits: bits}
	for i := range p.keys {
		r := newRNG(seed, streamPerm, uint64(i))
		p.keys[i] = r.next()
	}
	return p
}

// At returns the image of x (x < 2^bits).
func (p Perm) At(x uint64) uint64 {
	a := p.bits / 2 // width of the left half
	b := p.bits - a // width of the right half
	for _, k := range p.keys {
		l, r := x>>b, x&(1<<b-1)
		x = r<<a | (l^mix64(r^k))&(1<<a-1)
		a, b = b, a
	}
	return x
}

// Inverse returns the x with At(x) == y.
func (p Perm) Inverse(y uint64) uint64 {
	a := p.bits / 2
	b := p.bits - a
	// After the 4 rounds y = r'<<a | l' with widths (b, a) swapped back to (a, b);
	// undo the rounds in reverse order.
	for i := len(p.keys) - 1; i >= 0; i-- {
		// y was made as r<<a | (l ^ F(r)) with r of width b and l of width a; here the
		// widths for round i are (a, b) when i is even.
		wa, wb := a, b
		if i%2 == 1 {
			wa, wb = b, a
		}
		r, lx := y>>wa, y&(1<<wa-1)
		l := (lx ^ mix64(r^p.keys[i])) & (1<<wa - 1)
		y = l<<wb | r
	}
	return y
}

package gen

// Perm is a pseudorandom permutation of [0, 2^bits), as the Graph500 specification asks
// of the Kronecker generator's vertex labels (so that a vertex id says nothing about its
// degree).
//
// It is a 4-round Feistel network (Luby and Rackoff: four rounds of a pseudorandom
// function give a pseudorandom permutation) whose round function is multiply-add-shift
// hashing with random 64-bit keys per round (Dietzfelbinger et al. 1997): the top bits of
// k1*r + k2. That is not a cryptographic function, but it is universal, a third the cost
// of a full mix64, and what the permutation must achieve is only that ids carry no degree
// information, which the tests check bit by bit.
// Compared with a seeded Fisher-Yates shuffle it needs no O(n) table (8 GiB of ids at
// scale 30), is computed independently per vertex (so in parallel, by each generation
// block) and is the same for a seed on every machine. The halves may differ in width by
// one bit: each round maps (L: a bits, R: b bits) to (R, L xor F(R) mod 2^a), which is
// invertible, and after an even number of rounds the widths are back where they began,
// so odd bit counts need no cycle walking.
type Perm struct {
	bits uint
	keys [4][2]uint64 // per round: multiplier (odd) and addend
}

// NewPerm returns the permutation of [0, 2^bits) for seed (bits <= 32).
func NewPerm(bits uint, seed uint64) Perm {
	p := Perm{bits: bits}
	for i := range p.keys {
		r := newRNG(seed, streamPerm, uint64(i))
		p.keys[i] = [2]uint64{r.next() | 1, r.next()}
	}
	return p
}

// At returns the image of x (x < 2^bits).
func (p *Perm) At(x uint64) uint64 {
	a := p.bits / 2 // width of the left half
	b := p.bits - a // width of the right half
	// The four rounds unrolled (this is the hot loop of the Kronecker generator): each
	// takes x = l<<b | r to r<<a | (l ^ F(r)), then the widths swap.
	x = x&(1<<b-1)<<a | (x>>b ^ round(x&(1<<b-1), p.keys[0], a))
	x = x&(1<<a-1)<<b | (x>>a ^ round(x&(1<<a-1), p.keys[1], b))
	x = x&(1<<b-1)<<a | (x>>b ^ round(x&(1<<b-1), p.keys[2], a))
	x = x&(1<<a-1)<<b | (x>>a ^ round(x&(1<<a-1), p.keys[3], b))
	return x
}

// Inverse returns the x with At(x) == y.
func (p *Perm) Inverse(y uint64) uint64 {
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
		l := lx ^ round(r, p.keys[i], wa)
		y = l<<wb | r
	}
	return y
}

// round is the Feistel round function: width bits of the hash of r.
func round(r uint64, k [2]uint64, width uint) uint64 {
	return (r*k[0] + k[1]) >> (64 - width) // a shift by 64 gives 0 for width 0
}

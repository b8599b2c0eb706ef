package gen

// The random streams are splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom
// number generators", OOPSLA 2014): the i-th output of a stream is mix64(start + i*gamma),
// so a stream is fixed by its start, which is itself a hash of (seed, kind, block). That
// is what makes a block's edges independent of which worker made them and when.

const golden = 0x9e3779b97f4a7c15 // 2^64 / phi, the splitmix64 increment

// mix64 is the splitmix64 finalizer (a variant of MurmurHash3's fmix64): a bijection on
// uint64 whose output bits each depend on every input bit.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Stream tags keep the kinds' streams (and the permutation key) apart for one seed.
const (
	streamKron uint64 = iota + 1
	streamURand
	streamGrid
	streamPerm
)

// rng is one splitmix64 stream.
type rng struct{ s uint64 }

// newRNG starts the stream for (seed, tag, index).
func newRNG(seed, tag, index uint64) rng {
	return rng{mix64(mix64(seed^mix64(tag)) + index*golden)}
}

func (r *rng) next() uint64 {
	r.s += golden
	return mix64(r.s)
}

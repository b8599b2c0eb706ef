package ingest

// radixBits is the digit width of radixSort: 2048 counters (16 KiB) stay in L1, and a
// 64-bit key needs at most 6 passes, fewer when digits are constant (keys of one
// partition share their top bits, and small graphs leave the high digits of dst zero).
const (
	radixBits    = 11
	radixBuckets = 1 << radixBits
	radixPasses  = (64 + radixBits - 1) / radixBits
)

// radixSort sorts keys ascending with an LSD radix sort, using tmp (at least len(keys)
// long) as scratch. It returns the sorted slice, which is keys or tmp[:len(keys)].
// One pass builds all the histograms; a digit that is the same in every key is skipped.
func radixSort(keys, tmp []uint64) []uint64 {
	if len(keys) < 256 {
		insertionSort(keys)
		return keys
	}
	var hist [radixPasses][radixBuckets]uint32
	for _, k := range keys {
		for p := 0; p < radixPasses; p++ {
			hist[p][(k>>(p*radixBits))&(radixBuckets-1)]++
		}
	}
	src, dst := keys, tmp[:len(keys)]
	n := uint32(len(keys))
	for p := 0; p < radixPasses; p++ {
		h := &hist[p]
		if h[(src[0]>>(p*radixBits))&(radixBuckets-1)] == n {
			continue // constant digit
		}
		var sum uint32
		for i := range h {
			h[i], sum = sum, sum+h[i]
		}
		shift := uint(p * radixBits)
		for _, k := range src {
			d := (k >> shift) & (radixBuckets - 1)
			dst[h[d]] = k
			h[d]++
		}
		src, dst = dst, src
	}
	return src
}

func insertionSort(a []uint64) {
	for i := 1; i < len(a); i++ {
		x, j := a[i], i
		for ; j > 0 && a[j-1] > x; j-- {
			a[j] = a[j-1]
		}
		a[j] = x
	}
}

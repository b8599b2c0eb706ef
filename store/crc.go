package store

import "hash/crc32"

// CRC32CCombine returns the CRC32C of a‖b from crcA = CRC32C(a), crcB = CRC32C(b) and
// lenB = len(b), without the bytes: ingest checksums the lists each worker encodes, in
// parallel, and the writer, which appends them in order, combines the checksums instead
// of reading every byte again on its one thread.
//
// A CRC is linear over GF(2): appending lenB zero bytes to a multiplies crcA by x^(8*lenB)
// modulo the polynomial, done here by squaring the 32x32 bit matrix of "append one zero
// bit" (O(log lenB) matrix products, as zlib's crc32_combine does), after which crcB is
// added.
func CRC32CCombine(crcA, crcB uint32, lenB int64) uint32 {
	if lenB <= 0 {
		return crcA
	}
	var even, odd [32]uint32  // operators for 2^k zero bits, alternately
	odd[0] = crc32.Castagnoli // the polynomial, reflected: one zero bit
	for n, row := 1, uint32(1); n < 32; n, row = n+1, row<<1 {
		odd[n] = row
	}
	gf2Square(&even, &odd) // two zero bits
	gf2Square(&odd, &even) // four
	for {
		gf2Square(&even, &odd) // the first pass makes one zero byte
		if lenB&1 != 0 {
			crcA = gf2Times(&even, crcA)
		}
		lenB >>= 1
		if lenB == 0 {
			break
		}
		gf2Square(&odd, &even)
		if lenB&1 != 0 {
			crcA = gf2Times(&odd, crcA)
		}
		lenB >>= 1
		if lenB == 0 {
			break
		}
	}
	return crcA ^ crcB
}

// gf2Times multiplies the bit vector vec by the matrix mat (columns mat[i]).
func gf2Times(mat *[32]uint32, vec uint32) uint32 {
	var sum uint32
	for i := 0; vec != 0; i, vec = i+1, vec>>1 {
		if vec&1 != 0 {
			sum ^= mat[i]
		}
	}
	return sum
}

// gf2Square sets sq to mat*mat.
func gf2Square(sq, mat *[32]uint32) {
	for n := range mat {
		sq[n] = gf2Times(mat, mat[n])
	}
}

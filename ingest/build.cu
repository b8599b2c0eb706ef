// build.cu: the kernels of the GPU ingest (ingest/gpu_cuda.go). The parsed edges arrive as
// keys src<<32|dst, once each (expand makes the directed keys); the device sorts them (a
// stable LSD radix sort over the bits the vertex count needs), drops the duplicates,
// counts degrees, sizes every block of every list (a thread per block plans it as the CPU
// does) and encodes the lists in the store's format (store/FORMAT.md, "ADJ: one list"),
// byte for byte what store.AppendList writes. The CPU ingest is the twin: the GPU's shards
// must be identical to it (ingest/gpu_cuda_test.go).
#include <stdint.h>

#define OOC_BLOCK 64u // neighbours per compressed block (store.BlockSize)

#define RT 256                // threads of every kernel here
#define RR 16                 // keys per thread of a tile
#define TILE (RT * RR)        // keys a block handles
#define FULL 0xFFFFFFFFu

// ---- keys -----------------------------------------------------------------------------

// An undirected ingest that drops duplicates keeps each copy's orientation in its key, as
// the CPU ingest does (ingest/orient.go): src<<32 | dst<<1 | o, o = 0 for the copy the
// input line names, 1 for its reverse; the sort then takes the low half as b+1 bits. The
// deduplication compares keys without o and writes them without it, and count_pairs
// counts the reciprocal pairs. DUP_KEEP and DUP_ORIENTED are the bits of keepDup.
#define DUP_KEEP 1u
#define DUP_ORIENTED 2u

// sameEdge says whether keys a and b are copies of one directed edge.
__device__ __forceinline__ bool sameEdge(uint64_t a, uint64_t b, uint32_t keepDup) {
	return keepDup & DUP_ORIENTED ? a >> 1 == b >> 1 : a == b;
}

// plainKey drops an oriented key's orientation.
__device__ __forceinline__ uint64_t plainKey(uint64_t k, uint32_t keepDup) {
	return keepDup & DUP_ORIENTED ? (k >> 32) << 32 | ((uint32_t)k >> 1) : k;
}

// digitOf is the digit of key k (src<<32|dst) at bit shift of the packed key src<<b|dst,
// which holds the 2b significant bits (b = bits of the largest id).
__device__ __forceinline__ uint32_t digitOf(uint64_t k, uint32_t b, uint32_t shift, uint32_t mask) {
	uint64_t ck = ((k >> 32) << b) | (k & 0xFFFFFFFFull);
	return (uint32_t)(ck >> shift) & mask;
}

// ---- block-wide exclusive scan of one value per thread -----------------------------------

// blockScan returns the exclusive prefix of x over the block's threads (RT of them) and
// the block's total in *total.
__device__ __forceinline__ uint64_t blockScan(uint64_t x, uint64_t *total) {
	__shared__ uint64_t warpSums[RT / 32];
	__shared__ uint64_t blockTotal;
	const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	uint64_t inc = x;
	for (int o = 1; o < 32; o <<= 1) {
		uint64_t y = __shfl_up_sync(FULL, inc, o);
		if (lane >= o) inc += y;
	}
	if (lane == 31) warpSums[warp] = inc;
	__syncthreads();
	if (warp == 0) {
		uint64_t w = lane < RT / 32 ? warpSums[lane] : 0;
		uint64_t wi = w;
		for (int o = 1; o < RT / 32; o <<= 1) {
			uint64_t y = __shfl_up_sync(FULL, wi, o);
			if (lane >= o) wi += y;
		}
		if (lane < RT / 32) warpSums[lane] = wi - w; // exclusive
		if (lane == RT / 32 - 1) blockTotal = wi;
	}
	__syncthreads();
	uint64_t r = warpSums[warp] + inc - x;
	*total = blockTotal;
	__syncthreads(); // warpSums is reused by the next call
	return r;
}

// ---- values that are scanned --------------------------------------------------------------

// vlen is the length of x's LEB128 varint (x < 2^35).
__device__ __forceinline__ uint32_t vlen(uint64_t x) {
	return 1 + (x >= (1ull << 7)) + (x >= (1ull << 14)) + (x >= (1ull << 21)) + (x >= (1ull << 28));
}

__device__ __forceinline__ uint64_t zigzag(uint32_t x, uint32_t v) {
	int64_t d = (int64_t)x - (int64_t)v;
	return (uint64_t)((d << 1) ^ (d >> 63));
}

// ---- the list codec (store/codec.go's twin, byte for byte) -------------------------------

#define PACKED_MIN 4u // store.PackedMin
#define MIRROR_MAX 8u // store.MirrorMax
#define HDR_EXCEPTIONS 0x40u
#define HDR_COMPACT 0x80u
#define HDR_MIRROR 0xFFu
#define EXC_HEADER 14u // a compact block's exception count, step and high-part widths: 6+3+5 bits

// The codings of a block of at least PACKED_MIN neighbours (store's modeVarint, ...).
#define MODE_VARINT 0u
#define MODE_PACKED 1u
#define MODE_COMPACT 2u
#define MODE_MIRRORED 3u

__device__ __forceinline__ uint32_t bitLen(uint32_t x) { return 32 - __clz(x); }

// vbytes is the length of the varint of a value of k bits (store's varintBytes).
__device__ __forceinline__ uint32_t vbytes(uint32_t k) { return k <= 7 ? 1 : (k + 6) / 7; }

// gapAt is gap i of the block whose first neighbour is keys uk[j].
__device__ __forceinline__ uint32_t gapAt(const uint64_t *uk, uint64_t j, uint32_t i) {
	return (uint32_t)uk[j + i + 1] - (uint32_t)uk[j + i];
}

// Plan is how a block of at least PACKED_MIN neighbours is coded (store.blockPlan).
struct Plan {
	uint32_t mode;
	uint32_t base, w, ne; // packed: smallest gap; packed, compact: width, exceptions
	uint32_t wi, wh;      // compact: bits of an exception's index step and high part
	uint32_t bytes;       // the block's bytes after its first value
};

// planPacked is store.planPacked for the block of c neighbours at keys uk[j..j+c): packed
// at the width of fewest bytes (ties to the widest), or varints when fewer still (ties to
// packed).
__device__ Plan planPacked(const uint64_t *uk, uint64_t j, uint32_t c) {
	uint32_t n = c - 1, base = 0xFFFFFFFFu, varints = 0;
	for (uint32_t i = 0; i < n; i++) base = min(base, gapAt(uk, j, i));
	uint32_t cnt[33];
	for (int l = 0; l < 33; l++) cnt[l] = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t g = gapAt(uk, j, i);
		cnt[bitLen(g - base)]++;
		varints += vbytes(bitLen(g));
	}
	int maxL = 32;
	while (maxL > 0 && cnt[maxL] == 0) maxL--;
	Plan p = {MODE_PACKED, base, (uint32_t)maxL, 0, 0, 0, (n * maxL + 7) / 8};
	uint32_t ne = 0, exc = 0;
	for (int w = maxL - 1; w >= 0; w--) {
		ne += cnt[w + 1];
		exc += 2 * cnt[w + 1];
		for (int l = w + 8; l <= maxL; l += 7) exc += cnt[l];
		uint32_t bytes = (n * w + 7) / 8 + 1 + exc;
		if (bytes < p.bytes) p.w = w, p.ne = ne, p.bytes = bytes;
	}
	p.bytes += 1 + vbytes(bitLen(base));
	if (p.bytes > varints) {
		p.mode = MODE_VARINT;
		p.bytes = varints;
	}
	return p;
}

// planCompact is store.planCompact: the block as a compact block (every gap at least 1,
// stored as g-1) at the width of fewest bytes (ties to the widest); false when a gap is 0.
__device__ bool planCompact(const uint64_t *uk, uint64_t j, uint32_t c, Plan *q) {
	uint32_t n = c - 1, maxL = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t g = gapAt(uk, j, i);
		if (g == 0) return false;
		maxL = max(maxL, bitLen(g - 1));
	}
	*q = {MODE_COMPACT, 1, maxL, 0, 0, 0, 1 + (n * maxL + 7) / 8};
	for (int w = (int)maxL - 1; w >= 0; w--) {
		uint32_t ne = 0, step = 0;
		int last = -1;
		for (uint32_t i = 0; i < n; i++) {
			if ((gapAt(uk, j, i) - 1) >> w) {
				ne++;
				step = max(step, (uint32_t)((int)i - last - 1));
				last = (int)i;
			}
		}
		uint32_t wi = bitLen(step), wh = maxL - w;
		uint32_t bytes = 1 + (n * w + EXC_HEADER + ne * (wi + wh) + 7) / 8;
		if (bytes < q->bytes) *q = {MODE_COMPACT, 1, (uint32_t)w, ne, wi, wh, bytes};
	}
	return true;
}

// mirrorBytes is store.mirrorBytes: the block's bytes after its first value as a mirrored
// block, or 0 when it is not one (an even count up to MIRROR_MAX, x and 2v-x both in it).
__device__ uint32_t mirrorBytes(const uint64_t *uk, uint64_t j, uint32_t c, uint32_t v) {
	if (c % 2 != 0 || c > MIRROR_MAX) return 0;
	uint32_t n = 1;
	for (uint32_t i = 0; i < c / 2; i++) {
		if ((uint64_t)(uint32_t)uk[j + i] + (uint32_t)uk[j + c - 1 - i] != 2ull * v) return 0;
		if (i + 1 < c / 2) n += vbytes(bitLen(gapAt(uk, j, i)));
	}
	return n;
}

// planBlock is store's choice for a block of at least PACKED_MIN neighbours of v's list:
// the coding of fewest bytes, ties to mirrored, then compact, packed, varints.
__device__ Plan planBlock(const uint64_t *uk, uint64_t j, uint32_t c, uint32_t v) {
	Plan p = planPacked(uk, j, c), q;
	if (planCompact(uk, j, c, &q) && q.bytes <= p.bytes) p = q;
	uint32_t m = mirrorBytes(uk, j, c, v);
	if (m != 0 && m <= p.bytes) p.mode = MODE_MIRRORED, p.bytes = m;
	return p;
}

// firstCode is the varint value of a block's first neighbour x of v's list: the zigzag
// of x-v, with the packed bit below it in a block of at least PACKED_MIN.
__device__ __forceinline__ uint64_t firstCode(uint32_t x, uint32_t v, uint32_t c, bool packed) {
	uint64_t z = zigzag(x, v);
	return c < PACKED_MIN ? z : z << 1 | (packed ? 1 : 0);
}

// blockBytes is the length of the block of c neighbours at keys uk[j..j+c) of v's list.
__device__ uint64_t blockBytes(const uint64_t *uk, uint64_t j, uint32_t c, uint32_t v) {
	uint32_t x = (uint32_t)uk[j];
	if (c < PACKED_MIN) {
		uint64_t len = vlen(zigzag(x, v));
		for (uint32_t i = 1; i < c; i++) len += vlen((uint32_t)uk[j + i] - (uint32_t)uk[j + i - 1]);
		return len;
	}
	Plan p = planBlock(uk, j, c, v);
	return vlen(firstCode(x, v, c, p.mode != MODE_VARINT)) + p.bytes;
}

// nbrBytes is neighbour i's share of its list's bytes: for a block's first neighbour the
// whole block, and for a list's first also the list's block index (4 bytes per block
// after the first); 0 for the others.
__device__ __forceinline__ uint64_t nbrBytes(const uint64_t *uk, const uint64_t *rowptr, uint64_t i) {
	uint64_t k = uk[i];
	uint32_t src = (uint32_t)(k >> 32);
	uint64_t start = rowptr[src], p = i - start, deg = rowptr[src + 1] - start;
	if (p % OOC_BLOCK != 0) return 0;
	uint64_t len = blockBytes(uk, i, (uint32_t)min((uint64_t)OOC_BLOCK, deg - p), src);
	if (p == 0) len += 4 * ((deg + OOC_BLOCK - 1) / OOC_BLOCK - 1);
	return len;
}

// Scan modes: what element i of a scan is.
#define SCAN_U32 0   // in32[i]
#define SCAN_BYTES 1 // nbrBytes(keys, rowptr, i)
#define SCAN_FLAGS 2 // 1 where keys[i] starts a run of equal keys (all 1 with keepDup)

__device__ __forceinline__ uint64_t scanValue(int mode, const uint32_t *in32, const uint64_t *keys,
                                              const uint64_t *rowptr, uint64_t i, uint32_t keepDup) {
	switch (mode) {
	case SCAN_U32:
		return in32[i];
	case SCAN_BYTES:
		return nbrBytes(keys, rowptr, i);
	default:
		return (keepDup & DUP_KEEP) || i == 0 || !sameEdge(keys[i], keys[i - 1], keepDup);
	}
}

// scan_reduce: partial[block] = the sum of the block's TILE elements (a tile's thread t
// takes elements t*RR .. t*RR+RR-1).
extern "C" __global__ void scan_reduce(int mode, const uint32_t *in32, const uint64_t *keys, const uint64_t *rowptr,
                                       uint64_t n, uint32_t keepDup, uint64_t *partial) {
	uint64_t base = (uint64_t)blockIdx.x * TILE + (uint64_t)threadIdx.x * RR;
	uint64_t s = 0;
	for (int r = 0; r < RR; r++) {
		uint64_t i = base + r;
		if (i < n) s += scanValue(mode, in32, keys, rowptr, i, keepDup);
	}
	uint64_t total;
	blockScan(s, &total);
	if (threadIdx.x == 0) partial[blockIdx.x] = total;
}

// scan_partials turns partial[0..np) into its exclusive prefix sums and writes the sum of
// all at partial[np]; one block.
extern "C" __global__ void scan_partials(uint64_t *partial, uint64_t np) {
	__shared__ uint64_t carry;
	if (threadIdx.x == 0) carry = 0;
	__syncthreads();
	for (uint64_t base = 0; base < np; base += RT) {
		uint64_t i = base + threadIdx.x;
		uint64_t x = i < np ? partial[i] : 0;
		uint64_t total;
		uint64_t e = blockScan(x, &total);
		uint64_t c = carry;
		if (i < np) partial[i] = c + e;
		__syncthreads();
		if (threadIdx.x == 0) carry = c + total;
		__syncthreads();
	}
	if (threadIdx.x == 0) partial[np] = carry;
}

// scan_down writes the exclusive prefix sums of the elements: out32 (when not null) or
// out64, and out at n the total (the block holding the last element writes it).
extern "C" __global__ void scan_down(int mode, const uint32_t *in32, const uint64_t *keys, const uint64_t *rowptr,
                                     uint64_t n, uint32_t keepDup, const uint64_t *partial, uint32_t *out32,
                                     uint64_t *out64) {
	uint64_t base = (uint64_t)blockIdx.x * TILE + (uint64_t)threadIdx.x * RR;
	uint64_t vals[RR];
	uint64_t s = 0;
	for (int r = 0; r < RR; r++) {
		uint64_t i = base + r;
		vals[r] = i < n ? scanValue(mode, in32, keys, rowptr, i, keepDup) : 0;
		s += vals[r];
	}
	uint64_t total;
	uint64_t at = partial[blockIdx.x] + blockScan(s, &total);
	for (int r = 0; r < RR; r++) {
		uint64_t i = base + r;
		if (i <= n) {
			if (out32) out32[i] = (uint32_t)at;
			else out64[i] = at;
		}
		at += vals[r];
	}
}

// uniq_write moves the first key of every run of equal keys (every key with DUP_KEEP) to
// out, in order, without its orientation (DUP_ORIENTED): partial holds the exclusive scan
// of scan_reduce(SCAN_FLAGS) per block.
extern "C" __global__ void uniq_write(const uint64_t *keys, uint64_t n, uint32_t keepDup, const uint64_t *partial,
                                      uint64_t *out) {
	uint64_t base = (uint64_t)blockIdx.x * TILE + (uint64_t)threadIdx.x * RR;
	uint32_t flags = 0;
	uint64_t s = 0;
	for (int r = 0; r < RR; r++) {
		uint64_t i = base + r;
		if (i < n && ((keepDup & DUP_KEEP) || i == 0 || !sameEdge(keys[i], keys[i - 1], keepDup))) flags |= 1u << r, s++;
	}
	uint64_t total;
	uint64_t at = partial[blockIdx.x] + blockScan(s, &total);
	for (int r = 0; r < RR; r++) {
		if (flags >> r & 1) out[at++] = plainKey(keys[base + r], keepDup);
	}
}

// count_pairs adds to *pairs the reciprocal pairs among n sorted oriented keys: a key
// src -> dst, src < dst, whose run of copies holds both orientations, counted at the
// first reversed copy after a forward one. A warp adds its count once.
extern "C" __global__ void count_pairs(const uint64_t *keys, uint64_t n, unsigned long long *pairs) {
	uint64_t i = (uint64_t)blockIdx.x * RT + threadIdx.x;
	bool hit = false;
	if (i > 0 && i < n) {
		uint64_t k = keys[i], q = keys[i - 1];
		hit = (k & 1) && !(q & 1) && k >> 1 == q >> 1 && (uint32_t)(k >> 32) < ((uint32_t)k >> 1);
	}
	uint32_t votes = __ballot_sync(FULL, hit);
	if ((threadIdx.x & 31) == 0 && votes) atomicAdd(pairs, (unsigned long long)__popc(votes));
}

// ---- the radix sort ---------------------------------------------------------------------

// radix_hist counts the digits of tile blockIdx.x: counts[d*ntiles + tile].
extern "C" __global__ void radix_hist(const uint64_t *keys, uint64_t n, uint32_t b, uint32_t shift, uint32_t mask,
                                      uint32_t *counts, uint64_t ntiles) {
	__shared__ uint32_t h[256];
	h[threadIdx.x] = 0;
	__syncthreads();
	uint64_t base = (uint64_t)blockIdx.x * TILE;
	uint64_t end = min(base + TILE, n);
	for (uint64_t i = base + threadIdx.x; i < end; i += RT) atomicAdd(&h[digitOf(keys[i], b, shift, mask)], 1u);
	__syncthreads();
	counts[(uint64_t)threadIdx.x * ntiles + blockIdx.x] = h[threadIdx.x];
}

// radix_scatter moves tile blockIdx.x's keys to their places, stably: offs is the
// exclusive scan of radix_hist's counts (digit-major), so offs[d*ntiles + tile] is where
// the tile's first key of digit d goes. The tile is taken in rounds of RT keys in order;
// within a round a key's rank among its digit's keys is the count in earlier warps plus
// its rank among its warp's lanes (__match_any_sync).
extern "C" __global__ void radix_scatter(const uint64_t *in, uint64_t *out, uint64_t n, uint32_t b, uint32_t shift,
                                         uint32_t mask, const uint32_t *offs, uint64_t ntiles) {
	__shared__ uint32_t next[256];
	__shared__ uint32_t wc[RT / 32][256];
	const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	next[threadIdx.x] = offs[(uint64_t)threadIdx.x * ntiles + blockIdx.x];
	for (int w = 0; w < RT / 32; w++) wc[w][threadIdx.x] = 0;
	__syncthreads();
	const uint32_t lt = (1u << lane) - 1;
	uint64_t base = (uint64_t)blockIdx.x * TILE;
	for (int r = 0; r < RR; r++) {
		uint64_t i = base + (uint64_t)r * RT + threadIdx.x;
		bool valid = i < n;
		uint64_t k = valid ? in[i] : 0;
		uint32_t d = valid ? digitOf(k, b, shift, mask) : 0x10000u + lane; // invalid lanes match nobody
		uint32_t peers = __match_any_sync(FULL, d);
		uint32_t rank = __popc(peers & lt);
		if (valid && rank == 0) wc[warp][d] = __popc(peers);
		__syncthreads();
		if (valid) {
			uint32_t pos = next[d] + rank;
			for (int w = 0; w < warp; w++) pos += wc[w][d];
			out[pos] = k;
		}
		__syncthreads();
		uint32_t sum = 0;
		for (int w = 0; w < RT / 32; w++) {
			sum += wc[w][threadIdx.x];
			wc[w][threadIdx.x] = 0;
		}
		next[threadIdx.x] += sum;
		__syncthreads();
	}
}

// ---- per-vertex counts ----------------------------------------------------------------

// deg_count adds each key's source to deg: 1 a key, loopWeight for a key src==dst (the
// degree order counts a kept undirected self-loop's vertex twice, as it counts every
// endpoint of every input line), and counts those keys in *loops. Runs of one source in
// a warp (sorted keys) add once.
extern "C" __global__ void deg_count(const uint64_t *keys, uint64_t n, uint32_t *deg, uint32_t loopWeight,
                                     unsigned long long *loops) {
	uint64_t i = (uint64_t)blockIdx.x * RT + threadIdx.x;
	bool valid = i < n;
	uint64_t k = valid ? keys[i] : 0;
	uint32_t src = (uint32_t)(k >> 32);
	uint32_t key = valid ? src : 0xFFFFFFFFu; // no vertex has this id
	uint32_t peers = __match_any_sync(FULL, key);
	int lane = threadIdx.x & 31;
	if (valid && (peers & ((1u << lane) - 1)) == 0) atomicAdd(&deg[src], __popc(peers));
	if (valid && src == (uint32_t)k) {
		if (loopWeight > 1) atomicAdd(&deg[src], loopWeight - 1);
		atomicAdd(loops, 1ull);
	}
}

// relabel renumbers both ends of every key: perm[old] is the new id; an oriented key
// (oriented set) keeps its orientation.
extern "C" __global__ void relabel(uint64_t *keys, uint64_t n, const uint32_t *perm, uint32_t oriented) {
	uint64_t i = (uint64_t)blockIdx.x * RT + threadIdx.x;
	if (i < n) {
		uint64_t k = keys[i];
		if (oriented) {
			keys[i] = (uint64_t)perm[k >> 32] << 32 | (uint64_t)perm[(uint32_t)k >> 1] << 1 | (k & 1);
		} else {
			keys[i] = (uint64_t)perm[k >> 32] << 32 | perm[(uint32_t)k];
		}
	}
}

// expand writes the keys of n edges (src<<32|dst, no self-loops): both ways (mode 0,
// undirected: dst[2i], dst[2i+1]), as they are (1: out-keys) or transposed (2: in-keys);
// modes 3 and 4 are 0 and 1 with oriented keys (ids below 2^31).
extern "C" __global__ void expand(uint64_t *dst, const uint64_t *src, uint64_t n, uint32_t mode) {
	uint64_t i = (uint64_t)blockIdx.x * RT + threadIdx.x;
	if (i >= n) return;
	uint64_t k = src[i], t = k << 32 | k >> 32;
	switch (mode) {
	case 0:
		dst[2 * i] = k;
		dst[2 * i + 1] = t;
		break;
	case 3:
		dst[2 * i] = (k >> 32) << 32 | ((uint32_t)k << 1);
		dst[2 * i + 1] = (t >> 32) << 32 | ((uint32_t)t << 1) | 1;
		break;
	case 4:
		dst[i] = (k >> 32) << 32 | ((uint32_t)k << 1);
		break;
	default:
		dst[i] = mode == 1 ? k : t;
	}
}

// deg_pairs adds both ends of n edges to deg.
extern "C" __global__ void deg_pairs(const uint64_t *keys, uint64_t n, uint32_t *deg) {
	uint64_t i = (uint64_t)blockIdx.x * RT + threadIdx.x;
	if (i < n) {
		uint64_t k = keys[i];
		atomicAdd(&deg[k >> 32], 1u);
		atomicAdd(&deg[(uint32_t)k], 1u);
	}
}

// listStart is where vertex v's list starts in the adjacency bytes (off has U+1 entries,
// its last the total; v may be n).
__device__ __forceinline__ uint64_t listStart(const uint64_t *rowptr, const uint64_t *off, uint64_t v) {
	return off[rowptr[v]];
}

// piece_bounds finds where the write's pieces start: at each vertex whose list starts in
// another window of span bytes than its predecessor's, and every maxV vertices. Each
// start v appends (v, rowptr[v], listStart(v)) to out, in no order; *count counts them.
extern "C" __global__ void piece_bounds(const uint64_t *rowptr, const uint64_t *off, uint64_t n, uint64_t span,
                                        uint64_t maxV, unsigned long long *count, uint64_t *out) {
	uint64_t v = (uint64_t)blockIdx.x * RT + threadIdx.x + 1;
	if (v >= n) return;
	uint64_t a = listStart(rowptr, off, v - 1), b = listStart(rowptr, off, v);
	if (a / span != b / span || v % maxV == 0) {
		uint64_t i = atomicAdd(count, 1ull);
		out[3 * i] = v;
		out[3 * i + 1] = rowptr[v];
		out[3 * i + 2] = b;
	}
}

// piece_meta writes the degrees of vertices [a, a+k) as k uint32 at out, and their lists'
// k+1 offsets from the first's start as uint32 after them.
extern "C" __global__ void piece_meta(const uint64_t *rowptr, const uint64_t *off, const uint32_t *deg, uint64_t a,
                                      uint64_t k, uint32_t *out) {
	uint64_t i = (uint64_t)blockIdx.x * RT + threadIdx.x;
	if (i > k) return;
	if (i < k) out[i] = deg[a + i];
	out[k + i] = (uint32_t)(listStart(rowptr, off, a + i) - listStart(rowptr, off, a));
}

// ---- encoding -------------------------------------------------------------------------

__device__ __forceinline__ uint8_t *putVarint(uint8_t *p, uint64_t x) {
	while (x >= 0x80) {
		*p++ = (uint8_t)(x | 0x80);
		x >>= 7;
	}
	*p++ = (uint8_t)x;
	return p;
}

// BitWriter appends fields of up to 32 bits to a little-endian bit stream.
struct BitWriter {
	uint8_t *o;
	uint64_t acc;
	uint32_t n;
	__device__ __forceinline__ void put(uint64_t x, uint32_t w) {
		acc |= x << n;
		n += w;
		while (n >= 8) {
			*o++ = (uint8_t)acc;
			acc >>= 8;
			n -= 8;
		}
	}
	__device__ __forceinline__ uint8_t *flush() {
		if (n > 0) *o++ = (uint8_t)acc;
		return o;
	}
};

// putBlock writes the block of c neighbours at keys uk[j..j+c) of v's list at o
// (store.putBlock).
__device__ void putBlock(uint8_t *o, const uint64_t *uk, uint64_t j, uint32_t c, uint32_t v) {
	uint32_t x = (uint32_t)uk[j];
	if (c < PACKED_MIN) {
		o = putVarint(o, zigzag(x, v));
		for (uint32_t i = 1; i < c; i++) o = putVarint(o, gapAt(uk, j, i - 1));
		return;
	}
	Plan p = planBlock(uk, j, c, v);
	o = putVarint(o, firstCode(x, v, c, p.mode != MODE_VARINT));
	if (p.mode == MODE_VARINT) {
		for (uint32_t i = 1; i < c; i++) o = putVarint(o, gapAt(uk, j, i - 1));
		return;
	}
	if (p.mode == MODE_MIRRORED) {
		*o++ = (uint8_t)HDR_MIRROR;
		for (uint32_t i = 0; i + 1 < c / 2; i++) o = putVarint(o, gapAt(uk, j, i));
		return;
	}
	uint64_t mask = (1ull << p.w) - 1;
	if (p.mode == MODE_COMPACT) {
		*o++ = (uint8_t)(HDR_COMPACT | p.w | (p.ne ? HDR_EXCEPTIONS : 0));
		BitWriter b = {o, 0, 0};
		for (uint32_t i = 0; i + 1 < c; i++) b.put((uint64_t)(gapAt(uk, j, i) - 1) & mask, p.w);
		if (p.ne) {
			b.put(p.ne, 6);
			b.put(p.wi, 3);
			b.put(p.wh - 1, 5);
			int last = -1;
			for (uint32_t i = 0; i + 1 < c; i++) {
				uint64_t hi = (uint64_t)(gapAt(uk, j, i) - 1) >> p.w;
				if (hi) {
					b.put((uint32_t)((int)i - last - 1), p.wi);
					b.put(hi, p.wh);
					last = (int)i;
				}
			}
		}
		b.flush();
		return;
	}
	*o++ = (uint8_t)(p.w | (p.ne ? HDR_EXCEPTIONS : 0));
	o = putVarint(o, p.base);
	if (p.ne) *o++ = (uint8_t)p.ne;
	BitWriter b = {o, 0, 0};
	for (uint32_t i = 0; i + 1 < c; i++) b.put((uint64_t)(gapAt(uk, j, i) - p.base) & mask, p.w);
	o = b.flush();
	if (p.ne) {
		for (uint32_t i = 1; i < c; i++) {
			uint32_t r = gapAt(uk, j, i - 1) - p.base;
			uint64_t hi = (uint64_t)r >> p.w;
			if (hi) {
				*o++ = (uint8_t)(i - 1);
				o = putVarint(o, hi);
			}
		}
	}
}

// encode writes the blocks that start among neighbours [j0, j1) of uk, whose lists start
// at or after byte base of the adjacency, into out (out[0] is byte base): each block at
// off[j] of its first neighbour j (after the block index for a list's first block), and
// each block after a list's first its index entry. A thread per neighbour; those that do
// not start a block have nothing to do.
extern "C" __global__ void encode(const uint64_t *uk, const uint64_t *rowptr, const uint64_t *off, uint64_t j0,
                                  uint64_t j1, uint64_t base, uint8_t *out) {
	uint64_t j = j0 + (uint64_t)blockIdx.x * RT + threadIdx.x;
	if (j >= j1) return;
	uint64_t k = uk[j];
	uint32_t v = (uint32_t)(k >> 32);
	uint64_t start = rowptr[v], p = j - start, deg = rowptr[v + 1] - start;
	if (p % OOC_BLOCK != 0) return;
	uint64_t at = off[j] - base;
	if (p == 0) {
		at += 4 * ((deg + OOC_BLOCK - 1) / OOC_BLOCK - 1);
	} else {
		uint32_t rel = (uint32_t)(off[j] - off[start]);
		uint8_t *e = out + (off[start] - base) + 4 * (p / OOC_BLOCK - 1);
		e[0] = (uint8_t)rel, e[1] = (uint8_t)(rel >> 8), e[2] = (uint8_t)(rel >> 16), e[3] = (uint8_t)(rel >> 24);
	}
	putBlock(out + at, uk, j, (uint32_t)min((uint64_t)OOC_BLOCK, deg - p), v);
}

// runtime.cu: the GPU runtime's own kernels (package gpu): the first-neighbour array the
// memory plan keeps on the device, and the link probe. Algorithms' kernels live in their
// own folders (bfs/bfs.cu, afforest/afforest.cu).
#include "graph.cuh" // store/graph.cuh (nvcc -I store)

// link_probe measures zero-copy reads the way sparse list decoding does them: every warp
// reads 128 contiguous bytes (a 4-byte word per lane) at a pseudo-random 128-byte-aligned
// place inside a window of win bytes of pinned host memory, reads times. The sum keeps the
// loads alive; the host times the launch.
extern "C" __global__ void link_probe(const uint32_t *win, unsigned long long win128, uint32_t reads,
                                      unsigned long long *sink) {
	uint32_t warps = (gridDim.x * blockDim.x) >> 5;
	uint32_t warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
	uint32_t acc = 0;
	for (uint32_t r = warp; r < reads; r += warps) {
		unsigned long long h = (unsigned long long)r * 0x9E3779B97F4A7C15ull;
		h ^= h >> 29;
		unsigned long long at = (h % win128) * 32 + laneId();
		acc += __ldg(win + at);
	}
	if (acc == 0x12345678u) atomicAdd(sink, 1ull);
}

// firstPut ORs the W-bit entry x (W <= 32) into the packed words b at bit p; entries of
// neighbouring vertices share words, so the OR is atomic.
__device__ __forceinline__ void firstPut(unsigned long long *b, uint64_t p, uint32_t W, uint32_t x) {
	uint64_t q = p >> 6;
	uint32_t o = (uint32_t)p & 63;
	atomicOr(b + q, (unsigned long long)x << o);
	if (o + W > 64) atomicOr(b + q + 1, (unsigned long long)x >> (64 - o));
}

// first_fill writes the first K neighbours of every vertex of shard s into first (packed
// at W bits an entry, NONE-padded as W one bits; graph.cuh's firstAt reads them), the
// device-resident prefix that bu_sweep and cc_sample read. first starts zeroed.
extern "C" __global__ void first_fill(SHARD_PARAMS, unsigned long long *first, uint32_t K, uint32_t W) {
	SHARD_LOCAL;
	uint32_t none = (uint32_t)((1ull << W) - 1);
	for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < s.n; i += gridDim.x * blockDim.x) {
		uint32_t v = s.lo + i;
		uint64_t p = (uint64_t)v * K * W;
		uint32_t deg = shardDegree(&s, i), j = 0;
		if (deg > 0) {
			List l;
			l.at(&s, v);
			BlockDecoder d;
			d.init(l, 0);
			uint32_t w;
			while (j < K && d.next(&w)) firstPut(first, p + (uint64_t)(j++) * W, W, w);
		}
		for (; j < K; j++) firstPut(first, p + (uint64_t)j * W, W, none);
	}
}

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

// first_fill writes the first K neighbours of every vertex of shard s into first
// (NONE-padded), the device-resident prefix that bu_sweep and cc_sample read.
extern "C" __global__ void first_fill(SHARD_PARAMS, uint32_t *first, uint32_t K) {
	SHARD_LOCAL;
	for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < s.n; i += gridDim.x * blockDim.x) {
		uint32_t v = s.lo + i;
		uint32_t *f = first + (size_t)v * K;
		uint32_t deg = shardDegree(&s, i), j = 0;
		if (deg > 0) {
			List l;
			l.at(&s, v);
			BlockDecoder d;
			d.init(l, 0);
			uint32_t w;
			while (j < K && d.next(&w)) f[j++] = w;
		}
		for (; j < K; j++) f[j] = NONE;
	}
}

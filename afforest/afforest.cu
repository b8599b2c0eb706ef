// afforest.cu: Afforest connected components (Sutton, Ben-Nun, Barak, IPDPS 2018) over
// delta-varint shards: link each vertex with its r-th neighbour for a few rounds
// (the first neighbours of a list are its first bytes), compress, find the largest
// intermediate component by sampling, then link the remaining edges of vertices outside
// it. Links hook the larger root under the smaller with compare-and-swap, so the
// partition equals any other correct one (the CPU's included).
#include "graph.cuh" // store/graph.cuh (nvcc -I store)

extern "C" __global__ void cc_init(uint32_t *comp, uint32_t n) {
	for (uint32_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x)
		comp[v] = v;
}

// link joins the trees of u and v (the GAPBS formulation of Afforest's link).
__device__ void link(uint32_t *comp, uint32_t u, uint32_t v) {
	uint32_t p1 = comp[u], p2 = comp[v];
	while (p1 != p2) {
		uint32_t high = max(p1, p2), low = min(p1, p2);
		uint32_t ph = comp[high];
		if (ph == low) break;
		if (ph == high && atomicCAS(&comp[high], high, low) == high) break;
		p1 = comp[comp[high]];
		p2 = comp[low];
	}
}

// cc_sample links every vertex of shard s with its r-th neighbour, if it has one.
// first, when not null, holds every vertex's first K neighbours, packed at W bits an
// entry (gpu's first_fill; graph.cuh's firstAt).
// Only the shard's vertices [i0, i1) are linked: the host may stream a pinned shard
// through a staging buffer a chunk at a time, as bu_sweep's does. bytes, when not null,
// receives the list bytes decoded.
extern "C" __global__ void cc_sample(SHARD_PARAMS, uint32_t *comp, uint32_t r, const unsigned long long *first,
                                     uint32_t K, uint32_t W, uint32_t i0, uint32_t i1, unsigned long long *bytes) {
	SHARD_LOCAL;
	unsigned long long nb = 0;
	i1 = min(i1, s.n);
	for (uint32_t i = i0 + blockIdx.x * blockDim.x + threadIdx.x; i < i1; i += gridDim.x * blockDim.x) {
		uint32_t v = s.lo + i;
		if (first != NULL && r < K) {
			uint32_t w = firstAt(first, K, W, v, r);
			if (w != NONE) link(comp, v, w);
			continue;
		}
		List l;
		l.at(&s, v);
		if (r >= l.deg) continue;
		BlockDecoder d;
		d.init(l, r / OOC_BLOCK);
		uint32_t w = 0;
		bool ok = true;
		for (uint32_t j = 0; j <= r % OOC_BLOCK && ok; j++) ok = d.next(&w);
		nb += (unsigned long long)d.used() + (r >= OOC_BLOCK ? 4 : 0);
		if (ok) link(comp, v, w); // else the list is damaged: the fault is recorded
	}
	addWarp(bytes, nb);
}

// cc_sample_first is cc_sample for a round the first-neighbour array answers (r < K), in
// a kernel of its own: it needs none of the list decoder's registers, so more threads
// stay resident to wait on its scattered loads (urand26 at 3 GiB: 47 registers here, 56
// with the decoder's bounds checks, a block fewer a multiprocessor).
extern "C" __global__ void cc_sample_first(uint32_t lo, uint32_t i0, uint32_t i1, uint32_t *comp, uint32_t r,
                                           const unsigned long long *first, uint32_t K, uint32_t W) {
	for (uint32_t i = i0 + blockIdx.x * blockDim.x + threadIdx.x; i < i1; i += gridDim.x * blockDim.x) {
		uint32_t v = lo + i, w = firstAt(first, K, W, v, r);
		if (w != NONE) link(comp, v, w);
	}
}

extern "C" __global__ void cc_compress(uint32_t *comp, uint32_t n) {
	for (uint32_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
		uint32_t c = comp[v];
		while (comp[c] != c) c = comp[c];
		comp[v] = c;
	}
}

// cc_gather copies comp at k sample positions, to find the largest component on the host.
extern "C" __global__ void cc_gather(const uint32_t *comp, const uint32_t *idx, uint32_t *out, uint32_t k) {
	for (uint32_t t = blockIdx.x * blockDim.x + threadIdx.x; t < k; t += gridDim.x * blockDim.x)
		out[t] = comp[idx[t]];
}

#define COOP_BLOCKS 2 // longer lists are shared by the warp, one block per lane

// linkBlock links l.v with the neighbours of block k from position from on; it returns the
// list bytes it decoded (the block's index word included).
__device__ __forceinline__ uint32_t linkBlock(const List &l, uint32_t k, uint32_t from, uint32_t *comp) {
	BlockDecoder d;
	d.init(l, k);
	uint32_t w, j = k * OOC_BLOCK;
	while (d.next(&w)) {
		if (j++ >= from) link(comp, l.v, w);
	}
	return (uint32_t)d.used() + (k > 0 ? 4 : 0);
}

// cc_finish links every neighbour from position from onwards of each vertex of shard s
// that is not in the largest component c. Three blocks a multiprocessor (sm_90: 67
// registers, no spill, with the decoder inlined once).
extern "C" __global__ void __launch_bounds__(256, 3) cc_finish(SHARD_PARAMS, uint32_t *comp, uint32_t c, uint32_t from,
                                     unsigned long long *bytes) {
	SHARD_LOCAL;
	uint32_t stride = gridDim.x * blockDim.x;
	unsigned long long nb = 0;
	for (uint32_t base = blockIdx.x * blockDim.x; base < s.n; base += stride) {
		uint32_t i = base + threadIdx.x;
		uint32_t v = s.lo + i;
		List l;
		l.nb = 0;
		// a list of at most from neighbours has none left to link (isolated vertices: most
		// of those outside the largest component of a Kronecker graph)
		bool mine = i < s.n && comp[v] != c && shardDegree(&s, i) > from;
		if (mine) l.at(&s, v);
		unsigned coop = __ballot_sync(0xffffffffu, mine && l.nb > COOP_BLOCKS);
		// the lane's own short list, one block after another, then each long list of the
		// warp, a block a lane: one loop, so the decoder is inlined once
		uint32_t k = from / OOC_BLOCK, step = 1;
		if (l.nb > COOP_BLOCKS) l.nb = 0;
		for (;;) {
			for (; k < l.nb; k += step) nb += linkBlock(l, k, from, comp);
			__syncwarp();
			if (!coop) break;
			int src = __ffs(coop) - 1;
			coop &= coop - 1;
			l.at(&s, __shfl_sync(0xffffffffu, v, src));
			k = from / OOC_BLOCK + laneId(), step = 32;
		}
	}
	addWarp(bytes, nb);
}

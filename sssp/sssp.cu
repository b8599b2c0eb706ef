// sssp.cu: single-source shortest paths by delta-stepping (package sssp's GPU version),
// organized as a near queue and a far pile (Davidson et al., "Work-efficient parallel GPU
// methods for single-source shortest paths", IPDPS 2014). The current bin holds the
// distances below binHi = (bin+1)*delta. A round relaxes every out-edge of the near
// queue's vertices with atomicMin on the uint32 distances; a vertex whose distance a round
// lowers below binHi joins the next near queue once (stamp[u] holds the last round that
// queued it), one lowered to binHi or beyond joins the far pile unless it lies there
// already (its bit in farBits). When the near queue is empty, sp_far_min finds the
// smallest bin of the far pile's vertices that lies beyond the current one, and sp_split
// moves that bin's vertices to the near queue, drops those settled since they were filed
// and keeps the rest. Within a bin the rounds end when no distance in it falls, so every
// distance is exact whatever the order of the updates. The parents are
// then derived from the distances as the CPU twin defines them: the smallest u with an
// edge u -> v of weight c and dist[u] + c = dist[v]. The lists are read through the shard
// table (device memory or pinned host memory, read zero-copy); the weights of out-shard i
// start at wts[i] (the shard's WEIGHTS section, aligned with its lists) and v's at wOff[v]
// within it; unit != 0 weighs every edge 1 instead.
#include "graph.cuh" // store/graph.cuh (nvcc -I store)

// Relax is one round's view of the state.
struct Relax {
	const uint64_t *wts; // device addresses of the out-shards' WEIGHTS sections
	const uint32_t *wOff;
	uint32_t unit;
	uint32_t *dist, *stamp, round, *next;
	unsigned long long *nextCount;
	uint32_t *bad;
	unsigned long long binHi; // distances from here on belong to later bins
	uint32_t *far, *farBits;
	unsigned long long *farCount;
};

#define BATCH 8 // neighbours a thread relaxes together

// relaxBlock relaxes the edges of block b of l (v's list, at distance du; wv: v's
// weights, NULL for unit weights). The neighbours go BATCH at a time: their weights and
// distances are loaded together, then their atomics issued together, so a thread waits
// for memory (the weights are often zero-copy) a few times a batch rather than a few
// times an edge.
__device__ __forceinline__ void relaxBlock(const Relax &r, const uint32_t *wv, const List &l, uint32_t b, uint64_t du) {
	BlockDecoder d;
	d.init(l, b);
	uint32_t k = b * OOC_BLOCK;
	for (;;) {
		uint32_t u[BATCH], dv[BATCH], old[BATCH];
		uint64_t nd[BATCH];
		int c = 0;
#pragma unroll
		for (int j = 0; j < BATCH; j++)
			if (d.next(&u[j])) c = j + 1;
#pragma unroll
		for (int j = 0; j < BATCH; j++) nd[j] = j < c ? du + (wv != NULL ? __ldg(wv + k + j) : 1u) : NONE;
#pragma unroll
		for (int j = 0; j < BATCH; j++) dv[j] = nd[j] < NONE ? __ldcg(&r.dist[u[j]]) : 0;
#pragma unroll
		for (int j = 0; j < BATCH; j++) old[j] = nd[j] < dv[j] ? atomicMin(&r.dist[u[j]], (uint32_t)nd[j]) : 0;
#pragma unroll
		for (int j = 0; j < BATCH; j++) {
			if (j >= c) continue;
			if (nd[j] >= NONE) {
				atomicMin(r.bad, u[j]);
				continue;
			}
			if (nd[j] >= dv[j] || nd[j] >= old[j]) continue;
			if (nd[j] < r.binHi) {
				if (atomicExch(&r.stamp[u[j]], r.round) != r.round) r.next[atomicAdd(r.nextCount, 1ull)] = u[j];
			} else {
				uint32_t bit = 1u << (u[j] & 31);
				if (!(atomicOr(&r.farBits[u[j] >> 5], bit) & bit)) r.far[atomicAdd(r.farCount, 1ull)] = u[j];
			}
		}
		k += BATCH;
		if (c < BATCH) break;
	}
}

// weightsOf is where the weights of v's list (in out-shard si) start, NULL for unit weights.
__device__ __forceinline__ const uint32_t *weightsOf(const Relax &r, int si, uint32_t v) {
	return r.unit ? NULL : (const uint32_t *)r.wts[si] + r.wOff[v];
}

// sp_relax relaxes the out-edges of the qn vertices of front (the near queue of the bin
// ending below binHi). A small queue (no more vertices than the grid has warps) gets a
// warp a vertex, the lanes taking its blocks; a large one a thread a vertex, the warp's
// lists laid end to end and the lanes taking their blocks in turn. edges receives the
// list entries read; *bad the smallest vertex whose distance would pass 0xFFFFFFFE.
extern "C" __global__ void sp_relax(const Shard *tab, int ns, const uint64_t *wts, const uint32_t *wOff,
                                    uint32_t unit, const uint32_t *front, uint32_t qn, uint32_t *dist, uint32_t *stamp,
                                    uint32_t round, uint32_t *next, unsigned long long *nextCount,
                                    unsigned long long *edges, uint32_t *bad, unsigned long long binHi, uint32_t *far,
                                    uint32_t *farBits, unsigned long long *farCount) {
	Relax r = {wts, wOff, unit, dist, stamp, round, next, nextCount, bad, binHi, far, farBits, farCount};
	unsigned long long ex = 0;
	uint32_t warps = gridDim.x * (blockDim.x / 32), gw = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
	if (qn <= warps) {
		for (uint32_t w = gw; w < qn; w += warps) {
			uint32_t v = front[w];
			const Shard *s = findShard(tab, ns, v);
			List l;
			l.at(s, v);
			const uint32_t *wv = weightsOf(r, (int)(s - tab), v);
			uint64_t du = dist[v];
			if (laneId() == 0) ex += l.deg;
			for (uint32_t b = laneId(); b < l.nb; b += 32) relaxBlock(r, wv, l, b, du);
		}
		addWarp(edges, ex);
		return;
	}
	for (uint32_t b0 = blockIdx.x * blockDim.x; b0 < qn; b0 += gridDim.x * blockDim.x) {
		uint32_t t = b0 + threadIdx.x;
		List l;
		l.base = NULL;
		l.v = 0;
		l.nb = 0;
		l.deg = 0;
		uint64_t du = 0;
		const uint32_t *wv = NULL;
		if (t < qn) {
			uint32_t v = front[t];
			const Shard *s = findShard(tab, ns, v);
			l.at(s, v);
			wv = weightsOf(r, (int)(s - tab), v);
			du = dist[v];
		}
		ex += l.deg;
		uint32_t incl = l.nb; // blocks of the lanes up to this one
		for (int o = 1; o < 32; o <<= 1) {
			uint32_t y = __shfl_up_sync(0xffffffffu, incl, o);
			if ((int)laneId() >= o) incl += y;
		}
		uint32_t total = __shfl_sync(0xffffffffu, incl, 31);
		for (uint32_t j0 = 0; j0 < total; j0 += 32) {
			uint32_t j = j0 + laneId();
			// the lane q whose list holds block j: the number of lanes whose blocks end at or before j
			uint32_t q = 0;
			for (uint32_t o = 16; o > 0; o >>= 1)
				if (__shfl_sync(0xffffffffu, incl, q + o - 1) <= j) q += o;
			List cl;
			cl.base = (const uint8_t *)__shfl_sync(0xffffffffu, (unsigned long long)l.base, q);
			cl.v = __shfl_sync(0xffffffffu, l.v, q);
			cl.deg = __shfl_sync(0xffffffffu, l.deg, q);
			cl.nb = __shfl_sync(0xffffffffu, l.nb, q);
			uint32_t first = __shfl_sync(0xffffffffu, incl - l.nb, q);
			const uint32_t *cw = (const uint32_t *)__shfl_sync(0xffffffffu, (unsigned long long)wv, q);
			uint64_t cdu = __shfl_sync(0xffffffffu, (unsigned long long)du, q);
			if (j < total) relaxBlock(r, cw, cl, j - first, cdu);
		}
	}
	addWarp(edges, ex);
}

// sp_far_min lowers *minBin to the smallest bin dist[v]/delta beyond bin of the fn
// vertices of far.
extern "C" __global__ void sp_far_min(const uint32_t *far, uint32_t fn, const uint32_t *dist, uint32_t delta,
                                      unsigned long long bin, unsigned long long *minBin) {
	unsigned long long m = ~0ull;
	for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < fn; i += gridDim.x * blockDim.x) {
		unsigned long long b = dist[far[i]] / delta;
		if (b > bin) m = min(m, b);
	}
	for (int o = 16; o > 0; o >>= 1) m = min(m, (unsigned long long)__shfl_xor_sync(0xffffffffu, m, o));
	if (laneId() == 0 && m != ~0ull) atomicMin(minBin, m);
}

// sp_split sorts the fn vertices of far by their bin dist[v]/delta: those of bin join the
// near queue (once: stamp, as in sp_relax, for round), those beyond it are kept in keep,
// and those before it are dropped (settled since they were filed); the vertices that
// leave the pile have their farBits cleared.
extern "C" __global__ void sp_split(const uint32_t *far, uint32_t fn, const uint32_t *dist, uint32_t delta,
                                    unsigned long long bin, uint32_t *farBits, uint32_t *stamp, uint32_t round,
                                    uint32_t *near, unsigned long long *nearCount, uint32_t *keep,
                                    unsigned long long *keepCount) {
	for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < fn; i += gridDim.x * blockDim.x) {
		uint32_t v = far[i];
		unsigned long long b = dist[v] / delta;
		if (b > bin) {
			keep[atomicAdd(keepCount, 1ull)] = v;
			continue;
		}
		atomicAnd(&farBits[v >> 5], ~(1u << (v & 31)));
		if (b == bin && atomicExch(&stamp[v], round) != round) near[atomicAdd(nearCount, 1ull)] = v;
	}
}

// sp_parents sets parent[v] to the smallest u with an edge u -> v (v not src) such that
// dist[u] + its weight = dist[v], over the out-lists of out-shard si (shard s); parent
// must hold NONE everywhere before the first shard.
extern "C" __global__ void sp_parents(SHARD_PARAMS, int si, const uint64_t *wts, const uint32_t *wOff,
                                      uint32_t unit, const uint32_t *dist, uint32_t src, uint32_t *parent) {
	SHARD_LOCAL;
	for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < s.n; i += gridDim.x * blockDim.x) {
		uint32_t v = s.lo + i;
		uint64_t du = dist[v];
		if (du == NONE) continue;
		List l;
		l.at(&s, v);
		uint32_t k = 0;
		for (uint32_t b = 0; b < l.nb; b++) {
			BlockDecoder d;
			d.init(l, b);
			uint32_t u;
			while (d.next(&u)) {
				uint32_t w = unit ? 1u : ((const uint32_t *)wts[si])[wOff[v] + k];
				k++;
				if (u != src && du + w == (uint64_t)dist[u]) atomicMin(&parent[u], v);
			}
		}
	}
}

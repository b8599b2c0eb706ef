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

// weight is the weight of the k-th edge of v's list in out-shard si.
__device__ __forceinline__ uint32_t weight(const Relax &r, int si, uint32_t v, uint32_t k) {
	return r.unit ? 1u : ((const uint32_t *)r.wts[si])[r.wOff[v] + k];
}

// relaxBlock relaxes the edges of block b of l (v's list, in out-shard si, at distance du).
__device__ __forceinline__ void relaxBlock(const Relax &r, int si, const List &l, uint32_t b, uint64_t du) {
	BlockDecoder d;
	d.init(l, b);
	uint32_t u, k = b * OOC_BLOCK;
	while (d.next(&u)) {
		uint64_t nd = du + weight(r, si, l.v, k++);
		if (nd >= NONE) {
			atomicMin(r.bad, u);
			continue;
		}
		if (nd >= r.dist[u]) continue;
		uint32_t old = atomicMin(&r.dist[u], (uint32_t)nd);
		if (nd >= old) continue;
		if (nd < r.binHi) {
			if (atomicExch(&r.stamp[u], r.round) != r.round) r.next[atomicAdd(r.nextCount, 1ull)] = u;
		} else {
			uint32_t bit = 1u << (u & 31);
			if (!(atomicOr(&r.farBits[u >> 5], bit) & bit)) r.far[atomicAdd(r.farCount, 1ull)] = u;
		}
	}
}

// sp_relax relaxes the out-edges of the qn vertices of front (the near queue of the bin
// ending below binHi): a thread walks a list of one or two blocks itself, longer lists
// are shared by the warp one block per lane. edges receives the list entries read; *bad
// the smallest vertex whose distance would pass 0xFFFFFFFE.
extern "C" __global__ void sp_relax(const Shard *tab, int ns, const uint64_t *wts, const uint32_t *wOff,
                                    uint32_t unit, const uint32_t *front, uint32_t qn, uint32_t *dist, uint32_t *stamp,
                                    uint32_t round, uint32_t *next, unsigned long long *nextCount,
                                    unsigned long long *edges, uint32_t *bad, unsigned long long binHi, uint32_t *far,
                                    uint32_t *farBits, unsigned long long *farCount) {
	Relax r = {wts, wOff, unit, dist, stamp, round, next, nextCount, bad, binHi, far, farBits, farCount};
	unsigned long long ex = 0;
	for (uint32_t b0 = blockIdx.x * blockDim.x; b0 < qn; b0 += gridDim.x * blockDim.x) {
		uint32_t t = b0 + threadIdx.x;
		bool mine = t < qn;
		uint32_t v = mine ? front[t] : 0;
		List l;
		l.nb = 0;
		l.deg = 0;
		uint64_t du = 0;
		if (mine) {
			const Shard *s = findShard(tab, ns, v);
			l.at(s, v);
			du = dist[v];
			if (l.nb <= 2)
				for (uint32_t b = 0; b < l.nb; b++) relaxBlock(r, (int)(s - tab), l, b, du);
		}
		ex += l.deg;
		unsigned coop = __ballot_sync(0xffffffffu, mine && l.nb > 2);
		while (coop) {
			int src = __ffs(coop) - 1;
			coop &= coop - 1;
			uint32_t cv = __shfl_sync(0xffffffffu, v, src);
			uint64_t cdu = __shfl_sync(0xffffffffu, du, src);
			const Shard *cs = findShard(tab, ns, cv);
			List cl;
			cl.at(cs, cv);
			for (uint32_t b = laneId(); b < cl.nb; b += 32) relaxBlock(r, (int)(cs - tab), cl, b, cdu);
			__syncwarp();
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

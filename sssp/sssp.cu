// sssp.cu: single-source shortest paths by frontier-based Bellman-Ford (package sssp's
// GPU version). A round relaxes every out-edge of the frontier's vertices with atomicMin on
// the uint32 distances; a vertex whose distance a round lowers joins the next frontier
// once (stamp[u] holds the last round that queued it). The rounds end when no distance
// falls, so the distances are exact whatever the order of the updates. The parents are
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
		if (nd < old && atomicExch(&r.stamp[u], r.round) != r.round) {
			r.next[atomicAdd(r.nextCount, 1ull)] = u;
		}
	}
}

// sp_relax relaxes the out-edges of the qn vertices of front: a thread walks a list of one
// or two blocks itself, longer lists are shared by the warp one block per lane. edges
// receives the list entries read; *bad the smallest vertex whose distance would pass
// 0xFFFFFFFE.
extern "C" __global__ void sp_relax(const Shard *tab, int ns, const uint64_t *wts, const uint32_t *wOff,
                                    uint32_t unit, const uint32_t *front, uint32_t qn, uint32_t *dist, uint32_t *stamp,
                                    uint32_t round, uint32_t *next, unsigned long long *nextCount,
                                    unsigned long long *edges, uint32_t *bad) {
	Relax r = {wts, wOff, unit, dist, stamp, round, next, nextCount, bad};
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

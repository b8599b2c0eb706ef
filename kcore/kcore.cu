// kcore.cu: k-core decomposition by parallel peeling (package kcore's algorithm: levels of
// increasing k, each removing every vertex whose current degree is at most k, in rounds
// over a frontier until no degree falls to k). deg[v] is v's degree among the vertices not
// yet removed, never lowered below the current level, so once all levels are done it is
// v's core number. A round reads only the lists of the vertices it removes, through the
// shard tables (device memory or pinned host memory, read zero-copy).
#include "graph.cuh" // store/graph.cuh (nvcc -I store)

// kc_degree writes (add = 0) or adds (add = 1) the degrees of shard s into deg; a sum that
// overflows 32 bits leaves the smallest such vertex in *bad.
extern "C" __global__ void kc_degree(SHARD_PARAMS, uint32_t *deg, uint32_t add, uint32_t *bad) {
	SHARD_LOCAL;
	for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < s.n; i += gridDim.x * blockDim.x) {
		uint32_t v = s.lo + i, d = shardDegree(&s, i);
		if (add) {
			uint32_t was = deg[v];
			if (was + d < was) atomicMin(bad, v);
			d += was;
		}
		deg[v] = d;
	}
}

// kc_alive appends every vertex with edges to alive.
extern "C" __global__ void kc_alive(const uint32_t *deg, uint32_t n, uint32_t *alive, uint32_t *count) {
	for (uint32_t b0 = blockIdx.x * blockDim.x; b0 < n; b0 += gridDim.x * blockDim.x) {
		uint32_t v = b0 + threadIdx.x;
		warpAppend(alive, count, v < n && deg[v] > 0, v);
	}
}

// kc_compact keeps the vertices of alive whose degree is above k (the others were removed
// by levels up to k) in out, and lowers *least to the smallest degree kept: the next level.
extern "C" __global__ void kc_compact(const uint32_t *deg, const uint32_t *alive, uint32_t na, uint32_t k,
                                      uint32_t *out, uint32_t *count, uint32_t *least) {
	uint32_t m = NONE;
	for (uint32_t b0 = blockIdx.x * blockDim.x; b0 < na; b0 += gridDim.x * blockDim.x) {
		uint32_t t = b0 + threadIdx.x;
		uint32_t v = t < na ? alive[t] : 0;
		uint32_t d = t < na ? deg[v] : 0;
		bool keep = t < na && d > k;
		if (keep) m = min(m, d);
		warpAppend(out, count, keep, v);
	}
	for (int o = 16; o > 0; o >>= 1) m = min(m, __shfl_down_sync(0xffffffffu, m, o));
	if (laneId() == 0 && m != NONE) atomicMin(least, m);
}

// kc_gather appends the vertices of alive whose degree is k (the level's frontier) to out.
extern "C" __global__ void kc_gather(const uint32_t *deg, const uint32_t *alive, uint32_t na, uint32_t k,
                                     uint32_t *out, uint32_t *count) {
	for (uint32_t b0 = blockIdx.x * blockDim.x; b0 < na; b0 += gridDim.x * blockDim.x) {
		uint32_t t = b0 + threadIdx.x;
		uint32_t v = t < na ? alive[t] : 0;
		warpAppend(out, count, t < na && deg[v] == k, v);
	}
}

// lower takes one from u's degree unless that is at most k already (the subtraction is
// then undone: a degree never stays below the level), and queues u when it falls to k:
// exactly one decrement takes a degree from k+1 to k. A degree read at most k stays so
// for the level (it was at most k when read, and only falls, or returns to k after an
// undone subtraction), so such a neighbour is skipped without an atomic: in a level that
// removes a dense core at once almost every neighbour is.
__device__ __forceinline__ void lower(uint32_t *deg, uint32_t u, uint32_t k, uint32_t *next, uint32_t *nextCount) {
	if (__ldcg(&deg[u]) <= k) return;
	uint32_t old = atomicSub(&deg[u], 1u);
	if (old <= k) {
		atomicAdd(&deg[u], 1u);
	} else if (old - 1 == k) {
		next[atomicAdd(nextCount, 1u)] = u;
	}
}

// lowerBlock lowers the degree of every neighbour in block k of l and returns the list
// bytes decoded (the block's index word included).
__device__ __forceinline__ uint32_t lowerBlock(const List &l, uint32_t b, uint32_t *deg, uint32_t k,
                                               uint32_t *next, uint32_t *nextCount) {
	BlockDecoder d;
	d.init(l, b);
	uint32_t w;
	while (d.next(&w)) lower(deg, w, k, next, nextCount);
	return (uint32_t)d.used() + (b > 0 ? 4 : 0);
}

#define HUB_BLOCKS 64 // lists of more blocks go to kc_peel_hub while its queue has room
#define HUB_PARTS 32  // thread blocks sharing one such list

// peelDir lowers the neighbours of the frontier's vertices in the lists of one direction
// (the shard table tab of ns shards): a thread walks a list of one or two blocks itself,
// longer lists are shared by the warp one block per lane, and lists of more than
// HUB_BLOCKS blocks are queued in hubs (up to cap of them) for kc_peel_hub. It returns
// the list entries read and adds the bytes read from pinned shards to *lb.
__device__ __forceinline__ uint64_t peelDir(const Shard *tab, int ns, uint32_t v, bool mine, uint32_t *deg, uint32_t k,
                                            uint32_t *next, uint32_t *nextCount, unsigned long long *lb, uint32_t *hubs,
                                            uint32_t *hubCount, uint32_t cap) {
	List l;
	l.nb = 0;
	l.deg = 0;
	const Shard *s = NULL;
	if (mine) {
		s = findShard(tab, ns, v);
		l.at(s, v);
		if (l.nb > HUB_BLOCKS) {
			uint32_t h = atomicAdd(hubCount, 1u);
			if (h < cap) {
				hubs[h] = v;
				mine = false;
			}
		}
		if (l.nb <= 2)
			for (uint32_t b = 0; b < l.nb; b++) {
				uint32_t by = lowerBlock(l, b, deg, k, next, nextCount);
				if (s->pinned) *lb += by;
			}
	}
	unsigned coop = __ballot_sync(0xffffffffu, mine && l.nb > 2);
	while (coop) {
		int src = __ffs(coop) - 1;
		coop &= coop - 1;
		uint32_t cv = __shfl_sync(0xffffffffu, v, src);
		const Shard *cs = findShard(tab, ns, cv);
		List cl;
		cl.at(cs, cv);
		for (uint32_t b = laneId(); b < cl.nb; b += 32) {
			uint32_t by = lowerBlock(cl, b, deg, k, next, nextCount);
			if (cs->pinned) *lb += by;
		}
		__syncwarp();
	}
	return l.deg;
}

// kc_peel removes the qn vertices of front (degree k): it lowers the degrees of their
// neighbours in the out-lists and, on a directed graph (in != NULL), the in-lists, and
// queues in next the ones that fall to k; the lists of many blocks it queues for
// kc_peel_hub, out-lists in hubs[0, cap) counted in hubCount[0], in-lists in
// hubs[cap, 2 cap) counted in hubCount[1]. edges receives the list entries read (those
// of queued lists included), linkBytes the list bytes read from pinned host memory.
extern "C" __global__ void kc_peel(const Shard *out, int nsOut, const Shard *in, int nsIn, const uint32_t *front,
                                   uint32_t qn, uint32_t *deg, uint32_t k, uint32_t *next, uint32_t *nextCount,
                                   unsigned long long *edges, unsigned long long *linkBytes, uint32_t *hubs,
                                   uint32_t *hubCount, uint32_t cap) {
	unsigned long long ex = 0, lb = 0;
	for (uint32_t b0 = blockIdx.x * blockDim.x; b0 < qn; b0 += gridDim.x * blockDim.x) {
		uint32_t t = b0 + threadIdx.x;
		bool mine = t < qn;
		uint32_t v = mine ? front[t] : 0;
		ex += peelDir(out, nsOut, v, mine, deg, k, next, nextCount, &lb, hubs, hubCount, cap);
		if (in != NULL) ex += peelDir(in, nsIn, v, mine, deg, k, next, nextCount, &lb, hubs + cap, hubCount + 1, cap);
	}
	addWarp(edges, ex);
	addWarp(linkBytes, lb);
}

// kc_peel_hub lowers the neighbours in the lists kc_peel queued in hubs (min(*hubCount,
// cap) of them, of the direction whose shard table is tab): HUB_PARTS thread blocks share
// each list, a thread per block of the list. The count is read on the device, so the host
// need not wait for kc_peel.
extern "C" __global__ void kc_peel_hub(const Shard *tab, int ns, const uint32_t *hubs, const uint32_t *hubCount,
                                       uint32_t cap, uint32_t *deg, uint32_t k, uint32_t *next, uint32_t *nextCount,
                                       unsigned long long *linkBytes) {
	unsigned long long lb = 0;
	uint32_t items = min(*hubCount, cap) * HUB_PARTS;
	for (uint32_t t = blockIdx.x; t < items; t += gridDim.x) {
		uint32_t h = t / HUB_PARTS, p = t % HUB_PARTS;
		const Shard *s = findShard(tab, ns, hubs[h]);
		List l;
		l.at(s, hubs[h]);
		for (uint32_t b = p * blockDim.x + threadIdx.x; b < l.nb; b += HUB_PARTS * blockDim.x) {
			uint32_t by = lowerBlock(l, b, deg, k, next, nextCount);
			if (s->pinned) lb += by;
		}
	}
	addWarp(linkBytes, lb);
}

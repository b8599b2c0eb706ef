// kcore.cu: k-core decomposition by parallel peeling (package kcore's algorithm: levels of
// increasing k, each removing every vertex whose current degree is at most k, in rounds
// over a frontier until no degree falls to k). deg[v] is v's degree among the vertices not
// yet removed, never lowered below the current level, so once all levels are done it is
// v's core number. A round reads only the lists of the vertices it removes, through the
// shard tables (device memory or pinned host memory, read zero-copy).
//
// The device drives the levels and rounds itself: the host queues steps, each the same
// launches (kc_begin, kc_compact, kc_level, kc_gather, kc_peel, kc_peel_hub per direction),
// and every kernel reads from the control words ctl what the step is: a round over the
// frontier, or a new level (compact the alive vertices, take the least degree left as k,
// gather the frontier, then its first round), or nothing once the last level is done. So
// the host waits only when it reads ctl after a batch of steps, not once a round. Each
// level leaves a record (its k, the global timer and the running counters at its start)
// in a ring the host drains at those reads.
#include "graph.cuh" // store/graph.cuh (nvcc -I store)

// The control words (package kcore's ctl* constants mirror them; a test compares).
#define C_MODE 0   // what the current step does: STEP_ROUND, STEP_LEVEL or STEP_DONE
#define C_K 1      // the current level
#define C_ALIVE 2  // which of the three lists holds the alive vertices
#define C_FRONT 3  // ... the round's frontier
#define C_NEXT 4   // ... the next round's queue
#define C_NA 5     // alive vertices
#define C_NF 6     // frontier vertices
#define C_NN 7     // queued for the next round
#define C_NS 8     // vertices kc_compact kept
#define C_LEAST 9  // the least degree kc_compact kept
#define C_BAD 10   // the smallest vertex whose degree overflows 32 bits (NONE: none)
#define C_HUBS 11  // two words: out-lists and in-lists queued for kc_peel_hub
#define C_LEVEL 13 // levels started
#define C_HUBMAX 14 // two words: the most blocks of a queued out-list and in-list
#define C_WORDS 16

#define STEP_ROUND 0
#define STEP_LEVEL 1
#define STEP_DONE 2

// The running 64-bit counters acc.
#define A_EDGES 0   // list entries read
#define A_BYTES 1   // list bytes read from pinned host memory
#define A_REMOVED 2 // vertices removed by rounds
#define A_ROUNDS 3  // rounds over a nonempty frontier
#define A_WORDS 4

// A level's record: its k (NONE for the record that ends the last level), the global
// timer in ns, then the A_WORDS counters, all at the level's start; RING records.
#define R_WORDS (2 + A_WORDS)
#define RING 1024

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

// kc_begin (one thread) starts a step: the last round's queue becomes the frontier; an
// empty one means the level is over, and the step starts the next.
extern "C" __global__ void kc_begin(uint32_t *ctl) {
	if (ctl[C_MODE] == STEP_DONE) return;
	uint32_t f = ctl[C_FRONT], nf = ctl[C_NN];
	ctl[C_FRONT] = ctl[C_NEXT];
	ctl[C_NEXT] = f;
	ctl[C_NF] = nf;
	ctl[C_NN] = 0;
	ctl[C_HUBS] = 0;
	ctl[C_HUBS + 1] = 0;
	ctl[C_HUBMAX] = 0;
	ctl[C_HUBMAX + 1] = 0;
	if (nf == 0) {
		ctl[C_MODE] = STEP_LEVEL;
		ctl[C_NS] = 0;
		ctl[C_LEAST] = NONE;
	} else {
		ctl[C_MODE] = STEP_ROUND;
	}
}

// kc_compact, in a step that starts a level, keeps the alive vertices whose degree is
// above k (the others were removed by levels up to k) in the frontier's list (empty now),
// and lowers the least degree kept: the next level.
extern "C" __global__ void kc_compact(const uint32_t *deg, uint32_t *l0, uint32_t *l1, uint32_t *l2, uint32_t *ctl) {
	if (ctl[C_MODE] != STEP_LEVEL) return;
	const uint32_t *alive = pickList(l0, l1, l2, ctl[C_ALIVE]);
	uint32_t *out = pickList(l0, l1, l2, ctl[C_FRONT]);
	uint32_t na = ctl[C_NA], k = ctl[C_K], m = NONE;
	for (uint32_t b0 = blockIdx.x * blockDim.x; b0 < na; b0 += gridDim.x * blockDim.x) {
		uint32_t t = b0 + threadIdx.x;
		uint32_t v = t < na ? alive[t] : 0;
		uint32_t d = t < na ? deg[v] : 0;
		bool keep = t < na && d > k;
		if (keep) m = min(m, d);
		warpAppend(out, ctl + C_NS, keep, v);
	}
	for (int o = 16; o > 0; o >>= 1) m = min(m, __shfl_down_sync(0xffffffffu, m, o));
	if (laneId() == 0 && m != NONE) atomicMin(ctl + C_LEAST, m);
}

// kc_level (one thread), in a step that starts a level, records the level's start and
// makes the kept vertices the alive ones and their least degree k; when none was kept it
// records the end of the last level and marks the run done.
extern "C" __global__ void kc_level(uint32_t *ctl, const unsigned long long *acc, unsigned long long *rec) {
	if (ctl[C_MODE] != STEP_LEVEL) return;
	uint32_t level = ctl[C_LEVEL], ns = ctl[C_NS];
	unsigned long long *r = rec + (uint64_t)(level % RING) * R_WORDS;
	r[0] = ns ? ctl[C_LEAST] : NONE;
	r[1] = globalTimer();
	for (int i = 0; i < A_WORDS; i++) r[2 + i] = acc[i];
	if (ns == 0) {
		ctl[C_MODE] = STEP_DONE;
		return;
	}
	uint32_t a = ctl[C_ALIVE];
	ctl[C_ALIVE] = ctl[C_FRONT];
	ctl[C_FRONT] = a;
	ctl[C_NA] = ns;
	ctl[C_K] = ctl[C_LEAST];
	ctl[C_LEVEL] = level + 1;
}

// kc_gather, in a step that starts a level, appends the alive vertices whose degree is k
// (the level's first frontier) to the frontier's list.
extern "C" __global__ void kc_gather(const uint32_t *deg, uint32_t *l0, uint32_t *l1, uint32_t *l2, uint32_t *ctl) {
	if (ctl[C_MODE] != STEP_LEVEL) return;
	const uint32_t *alive = pickList(l0, l1, l2, ctl[C_ALIVE]);
	uint32_t *out = pickList(l0, l1, l2, ctl[C_FRONT]);
	uint32_t na = ctl[C_NA], k = ctl[C_K];
	for (uint32_t b0 = blockIdx.x * blockDim.x; b0 < na; b0 += gridDim.x * blockDim.x) {
		uint32_t t = b0 + threadIdx.x;
		uint32_t v = t < na ? alive[t] : 0;
		warpAppend(out, ctl + C_NF, t < na && deg[v] == k, v);
	}
}

#define BATCH 8 // neighbours whose degrees a thread loads, then lowers, together

// lowerBlock lowers the degree of every neighbour in block b of l and returns the list
// bytes decoded (the block's index word included). A neighbour's degree is taken one
// from unless it is at most k already (then the subtraction is undone: a degree never
// stays below the level), and it is queued when it falls to k: exactly one decrement
// takes a degree from k+1 to k. A degree read at most k stays so for the level (it was at
// most k when read, and only falls, or returns to k after an undone subtraction), so such
// a neighbour is skipped without an atomic. The neighbours go BATCH at a time, their
// loads and then their atomics issued together, so a thread waits for memory once a batch
// rather than twice a neighbour.
__device__ __forceinline__ uint32_t lowerBlock(const List &l, uint32_t b, uint32_t *deg, uint32_t k, uint32_t *next,
                                               uint32_t *nextCount) {
	BlockDecoder d;
	d.init(l, b);
	for (;;) {
		uint32_t u[BATCH], dv[BATCH], old[BATCH];
		int c = 0;
#pragma unroll
		for (int j = 0; j < BATCH; j++)
			if (d.next(&u[j])) c = j + 1;
#pragma unroll
		for (int j = 0; j < BATCH; j++) dv[j] = j < c ? __ldcg(&deg[u[j]]) : 0;
#pragma unroll
		for (int j = 0; j < BATCH; j++) old[j] = dv[j] > k ? atomicSub(&deg[u[j]], 1u) : 0;
#pragma unroll
		for (int j = 0; j < BATCH; j++) {
			if (dv[j] <= k) continue;
			if (old[j] <= k) {
				atomicAdd(&deg[u[j]], 1u);
			} else if (old[j] - 1 == k) {
				next[atomicAdd(nextCount, 1u)] = u[j];
			}
		}
		if (c < BATCH) break;
	}
	return (uint32_t)d.used() + (b > 0 ? 4 : 0);
}

#define HUB_BLOCKS 64 // lists of more blocks go to kc_peel_hub while its queue has room
#define HUB_PARTS 256 // the most warps sharing one such list

// Where the lists of a round go.
struct Peel {
	uint32_t *deg, *next, *nextCount;
	uint32_t k;
	uint32_t *hubs, *hubNb, *hubCount, *hubMax; // one direction's queue for kc_peel_hub
	uint32_t cap;
	unsigned long long lb; // list bytes read from pinned memory
};

// queueHub queues v's list of nb blocks for kc_peel_hub and says whether there was room.
__device__ __forceinline__ bool queueHub(Peel &p, uint32_t v, uint32_t nb) {
	uint32_t h = atomicAdd(p.hubCount, 1u);
	if (h >= p.cap) return false;
	p.hubs[h] = v;
	p.hubNb[h] = nb;
	atomicMax(p.hubMax, nb);
	return true;
}

// peelWarp removes v with the whole warp: the lanes share its list of one direction (shard
// table tab of ns shards) a block each, or queue it for kc_peel_hub when it has more than
// HUB_BLOCKS blocks. It returns the list's length on lane 0, 0 on the others.
__device__ __forceinline__ uint32_t peelWarp(const Shard *tab, int ns, uint32_t v, Peel &p) {
	const Shard *s = findShard(tab, ns, v);
	List l;
	l.at(s, v);
	uint32_t mine = laneId() == 0 ? l.deg : 0;
	if (l.nb > HUB_BLOCKS) {
		uint32_t room = laneId() == 0 ? queueHub(p, v, l.nb) : 0;
		if (__shfl_sync(0xffffffffu, room, 0)) return mine;
	}
	for (uint32_t b = laneId(); b < l.nb; b += 32) {
		uint32_t by = lowerBlock(l, b, p.deg, p.k, p.next, p.nextCount);
		if (s->pinned) p.lb += by;
	}
	return mine;
}

// peelFlat removes each lane's vertex v (when mine) from the lists of one direction: the
// lists of up to HUB_BLOCKS blocks (and longer ones when the hub queue is full) are laid
// end to end and the lanes take their blocks in turn, so a warp's lanes stay busy whatever
// the lengths; longer lists are queued for kc_peel_hub. It returns v's list length.
__device__ __forceinline__ uint32_t peelFlat(const Shard *tab, int ns, uint32_t v, bool mine, Peel &p) {
	List l;
	l.base = l.end = NULL;
	l.v = v;
	l.nb = 0;
	l.deg = 0;
	uint32_t pinned = 0, work = 0;
	if (mine) {
		const Shard *s = findShard(tab, ns, v);
		l.at(s, v);
		pinned = s->pinned;
		work = l.nb;
		if (l.nb > HUB_BLOCKS && queueHub(p, v, l.nb)) work = 0;
	}
	uint32_t incl = warpScan(work); // blocks of the lanes up to this one
	uint32_t total = __shfl_sync(0xffffffffu, incl, 31);
	for (uint32_t j0 = 0; j0 < total; j0 += 32) {
		uint32_t j = j0 + laneId();
		uint32_t q = warpOwner(incl, j); // the lane whose list holds block j
		List cl = shflList(l, q);
		uint32_t first = __shfl_sync(0xffffffffu, incl - work, q);
		uint32_t pin = __shfl_sync(0xffffffffu, pinned, q);
		if (j < total) {
			uint32_t by = lowerBlock(cl, j - first, p.deg, p.k, p.next, p.nextCount);
			if (pin) p.lb += by;
		}
	}
	return l.deg;
}

// kc_peel runs a step's round: it removes the frontier's vertices (degree k), lowering the
// degrees of their neighbours in the out-lists and, on a directed graph (in != NULL), the
// in-lists, and queues the ones that fall to k for the next round. A small frontier (no
// more vertices than the grid has warps) gets a warp a vertex, a large one a thread a
// vertex with the warp's lists shared block by block; lists of more than HUB_BLOCKS blocks
// are queued for kc_peel_hub, out-lists in hubs[0, cap), in-lists in hubs[cap, 2 cap),
// with their block counts in hubNb. acc receives the list entries read (queued lists'
// included), the list bytes read from pinned host memory, the vertices and the round.
// Launch bounds: kc_peel fits 128 registers (2 blocks of 256 a multiprocessor), kc_peel_hub
// 80 (3 blocks); the host launches both on 256 threads.
extern "C" __global__ void __launch_bounds__(256, 2)
kc_peel(const Shard *out, int nsOut, const Shard *in, int nsIn, uint32_t *deg, uint32_t *l0,
        uint32_t *l1, uint32_t *l2, uint32_t *ctl, unsigned long long *acc, uint32_t *hubs,
        uint32_t *hubNb, uint32_t cap) {
	if (ctl[C_MODE] == STEP_DONE) return;
	uint32_t qn = ctl[C_NF];
	const uint32_t *front = pickList(l0, l1, l2, ctl[C_FRONT]);
	Peel po = {deg, pickList(l0, l1, l2, ctl[C_NEXT]), ctl + C_NN, ctl[C_K], hubs, hubNb, ctl + C_HUBS, ctl + C_HUBMAX, cap, 0};
	Peel pi = po;
	pi.hubs += cap;
	pi.hubNb += cap;
	pi.hubCount++;
	pi.hubMax++;
	if (blockIdx.x == 0 && threadIdx.x == 0 && qn > 0) {
		acc[A_REMOVED] += qn;
		acc[A_ROUNDS]++;
	}
	unsigned long long ex = 0;
	uint32_t warps = gridDim.x * (blockDim.x / 32), gw = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
	if (qn <= warps) {
		for (uint32_t w = gw; w < qn; w += warps) {
			uint32_t v = front[w];
			ex += peelWarp(out, nsOut, v, po);
			if (in != NULL) ex += peelWarp(in, nsIn, v, pi);
		}
	} else {
		for (uint32_t b0 = blockIdx.x * blockDim.x; b0 < qn; b0 += gridDim.x * blockDim.x) {
			uint32_t t = b0 + threadIdx.x;
			bool mine = t < qn;
			uint32_t v = mine ? front[t] : 0;
			ex += peelFlat(out, nsOut, v, mine, po);
			if (in != NULL) ex += peelFlat(in, nsIn, v, mine, pi);
		}
	}
	addWarp(acc + A_EDGES, ex);
	addWarp(acc + A_BYTES, po.lb + pi.lb);
}

// kc_peel_hub lowers the neighbours in the lists kc_peel queued in hubs (min(*hubCount,
// cap) of them, of the direction whose shard table is tab, hubNb[h] blocks each, at most
// *hubMax): each list is cut into parts, part p holding the blocks b with b/32 = p modulo
// the number of parts (enough for the longest list, at most HUB_PARTS), and a warp takes
// a part, a lane a block. The parts go in order of p across the lists, so the warps
// spread over every list at once.
extern "C" __global__ void __launch_bounds__(256, 3)
kc_peel_hub(const Shard *tab, int ns, const uint32_t *hubs, const uint32_t *hubNb,
            const uint32_t *hubCount, const uint32_t *hubMax, uint32_t cap, uint32_t *deg,
            uint32_t *l0, uint32_t *l1, uint32_t *l2, uint32_t *ctl,
            unsigned long long *acc) {
	if (ctl[C_MODE] == STEP_DONE) return;
	uint32_t nh = min(*hubCount, cap);
	if (nh == 0) return;
	uint32_t k = ctl[C_K], *next = pickList(l0, l1, l2, ctl[C_NEXT]);
	uint32_t parts = min((uint32_t)HUB_PARTS, (*hubMax + 31) / 32);
	uint64_t items = (uint64_t)nh * parts, warps = gridDim.x * (blockDim.x / 32);
	unsigned long long lb = 0;
	for (uint64_t t = (blockIdx.x * blockDim.x + threadIdx.x) / 32; t < items; t += warps) {
		uint32_t h = (uint32_t)(t % nh), p = (uint32_t)(t / nh);
		if (p * 32 >= hubNb[h]) continue; // the list has too few blocks for this part
		const Shard *s = findShard(tab, ns, hubs[h]);
		List l;
		l.at(s, hubs[h]);
		for (uint32_t b = p * 32 + laneId(); b < l.nb; b += parts * 32) {
			uint32_t by = lowerBlock(l, b, deg, k, next, ctl + C_NN);
			if (s->pinned) lb += by;
		}
	}
	addWarp(acc + A_BYTES, lb);
}

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
// distance is exact whatever the order of the updates. The parents are then derived from
// the distances as the CPU twin defines them: the smallest u with an edge u -> v of
// weight c and dist[u] + c = dist[v].
//
// The device drives the bins and rounds itself: the host queues steps, each the same
// launches (sp_begin, sp_far_min, sp_bin, sp_split, sp_round, sp_relax and sp_relax_hub,
// or their _dev twins), and every kernel reads from the control words ctl what the step
// is: a round of the near queue, a new bin (the far pile's next bin split off, then its
// first round), the end, or nothing once the end is recorded. So the host waits only when it reads ctl after a batch of steps, not
// once a bin or a round. Each round leaves a record (its bin, its queue's size, the global
// timer and the running counters at its start) in a ring the host drains at those reads.
//
// A round whose near queue holds at least ctl's HOLD vertices is held: sp_round sets it up
// and marks the step STEP_HOLD, which every kernel of the batch's later steps takes for
// nothing to do, so the host finds it at its next read of ctl and runs the round itself,
// shard chunk by shard chunk: sp_hold_mark files the queue's vertices of the streamed
// out-shards (those with lists or weights in pinned host memory) in a bitmap and counts
// them and their edges per chunk (a vertex range whose lists and weights fit one staging
// buffer); sp_relax with a skip table relaxes the queue's other vertices; then for every
// chunk with vertices in the queue, sp_relax_chunk relaxes them from a staging buffer the
// host copied the chunk into (when the counts say the copy costs less than reading their
// lists zero-copy), or in place; sp_resume lets the next steps run.
//
// The lists are read through the shard table (device memory or pinned host memory, read
// zero-copy). The weights of out-shard i start at wts[i].x (device memory, or pinned host
// memory when wts[i].y is not 0), v's at element wOff[v] within it, each 1 << wshift bytes
// wide; unit != 0 weighs every edge 1 instead.
//
// Distances and weights are uint32s, or, when ctl's FLOAT is set (a graph of float32
// weights), the bit patterns of non-negative finite float32s, which order as the uint32s
// do: atomicMin, the far pile and NONE (above every finite float) work on them unchanged,
// and only a sum (addW: IEEE round to nearest, as the CPU's float32 sum) and a bin
// (binOf: the float distance over the float delta, rounded down) differ.
#include "graph.cuh" // store/graph.cuh (nvcc -I store)

// The control words (package sssp's ctl* constants mirror them; a test compares).
#define C_MODE 0   // what the current step does: STEP_ROUND, STEP_BIN, STEP_END or STEP_DONE
#define C_BIN 1    // the current bin
#define C_FRONT 2  // which of the three queues holds the near queue of this round
#define C_NEXT 3   // ... the next round's near queue (in a new bin's step, the kept far vertices)
#define C_FAR 4    // ... the far pile
#define C_NF 5     // vertices in the near queue
#define C_NN 6     // vertices queued for the next round
#define C_FN 7     // vertices in the far pile
#define C_KN 8     // far vertices sp_split keeps
#define C_ROUND 9  // stamps: the latest round or split that queued vertices
#define C_MINBIN 10 // sp_far_min's answer (NONE: every far vertex is settled)
#define C_BAD 11   // the smallest vertex whose distance would pass 0xFFFFFFFE (NONE: none)
#define C_STEPS 12 // records written
#define C_HUBS 13  // long lists the round queued for sp_relax_hub
#define C_HUBMAX 14 // the most blocks of a queued list
#define C_HOLD 15   // a round of at least this many vertices is held for the host (NONE: none)
#define C_HELD 16   // the round before this one was held
#define C_NSV 17    // float: ns per queued vertex of the latest round read zero-copy (0: none yet)
#define C_BPNS 18   // float: the bytes per ns that round read zero-copy
#define C_HOLDNS 19 // float: a round whose queue times C_NSV reaches this many ns is held too
#define C_FLOAT 20  // 1: distances, weights and delta are float32 bits
#define C_WORDS 21

#define MEASURE_MIN (16ull << 20) // the zero-copy bytes from which a round's rate counts

#define STEP_ROUND 0
#define STEP_BIN 1
#define STEP_END 2
#define STEP_DONE 3
#define STEP_HOLD 4 // the round is set up and waits for the host to run it (sp_hold_mark)

// The running 64-bit counters acc.
#define A_EDGES 0 // list entries read
#define A_BYTES 1 // list and weight bytes read from pinned host memory
#define A_WORDS 2

// A round's record: its bin (NONE for the record that ends the run), its near queue's
// size, the global timer in ns, then the A_WORDS counters, all at the round's start;
// RING records.
#define R_WORDS (3 + A_WORDS)
#define RING 1024

// addW is du + w, or NONE where the float sum overflows to infinity (an integer sum past
// 0xFFFFFFFE shows itself as at least NONE too).
__device__ __forceinline__ uint64_t addW(uint32_t fl, uint64_t du, uint32_t w) {
	if (!fl) return du + w;
	uint32_t s = __float_as_uint(__fadd_rn(__uint_as_float((uint32_t)du), __uint_as_float(w)));
	return s >= 0x7F800000u ? NONE : s;
}

// binOf is the bin of distance d (not NONE): d / delta, in float32 with fl (at most
// NONE - 1).
__device__ __forceinline__ uint32_t binOf(uint32_t fl, uint32_t d, uint32_t delta) {
	if (!fl) return d / delta;
	float b = floorf(__fdiv_rn(__uint_as_float(d), __uint_as_float(delta)));
	return b >= 4294967294.0f ? NONE - 1 : (uint32_t)b;
}

// Relax is one round's view of the state.
struct Relax {
	const ulonglong2 *wts; // per out-shard: where its weights start, and whether that is pinned host memory
	const uint32_t *wOff;
	uint32_t wshift, unit;
	uint32_t *dist, *stamp, round, *next, *nextCount;
	uint32_t *bad;
	unsigned long long binHi; // distances from here on belong to later bins (integer distances)
	uint32_t *far, *farBits, *farCount;
	uint32_t fl, bin, delta; // float32 distances (ctl's FLOAT); the current bin and its width
};

// later says whether distance d (below NONE) belongs to a bin after the current one.
__device__ __forceinline__ bool later(const Relax &r, uint64_t d) {
	return r.fl ? binOf(1, (uint32_t)d, r.delta) > r.bin : d >= r.binHi;
}

// Weights is where one list's weights are.
struct Weights {
	const uint8_t *p; // the list's first weight; NULL for unit weights
	uint32_t shift;   // each weight is 1 << shift bytes
	uint32_t pinned;  // p is pinned host memory
};

// weightsOf gives the weights of v's list in out-shard si.
__device__ __forceinline__ Weights weightsOf(const Relax &r, int si, uint32_t v) {
	Weights w = {NULL, r.wshift, 0};
	if (r.unit) return w;
	ulonglong2 t = r.wts[si];
	w.p = (const uint8_t *)t.x + ((uint64_t)r.wOff[v] << r.wshift);
	w.pinned = (uint32_t)t.y;
	return w;
}

// weightAt is the k-th weight of w.
__device__ __forceinline__ uint32_t weightAt(const Weights &w, uint32_t k) {
	if (w.p == NULL) return 1u;
	if (w.shift == 0) return __ldg(w.p + k);
	if (w.shift == 1) return __ldg((const unsigned short *)w.p + k);
	return __ldg((const uint32_t *)w.p + k);
}

#define BATCH 8 // neighbours a thread relaxes together

// relaxBlock relaxes the edges of block b of l (v's list, at distance du, weights w) and
// returns the bytes it read from pinned host memory (lp: the list is there). The
// neighbours go BATCH at a time: their weights and distances are loaded together, then
// their atomics issued together, so a thread waits for memory (the weights and lists are
// often zero-copy) a few times a batch rather than a few times an edge.
__device__ __forceinline__ uint32_t relaxBlock(const Relax &r, const Weights &w, uint32_t lp, const List &l, uint32_t b,
                                               uint64_t du) {
	BlockDecoder d;
	d.init(l, b);
	uint32_t k = b * OOC_BLOCK, k0 = k;
	for (;;) {
		uint32_t u[BATCH], dv[BATCH], old[BATCH];
		uint64_t nd[BATCH];
		int c = 0;
#pragma unroll
		for (int j = 0; j < BATCH; j++)
			if (d.next(&u[j])) c = j + 1;
#pragma unroll
		for (int j = 0; j < BATCH; j++) nd[j] = j < c ? addW(r.fl, du, weightAt(w, k + j)) : NONE;
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
			if (!later(r, nd[j])) {
				if (atomicExch(&r.stamp[u[j]], r.round) != r.round) r.next[atomicAdd(r.nextCount, 1u)] = u[j];
			} else {
				uint32_t bit = 1u << (u[j] & 31);
				if (!(atomicOr(&r.farBits[u[j] >> 5], bit) & bit)) r.far[atomicAdd(r.farCount, 1u)] = u[j];
			}
		}
		k += c;
		if (c < BATCH) break;
	}
	uint32_t by = lp ? d.used() + (b > 0 ? 4 : 0) : 0;
	return by + (w.pinned ? (k - k0) << w.shift : 0);
}

#define HUB_BLOCKS 64 // lists of more blocks go to sp_relax_hub while its queue has room
#define HUB_PARTS 256 // the most warps sharing one such list

// Hubs is the queue of long lists for sp_relax_hub: their vertices and block counts.
struct Hubs {
	uint32_t *v, *nb, *count, *most;
	uint32_t cap;
};

// queueHub queues v's list of nb blocks for sp_relax_hub and says whether there was room.
__device__ __forceinline__ bool queueHub(const Hubs &h, uint32_t v, uint32_t nb) {
	uint32_t i = atomicAdd(h.count, 1u);
	if (i >= h.cap) return false;
	h.v[i] = v;
	h.nb[i] = nb;
	atomicMax(h.most, nb);
	return true;
}

// roundOf is the view of the step's round that sp_relax and sp_relax_hub share.
__device__ __forceinline__ Relax roundOf(const ulonglong2 *wts, const uint32_t *wOff, uint32_t wshift, uint32_t unit,
                                        uint32_t *dist, uint32_t *stamp, uint32_t *farBits, uint32_t *l0, uint32_t *l1,
                                        uint32_t *l2, uint32_t *ctl, uint32_t delta) {
	Relax r = {wts, wOff, wshift, unit, dist, stamp, ctl[C_ROUND], pickList(l0, l1, l2, ctl[C_NEXT]), ctl + C_NN,
	           ctl + C_BAD, ((unsigned long long)ctl[C_BIN] + 1) * delta, pickList(l0, l1, l2, ctl[C_FAR]), farBits,
	           ctl + C_FN, ctl[C_FLOAT], ctl[C_BIN], delta};
	return r;
}

// sp_begin (one thread) starts a step: a non-empty next queue makes a round; an empty one
// with a far pile, a new bin; with neither, the end.
extern "C" __global__ void sp_begin(uint32_t *ctl) {
	if (ctl[C_MODE] == STEP_DONE || ctl[C_MODE] == STEP_HOLD) return;
	if (ctl[C_NN] > 0) {
		uint32_t f = ctl[C_FRONT];
		ctl[C_FRONT] = ctl[C_NEXT];
		ctl[C_NEXT] = f;
		ctl[C_NF] = ctl[C_NN];
		ctl[C_NN] = 0;
		ctl[C_ROUND]++;
		ctl[C_MODE] = STEP_ROUND;
	} else if (ctl[C_FN] == 0) {
		ctl[C_MODE] = STEP_END;
	} else {
		ctl[C_MINBIN] = NONE;
		ctl[C_MODE] = STEP_BIN;
	}
}

// sp_far_min, in a step that starts a bin, lowers ctl's MINBIN to the smallest bin
// dist[v]/delta beyond the current one of the far pile's vertices.
extern "C" __global__ void sp_far_min(uint32_t *l0, uint32_t *l1, uint32_t *l2, uint32_t *ctl, const uint32_t *dist,
                                      uint32_t delta) {
	if (ctl[C_MODE] != STEP_BIN) return;
	const uint32_t *far = pickList(l0, l1, l2, ctl[C_FAR]);
	uint32_t fn = ctl[C_FN], bin = ctl[C_BIN], m = NONE, fl = ctl[C_FLOAT];
	for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < fn; i += gridDim.x * blockDim.x) {
		uint32_t b = binOf(fl, dist[far[i]], delta);
		if (b > bin) m = min(m, b);
	}
	for (int o = 16; o > 0; o >>= 1) m = min(m, __shfl_xor_sync(0xffffffffu, m, o));
	if (laneId() == 0 && m != NONE) atomicMin(ctl + C_MINBIN, m);
}

// sp_bin (one thread), in a step that starts a bin, makes sp_far_min's answer the
// current bin, or ends the run when every far vertex was settled in an earlier bin.
extern "C" __global__ void sp_bin(uint32_t *ctl) {
	if (ctl[C_MODE] != STEP_BIN) return;
	if (ctl[C_MINBIN] == NONE) {
		ctl[C_MODE] = STEP_END;
		return;
	}
	ctl[C_BIN] = ctl[C_MINBIN];
	ctl[C_NN] = 0;
	ctl[C_KN] = 0;
	ctl[C_ROUND]++;
}

// sp_split, in a step that starts a bin, sorts the far pile's vertices by their bin
// dist[v]/delta: those of the new bin join the near queue (once: stamp, as in sp_relax),
// those beyond it are kept (in the next queue's array, empty now), and those before it
// are dropped (settled since they were filed); the vertices that leave the pile have
// their farBits cleared.
extern "C" __global__ void sp_split(uint32_t *l0, uint32_t *l1, uint32_t *l2, uint32_t *ctl, const uint32_t *dist,
                                    uint32_t delta, uint32_t *farBits, uint32_t *stamp) {
	if (ctl[C_MODE] != STEP_BIN) return;
	const uint32_t *far = pickList(l0, l1, l2, ctl[C_FAR]);
	uint32_t *near = pickList(l0, l1, l2, ctl[C_FRONT]), *keep = pickList(l0, l1, l2, ctl[C_NEXT]);
	uint32_t fn = ctl[C_FN], bin = ctl[C_BIN], round = ctl[C_ROUND], fl = ctl[C_FLOAT];
	for (uint32_t b0 = blockIdx.x * blockDim.x; b0 < fn; b0 += gridDim.x * blockDim.x) {
		uint32_t i = b0 + threadIdx.x;
		uint32_t v = i < fn ? far[i] : 0;
		uint32_t b = i < fn ? binOf(fl, dist[v], delta) : 0;
		bool kept = i < fn && b > bin, joins = false;
		if (i < fn && b <= bin) {
			atomicAnd(&farBits[v >> 5], ~(1u << (v & 31)));
			joins = b == bin && atomicExch(&stamp[v], round) != round;
		}
		warpAppend(keep, ctl + C_KN, kept, v);
		warpAppend(near, ctl + C_NN, joins, v);
	}
}

// sp_round (one thread) sets up the step's round: in a new bin's step the kept far
// vertices become the far pile and the split-off ones the near queue. It records the
// round's start (or, in the step that ends the run, the end, and marks the run done). When
// the round before was not held and read at least MEASURE_MIN bytes zero-copy, its time
// per queued vertex and its zero-copy rate become ctl's NSV and BPNS. It holds the round
// for the host when its queue has at least HOLD vertices, or when the queue times NSV
// reaches HOLDNS (the round's time read zero-copy, as the last measured round went,
// against what streaming would cost).
extern "C" __global__ void sp_round(uint32_t *ctl, const unsigned long long *acc, unsigned long long *rec) {
	uint32_t m = ctl[C_MODE];
	if (m == STEP_DONE || m == STEP_HOLD) return;
	if (m == STEP_BIN) {
		uint32_t f = ctl[C_FAR];
		ctl[C_FAR] = ctl[C_NEXT];
		ctl[C_NEXT] = f;
		ctl[C_FN] = ctl[C_KN];
		ctl[C_NF] = ctl[C_NN];
		ctl[C_NN] = 0;
		ctl[C_ROUND]++;
	}
	ctl[C_HUBS] = 0;
	ctl[C_HUBMAX] = 0;
	uint32_t step = ctl[C_STEPS];
	unsigned long long now = globalTimer();
	if (step > 0 && !ctl[C_HELD]) {
		const unsigned long long *p = rec + (uint64_t)((step - 1) % RING) * R_WORDS;
		unsigned long long by = acc[A_BYTES] - p[3 + A_BYTES], dt = now - p[2];
		if (by >= MEASURE_MIN && dt > 0 && p[1] > 0) {
			ctl[C_NSV] = __float_as_uint((float)dt / (float)p[1]);
			ctl[C_BPNS] = __float_as_uint((float)by / (float)dt);
		}
	}
	ctl[C_HELD] = 0;
	unsigned long long *r = rec + (uint64_t)(step % RING) * R_WORDS;
	r[0] = m == STEP_END ? NONE : ctl[C_BIN];
	r[1] = m == STEP_END ? 0 : ctl[C_NF];
	r[2] = now;
	for (int i = 0; i < A_WORDS; i++) r[3 + i] = acc[i];
	ctl[C_STEPS] = step + 1;
	if (m == STEP_END) {
		ctl[C_MODE] = STEP_DONE;
		return;
	}
	float nsv = __uint_as_float(ctl[C_NSV]), holdNs = __uint_as_float(ctl[C_HOLDNS]);
	if (ctl[C_NF] >= ctl[C_HOLD] || (nsv > 0 && holdNs > 0 && (float)ctl[C_NF] * nsv >= holdNs)) {
		ctl[C_MODE] = STEP_HOLD;
		ctl[C_HELD] = 1;
	}
}

// relaxLanes relaxes the lists of a warp's lanes laid end to end, the lanes taking their
// blocks in turn: each lane's list l (its first work blocks; work 0 for none), at distance
// du, weights w, lp set when the list is pinned host memory. It returns the lane's bytes
// read from pinned host memory.
__device__ __forceinline__ uint32_t relaxLanes(const Relax &r, const List &l, const Weights &wv, uint32_t lp, uint64_t du,
                                               uint32_t work) {
	uint32_t lb = 0;
	uint32_t incl = warpScan(work); // blocks of the lanes up to this one
	uint32_t total = __shfl_sync(0xffffffffu, incl, 31);
	for (uint32_t j0 = 0; j0 < total; j0 += 32) {
		uint32_t j = j0 + laneId();
		uint32_t q = warpOwner(incl, j); // the lane whose list holds block j
		List cl = shflList(l, q);
		uint32_t first = __shfl_sync(0xffffffffu, incl - work, q);
		Weights cw = {(const uint8_t *)__shfl_sync(0xffffffffu, (unsigned long long)wv.p, q), wv.shift,
		              __shfl_sync(0xffffffffu, wv.pinned, q)};
		uint32_t clp = __shfl_sync(0xffffffffu, lp, q);
		uint64_t cdu = __shfl_sync(0xffffffffu, (unsigned long long)du, q);
		if (j < total) lb += relaxBlock(r, cw, clp, cl, j - first, cdu);
	}
	return lb;
}

// sp_relax (relaxRound) runs the step's round: it relaxes the out-edges of the near queue's vertices.
// A small queue (no more vertices than warpMax, at most the grid's warps) gets a warp a
// vertex, the lanes taking its blocks; a large one a thread a vertex, the warp's lists
// laid end to end and the lanes taking their blocks in turn. Lists of more than
// HUB_BLOCKS blocks are queued (hubs, hubNb: cap of them) for sp_relax_hub, which shares
// each among many warps. acc receives the list entries read (the queued lists' included)
// and the bytes read from pinned host memory; ctl's BAD the smallest vertex whose
// distance would pass 0xFFFFFFFE.
// With skip (a held round: sp_hold_mark's pass), it runs in STEP_HOLD instead and leaves
// out the vertices of the out-shards i with skip[i] set (sp_relax_chunk relaxes them).
__device__ __forceinline__ void relaxRound(const Shard *tab, int ns, const ulonglong2 *wts, const uint32_t *wOff,
                                    uint32_t wshift, uint32_t unit, uint32_t *dist, uint32_t *stamp, uint32_t *farBits,
                                    uint32_t *l0, uint32_t *l1, uint32_t *l2, uint32_t *ctl, unsigned long long *acc,
                                    uint32_t delta, uint32_t warpMax, uint32_t *hubs, uint32_t *hubNb, uint32_t cap,
                                    const uint32_t *skip) {
	uint32_t mode = ctl[C_MODE];
	if (skip ? mode != STEP_HOLD : mode != STEP_ROUND && mode != STEP_BIN) return;
	uint32_t qn = ctl[C_NF];
	const uint32_t *front = pickList(l0, l1, l2, ctl[C_FRONT]);
	Relax r = roundOf(wts, wOff, wshift, unit, dist, stamp, farBits, l0, l1, l2, ctl, delta);
	Hubs h = {hubs, hubNb, ctl + C_HUBS, ctl + C_HUBMAX, cap};
	unsigned long long ex = 0, lb = 0;
	uint32_t warps = gridDim.x * (blockDim.x / 32), gw = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
	if (qn <= min(warps, warpMax)) {
		for (uint32_t w = gw; w < qn; w += warps) {
			uint32_t v = front[w];
			const Shard *s = findShard(tab, ns, v);
			if (skip && skip[s - tab]) continue;
			List l;
			l.at(s, v);
			if (laneId() == 0) ex += l.deg;
			if (l.nb > HUB_BLOCKS) {
				uint32_t room = laneId() == 0 ? queueHub(h, v, l.nb) : 0;
				if (__shfl_sync(0xffffffffu, room, 0)) continue;
			}
			Weights wv = weightsOf(r, (int)(s - tab), v);
			uint64_t du = dist[v];
			for (uint32_t b = laneId(); b < l.nb; b += 32) lb += relaxBlock(r, wv, s->pinned, l, b, du);
		}
		addWarp(acc + A_EDGES, ex);
		addWarp(acc + A_BYTES, lb);
		return;
	}
	for (uint32_t b0 = blockIdx.x * blockDim.x; b0 < qn; b0 += gridDim.x * blockDim.x) {
		uint32_t t = b0 + threadIdx.x;
		List l;
		l.base = l.end = NULL;
		l.v = 0;
		l.nb = 0;
		l.deg = 0;
		uint64_t du = 0;
		Weights wv = {NULL, wshift, 0};
		uint32_t lp = 0, work = 0;
		const Shard *s = t < qn ? findShard(tab, ns, front[t]) : NULL;
		if (s && !(skip && skip[s - tab])) {
			uint32_t v = front[t];
			l.at(s, v);
			wv = weightsOf(r, (int)(s - tab), v);
			lp = s->pinned;
			du = dist[v];
			work = l.nb;
			if (l.nb > HUB_BLOCKS && queueHub(h, v, l.nb)) work = 0;
		}
		ex += l.deg;
		lb += relaxLanes(r, l, wv, lp, du, work);
	}
	addWarp(acc + A_EDGES, ex);
	addWarp(acc + A_BYTES, lb);
}

// sp_relax_hub (relaxHubs) relaxes the long lists sp_relax queued in the step's round: the list of hub
// h is cut into parts of 32 blocks, at most HUB_PARTS of them (then a part takes every
// parts-th run of 32 blocks), and each (hub, part) goes to a warp, a lane a block. The
// source's distance is read again here: it may have fallen since sp_relax, and relaxing
// from any distance the source has held is as right as from the one it had. With held
// set it runs in a held round's pass (sp_relax's with skip) instead.
__device__ __forceinline__ void relaxHubs(const Shard *tab, int ns, const ulonglong2 *wts, const uint32_t *wOff,
                                        uint32_t wshift, uint32_t unit, uint32_t *dist, uint32_t *stamp,
                                        uint32_t *farBits, uint32_t *l0, uint32_t *l1, uint32_t *l2, uint32_t *ctl,
                                        unsigned long long *acc, uint32_t delta, const uint32_t *hubs,
                                        const uint32_t *hubNb, uint32_t cap, bool held) {
	uint32_t mode = ctl[C_MODE];
	if (held ? mode != STEP_HOLD : mode != STEP_ROUND && mode != STEP_BIN) return;
	uint32_t nh = min(ctl[C_HUBS], cap);
	if (nh == 0) return;
	Relax r = roundOf(wts, wOff, wshift, unit, dist, stamp, farBits, l0, l1, l2, ctl, delta);
	uint32_t parts = min((uint32_t)HUB_PARTS, (ctl[C_HUBMAX] + 31) / 32);
	uint64_t items = (uint64_t)nh * parts, warps = gridDim.x * (blockDim.x / 32);
	unsigned long long lb = 0;
	for (uint64_t t = (blockIdx.x * blockDim.x + threadIdx.x) / 32; t < items; t += warps) {
		uint32_t i = (uint32_t)(t % nh), p = (uint32_t)(t / nh);
		if (p * 32 >= hubNb[i]) continue; // the list has too few blocks for this part
		uint32_t v = hubs[i];
		const Shard *s = findShard(tab, ns, v);
		List l;
		l.at(s, v);
		Weights wv = weightsOf(r, (int)(s - tab), v);
		uint64_t du = __ldcg(&dist[v]);
		for (uint32_t b = p * 32 + laneId(); b < l.nb; b += parts * 32) lb += relaxBlock(r, wv, s->pinned, l, b, du);
	}
	addWarp(acc + A_BYTES, lb);
}

// sp_relax and sp_relax_hub are the kernels of rounds that read lists or weights
// zero-copy; sp_relax_dev and sp_relax_hub_dev, of rounds that read only device memory,
// are the same code held to 128 registers a thread, so that two blocks of 256 fit an SM
// where the register use lets one. Measured on weighted kron26 (H200): more warps shorten
// the rounds on device memory (0.346 s -> 0.203 s with the hub lists shared, bounded) but
// lengthen the zero-copy ones (--vram 3GiB: 0.586 s with one block an SM, 0.682 s with
// two, 1.041 s with three): the link serves fewer requests in flight better.
extern "C" __global__ void sp_relax(const Shard *tab, int ns, const ulonglong2 *wts, const uint32_t *wOff, uint32_t wshift,
                                    uint32_t unit, uint32_t *dist, uint32_t *stamp, uint32_t *farBits, uint32_t *l0,
                                    uint32_t *l1, uint32_t *l2, uint32_t *ctl, unsigned long long *acc, uint32_t delta,
                                    uint32_t warpMax, uint32_t *hubs, uint32_t *hubNb, uint32_t cap, const uint32_t *skip) {
	relaxRound(tab, ns, wts, wOff, wshift, unit, dist, stamp, farBits, l0, l1, l2, ctl, acc, delta, warpMax, hubs, hubNb, cap,
	           skip);
}

extern "C" __global__ void __launch_bounds__(256, 2) sp_relax_dev(const Shard *tab, int ns, const ulonglong2 *wts,
                                    const uint32_t *wOff, uint32_t wshift, uint32_t unit, uint32_t *dist, uint32_t *stamp,
                                    uint32_t *farBits, uint32_t *l0, uint32_t *l1, uint32_t *l2, uint32_t *ctl,
                                    unsigned long long *acc, uint32_t delta, uint32_t warpMax, uint32_t *hubs,
                                    uint32_t *hubNb, uint32_t cap) {
	relaxRound(tab, ns, wts, wOff, wshift, unit, dist, stamp, farBits, l0, l1, l2, ctl, acc, delta, warpMax, hubs, hubNb, cap,
	           NULL);
}

extern "C" __global__ void sp_relax_hub(const Shard *tab, int ns, const ulonglong2 *wts, const uint32_t *wOff,
                                        uint32_t wshift, uint32_t unit, uint32_t *dist, uint32_t *stamp,
                                        uint32_t *farBits, uint32_t *l0, uint32_t *l1, uint32_t *l2, uint32_t *ctl,
                                        unsigned long long *acc, uint32_t delta, const uint32_t *hubs,
                                        const uint32_t *hubNb, uint32_t cap, uint32_t held) {
	relaxHubs(tab, ns, wts, wOff, wshift, unit, dist, stamp, farBits, l0, l1, l2, ctl, acc, delta, hubs, hubNb, cap, held);
}

extern "C" __global__ void __launch_bounds__(256, 2) sp_relax_hub_dev(const Shard *tab, int ns, const ulonglong2 *wts,
                                        const uint32_t *wOff, uint32_t wshift, uint32_t unit, uint32_t *dist,
                                        uint32_t *stamp, uint32_t *farBits, uint32_t *l0, uint32_t *l1, uint32_t *l2,
                                        uint32_t *ctl, unsigned long long *acc, uint32_t delta, const uint32_t *hubs,
                                        const uint32_t *hubNb, uint32_t cap) {
	relaxHubs(tab, ns, wts, wOff, wshift, unit, dist, stamp, farBits, l0, l1, l2, ctl, acc, delta, hubs, hubNb, cap,
	          false);
}

// sp_hold_mark, in a held round, sets the bit in hold of every near-queue vertex of an
// out-shard i with skip[i] set, and adds one to cnt[c] and its degree to deg[c], and
// raises most[c] to its degree, for the chunk c that holds it: the last of the nch chunks
// (sorted by their first vertex, lo) whose first vertex is at most it. The counts go
// through shared memory when there are at most HOLD_CHUNKS chunks.
#define HOLD_CHUNKS 1024
extern "C" __global__ void sp_hold_mark(const Shard *tab, int ns, const uint32_t *skip, uint32_t *l0, uint32_t *l1,
                                        uint32_t *l2, const uint32_t *ctl, uint32_t *hold, const uint32_t *lo,
                                        uint32_t nch, uint32_t *cnt, unsigned long long *deg, uint32_t *most) {
	if (ctl[C_MODE] != STEP_HOLD) return;
	__shared__ uint32_t sc[HOLD_CHUNKS], sm[HOLD_CHUNKS];
	__shared__ unsigned long long sd[HOLD_CHUNKS];
	bool shared = nch <= HOLD_CHUNKS;
	if (shared)
		for (uint32_t i = threadIdx.x; i < nch; i += blockDim.x) sc[i] = 0, sd[i] = 0, sm[i] = 0;
	__syncthreads();
	const uint32_t *front = pickList(l0, l1, l2, ctl[C_FRONT]);
	uint32_t qn = ctl[C_NF];
	for (uint32_t t = blockIdx.x * blockDim.x + threadIdx.x; t < qn; t += gridDim.x * blockDim.x) {
		uint32_t v = front[t];
		const Shard *s = findShard(tab, ns, v);
		if (!skip[s - tab]) continue;
		atomicOr(&hold[v >> 5], 1u << (v & 31));
		uint32_t a = 0, b = nch - 1; // the chunk: the last with lo <= v
		while (a < b) {
			uint32_t m = (a + b + 1) >> 1;
			if (lo[m] <= v) a = m; else b = m - 1;
		}
		uint32_t d = shardDegree(s, v - s->lo);
		if (shared) {
			atomicAdd(&sc[a], 1u);
			atomicAdd(&sd[a], (unsigned long long)d);
			atomicMax(&sm[a], d);
		} else {
			atomicAdd(&cnt[a], 1u);
			atomicAdd(&deg[a], (unsigned long long)d);
			atomicMax(&most[a], d);
		}
	}
	if (!shared) return;
	__syncthreads();
	for (uint32_t i = threadIdx.x; i < nch; i += blockDim.x)
		if (sc[i]) {
			atomicAdd(&cnt[i], sc[i]);
			atomicAdd(&deg[i], sd[i]);
			atomicMax(&most[i], sm[i]);
		}
}

// sp_relax_chunk, in a held round, relaxes the out-edges of the vertices in [a, b) of
// out-shard si whose bit in hold is set. A warp takes span words of hold (32 vertices
// each; at most 32 words) at a time, and its lanes take their set bits in turn, a vertex
// each, the lanes' lists laid end to end (relaxLanes); lists of more than HUB_BLOCKS
// blocks are queued for sp_relax_chunk_hub as sp_relax queues them. It reads the lists at
// adj (the shard's ADJ bytes as they lie, or a staging buffer's address less the offset of
// the bytes copied there; adjPinned: pinned host memory) and v's weights at
// wbase + (wOff[v] << wshift) (wPinned: pinned host memory); acc and ctl's BAD as in
// sp_relax.
extern "C" __global__ void __launch_bounds__(256, 2) sp_relax_chunk(const Shard *tab, int si, uint32_t a, uint32_t b,
                                        const uint8_t *adj, uint32_t adjPinned, const uint8_t *wbase, uint32_t wPinned,
                                        const uint32_t *wOff, uint32_t wshift, uint32_t unit, const uint32_t *hold,
                                        uint32_t *dist, uint32_t *stamp, uint32_t *farBits, uint32_t *l0, uint32_t *l1,
                                        uint32_t *l2, uint32_t *ctl, unsigned long long *acc, uint32_t delta,
                                        uint32_t span, uint32_t *hubs, uint32_t *hubNb, uint32_t cap) {
	if (ctl[C_MODE] != STEP_HOLD || a >= b) return;
	Hubs h = {hubs, hubNb, ctl + C_HUBS, ctl + C_HUBMAX, cap};
	Shard s = tab[si];
	s.adj = adj;
	s.pinned = adjPinned;
	Relax r = roundOf(NULL, wOff, wshift, unit, dist, stamp, farBits, l0, l1, l2, ctl, delta);
	unsigned long long ex = 0, lb = 0;
	uint32_t warps = gridDim.x * (blockDim.x / 32), gw = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
	uint32_t w0 = a >> 5, w1 = (b - 1) / 32 + 1; // the words of hold that cover [a, b)
	for (uint32_t base = w0 + gw * span; base < w1; base += warps * span) {
		uint32_t wi = base + laneId(), bits = 0;
		if (laneId() < span && wi < w1) {
			bits = __ldg(&hold[wi]);
			uint32_t v0 = wi << 5;
			if (v0 < a) bits &= ~0u << (a - v0);
			if (b - v0 < 32) bits &= (1u << (b - v0)) - 1;
		}
		uint32_t c = __popc(bits), incl = warpScan(c); // set bits of the lanes up to this one
		uint32_t total = __shfl_sync(0xffffffffu, incl, 31);
		for (uint32_t k0 = 0; k0 < total; k0 += 32) {
			uint32_t k = k0 + laneId();
			uint32_t q = warpOwner(incl, k); // the lane whose word holds set bit k
			uint32_t qbits = __shfl_sync(0xffffffffu, bits, q), qfirst = __shfl_sync(0xffffffffu, incl - c, q);
			List l;
			l.base = l.end = NULL;
			l.v = 0;
			l.nb = 0;
			l.deg = 0;
			uint64_t du = 0;
			Weights wv = {NULL, wshift, 0};
			uint32_t work = 0;
			if (k < total) {
				uint32_t v = ((base + q) << 5) + __fns(qbits, 0, (int)(k - qfirst + 1));
				l.at(&s, v);
				if (!unit) wv.p = wbase + ((uint64_t)wOff[v] << wshift), wv.pinned = wPinned;
				du = dist[v];
				work = l.nb;
				if (l.nb > HUB_BLOCKS && queueHub(h, v, l.nb)) work = 0;
			}
			ex += l.deg;
			lb += relaxLanes(r, l, wv, adjPinned, du, work);
		}
	}
	addWarp(acc + A_EDGES, ex);
	addWarp(acc + A_BYTES, lb);
}

// sp_relax_chunk_hub relaxes the long lists sp_relax_chunk queued, of out-shard si read
// at adj and wbase as there, the way sp_relax_hub does.
extern "C" __global__ void sp_relax_chunk_hub(const Shard *tab, int si, const uint8_t *adj, uint32_t adjPinned,
                                              const uint8_t *wbase, uint32_t wPinned, const uint32_t *wOff,
                                              uint32_t wshift, uint32_t unit, uint32_t *dist, uint32_t *stamp,
                                              uint32_t *farBits, uint32_t *l0, uint32_t *l1, uint32_t *l2, uint32_t *ctl,
                                              unsigned long long *acc, uint32_t delta, const uint32_t *hubs,
                                              const uint32_t *hubNb, uint32_t cap) {
	if (ctl[C_MODE] != STEP_HOLD) return;
	uint32_t nh = min(ctl[C_HUBS], cap);
	if (nh == 0) return;
	Shard s = tab[si];
	s.adj = adj;
	s.pinned = adjPinned;
	Relax r = roundOf(NULL, wOff, wshift, unit, dist, stamp, farBits, l0, l1, l2, ctl, delta);
	uint32_t parts = min((uint32_t)HUB_PARTS, (ctl[C_HUBMAX] + 31) / 32);
	uint64_t items = (uint64_t)nh * parts, warps = gridDim.x * (blockDim.x / 32);
	unsigned long long lb = 0;
	for (uint64_t t = (blockIdx.x * blockDim.x + threadIdx.x) / 32; t < items; t += warps) {
		uint32_t i = (uint32_t)(t % nh), p = (uint32_t)(t / nh);
		if (p * 32 >= hubNb[i]) continue;
		uint32_t v = hubs[i];
		List l;
		l.at(&s, v);
		Weights wv = {NULL, wshift, 0};
		if (!unit) wv.p = wbase + ((uint64_t)wOff[v] << wshift), wv.pinned = wPinned;
		uint64_t du = __ldcg(&dist[v]);
		for (uint32_t b = p * 32 + laneId(); b < l.nb; b += parts * 32) lb += relaxBlock(r, wv, adjPinned, l, b, du);
	}
	addWarp(acc + A_BYTES, lb);
}

// sp_hubs_clear (one thread) empties the long-list queue between the passes of a held round.
extern "C" __global__ void sp_hubs_clear(uint32_t *ctl) {
	if (ctl[C_MODE] != STEP_HOLD) return;
	ctl[C_HUBS] = 0;
	ctl[C_HUBMAX] = 0;
}

// sp_resume (one thread) ends a held round: the next steps run.
extern "C" __global__ void sp_resume(uint32_t *ctl) {
	if (ctl[C_MODE] == STEP_HOLD) ctl[C_MODE] = STEP_ROUND;
}

// sp_parents sets parent[v] to the smallest u with an edge u -> v (v not src) such that
// dist[u] + its weight = dist[v] (a float32 sum with fl), over the out-lists of out-shard
// si (shard s); parent must hold NONE everywhere before the first shard.
extern "C" __global__ void sp_parents(SHARD_PARAMS, int si, const ulonglong2 *wts, const uint32_t *wOff, uint32_t wshift,
                                      uint32_t unit, uint32_t fl, const uint32_t *dist, uint32_t src, uint32_t *parent) {
	SHARD_LOCAL;
	Relax r = {wts, wOff, wshift, unit};
	for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < s.n; i += gridDim.x * blockDim.x) {
		uint32_t v = s.lo + i;
		uint64_t du = dist[v];
		if (du == NONE) continue;
		List l;
		l.at(&s, v);
		Weights w = weightsOf(r, si, v);
		uint32_t k = 0;
		for (uint32_t b = 0; b < l.nb; b++) {
			BlockDecoder d;
			d.init(l, b);
			uint32_t u;
			while (d.next(&u)) {
				uint32_t c = weightAt(w, k++);
				if (u != src && addW(fl, du, c) == (uint64_t)dist[u]) atomicMin(&parent[u], v);
			}
		}
	}
}

// bfs.cu: direction-optimizing breadth-first search (Beamer, Asanović, Patterson, SC 2012)
// over the compressed shards. A launch that reads pinned lists reads one window of them
// (a bottom-up sweep one shard, a top-down expansion a range of shards whose pinned lists
// fit <= 512 MiB), the size below which random zero-copy reads keep the link full
// (docs/design-link-policy.md).
//
// State: parent and level per vertex; bitmaps visited, frontier (current level, bottom-up
// only) and next; queues in/out with a counter. Every discovered vertex is emitted into
// the out queue at once (warp-aggregated atomics), so no level ever scans all vertices.
#include "graph.cuh" // store/graph.cuh (nvcc -I store)

// Lists are read 16 bytes a load (ByteReader16): a search reads each list once, most of
// them short, and a pinned list costs a link request per load, two for a short list that
// crosses an 8-byte boundary (grid 2^26 at 1410 MiB, 6-byte lists: its largest top-down
// level 0.242 -> 0.198 ms).
typedef BlockDecoderR<ByteReader16> Decoder;

extern "C" __global__ void bfs_init(uint32_t *parent, uint32_t *level, uint32_t *visited,
                                    uint32_t *queue, uint32_t src) {
	if (blockIdx.x == 0 && threadIdx.x == 0) {
		parent[src] = src;
		level[src] = 0;
		visited[src >> 5] |= 1u << (src & 31);
		queue[0] = src;
	}
}

// visit claims w for parent u at level depth+1 and reports whether this thread won it.
__device__ __forceinline__ bool visit(uint32_t *visited, uint32_t *parent, uint32_t *level,
                                      uint32_t w, uint32_t u, uint32_t depth) {
	uint32_t bit = 1u << (w & 31);
	if (visited[w >> 5] & bit) return false;
	if (atomicOr(&visited[w >> 5], bit) & bit) return false;
	parent[w] = u;
	level[w] = depth + 1;
	return true;
}

// Top-down levels run in batches the host queues without waiting: each level's launches
// read from the records of the level before whether they have work, so the host reads
// the records once per batch instead of the counters once per level (a high-diameter
// graph runs thousands of small levels). Record j of a batch, REC_WORDS 64-bit words
// (bfs/state.go's rec* constants):
#define REC_WORDS 8
#define REC_COUNT 0    // u32 vertices emitted into the out queue
#define REC_DEGREES 1  // out-degree sum of the emitted vertices (the next level's scout; td_scout)
#define REC_EXAMINED 2 // out-degree sum of the level's input queue
#define REC_LINK 3     // list bytes decoded from pinned shards
#define REC_T0 4       // %globaltimer when the level's first launch began (also when it had no work)
#define REC_LEFT 5     // edges left unchecked after the level (signed)
#define REC_RAN 6      // 1 when the level ran
#define REC_LONG 7     // blocks of the long lists queued (low 32 bits), long lists queued (high 32 bits)
#define SMALL_QUEUE 1024 // a queue this short is expanded by the first range launch alone

// expandBlock is the body of every top-down expansion: it decodes block k of l, claims each
// neighbour for l.v at level depth+1 and appends the won ones to out. It returns the list
// bytes it decoded (the block's index word included), for the link traffic count.
__device__ __forceinline__ uint32_t expandBlock(const List &l, uint32_t k, uint32_t *visited, uint32_t *parent,
                                                uint32_t *level, uint32_t depth, uint32_t *out, uint32_t *outCount) {
	Decoder d;
	d.init(l, k);
	uint32_t w;
	while (d.next(&w)) {
		bool got = visit(visited, parent, level, w, l.v, depth);
		warpAppend(out, outCount, got, w);
	}
	return (uint32_t)d.used() + (k > 0 ? 4 : 0);
}

// queueLongs queues, for td_long, the lists of nb blocks of the warp's lanes that hold one
// (want): lane 0 takes their entries with one 64-bit atomic, the count in the high half
// and the index of the first block among the level's long-list blocks in the low half, so
// the indexes rise with the entries. A warp queues all its lists or, when the queue's cap
// entries would be passed, none (each lane then expands its own). One atomic a warp, not a
// lane: 17K hub lists of one level made a lane's compare-and-swap retry about 1,700 times.
// It returns whether the lane's list was queued. All 32 lanes must call it.
__device__ __forceinline__ bool queueLongs(unsigned long long *word, uint32_t *longList, uint32_t *longAt, uint32_t cap,
                                           bool want, uint32_t u, uint32_t nb) {
	unsigned vote = __ballot_sync(0xffffffffu, want);
	if (vote == 0) return false;
	uint32_t mine = want ? nb : 0, incl = warpScan(mine);
	uint32_t count = __popc(vote), total = __shfl_sync(0xffffffffu, incl, 31);
	unsigned long long old = 0;
	bool ok = false;
	if (laneId() == 0) {
		unsigned long long seen;
		old = *(volatile unsigned long long *)word;
		do {
			ok = (uint32_t)(old >> 32) <= cap && cap - (uint32_t)(old >> 32) >= count;
			if (!ok) break;
			seen = old;
			old = atomicCAS(word, seen, seen + (((unsigned long long)count << 32) | total));
		} while (old != seen);
	}
	ok = __shfl_sync(0xffffffffu, ok, 0);
	old = __shfl_sync(0xffffffffu, old, 0);
	if (!ok || !want) return false;
	uint32_t i = (uint32_t)(old >> 32) + __popc(vote & ((1u << laneId()) - 1));
	longList[i] = u;
	longAt[i] = (uint32_t)old + incl - mine;
	return true;
}

// tdLevel reads whether level j of a batch runs, and its input queue length: level 0 from
// the host's qn0, scout0 and left0 (the edges left unchecked), a later one from the record
// of the level before. A level runs when its queue is not empty and GAPBS's rule keeps it
// top-down: scout <= left / alpha (the host's rule, in the same integer arithmetic).
__device__ __forceinline__ bool tdLevel(const unsigned long long *rec, uint32_t j, uint32_t qn0,
                                        unsigned long long scout0, unsigned long long left0, uint32_t alpha,
                                        uint32_t *qn, long long *left, long long *scoutOut = NULL) {
	long long scout = (long long)scout0;
	*qn = qn0;
	*left = (long long)left0;
	if (j > 0) {
		const volatile unsigned long long *p = rec + (size_t)(j - 1) * REC_WORDS;
		*qn = p[REC_RAN] ? (uint32_t)p[REC_COUNT] : 0;
		scout = (long long)p[REC_DEGREES];
		*left = (long long)p[REC_LEFT];
	}
	if (scoutOut) *scoutOut = scout;
	return *qn > 0 && !(scout > *left / (long long)alpha);
}

// gatherable says whether a top-down level the host gathers (td_gather_index) copies l's
// bytes to the device instead of reading them where they lie: a list of one or two blocks
// in a pinned shard, of fewer than 65,536 bytes, which td_gather_index's entry holds in 16
// bits. The builder writes no such list of more than ~650 bytes (two blocks of 64 varints
// of at most 5 bytes, their headers and one index word), but Check does not decode lists:
// a longer one, which a crafted graph can hold, is read where it lies (its decoder then
// finds it damaged). td_gather_index and td_expand's modes must agree, hence one rule.
__device__ __forceinline__ bool gatherable(const Shard *s, const List &l) {
	return s->pinned && l.nb >= 1 && l.nb <= 2 && l.end - l.base < 65536;
}

// Modes of expandQueue: every list, every list but the gatherable ones (a gathered level's
// pass over the lists it does not copy), or the gatherable ones alone (a gathered level
// whose copies did not fit reads them where they lie).
#define EXPAND_ALL 0
#define EXPAND_KEPT 1
#define EXPAND_GATHERABLE 2

// expandQueue is the body of a top-down expansion: the threads of the grid stride over
// the qn vertices of in and expand those in [lo, hi) that mode selects. A thread decodes
// a list of one or two blocks itself; a longer list is queued for expandLong, which spreads the blocks of
// all of them over the whole grid, a block a thread (Merrill et al. 2012 gather the lists
// of a frontier cooperatively for the same reason: a few long lists must not leave most
// threads idle); when the queue's longCap entries are taken, the thread expands its list
// itself. me is the level's record; the examined edges count every list in [lo, hi) but
// in mode EXPAND_GATHERABLE (the level's EXPAND_KEPT pass counted them).
__device__ __forceinline__ void expandQueue(const Shard *shards, int ns, uint32_t lo, uint32_t hi, const uint32_t *in,
                                            uint32_t qn, uint32_t *visited, uint32_t *parent, uint32_t *level,
                                            uint32_t depth, uint32_t *out, uint32_t *longList, uint32_t *longAt,
                                            uint32_t longCap, unsigned long long *me, uint32_t mode) {
	uint32_t *outCount = (uint32_t *)(me + REC_COUNT);
	unsigned long long ex = 0, lb = 0;
	// The loop is the warp's, not the lane's (queueLongs needs all 32 lanes): blocks are whole
	// warps, and a lane past the queue or outside [lo, hi) has no list.
	for (uint32_t t0 = blockIdx.x * blockDim.x + (threadIdx.x & ~31u); t0 < qn; t0 += gridDim.x * blockDim.x) {
		uint32_t t = t0 + laneId();
		uint32_t u = t < qn ? in[t] : 0;
		bool have = t < qn && u >= lo && u < hi;
		const Shard *s = shards;
		List l;
		l.nb = 0;
		if (have) {
			s = findShard(shards, ns, u);
			l.at(s, u);
			if (mode != EXPAND_GATHERABLE) ex += l.deg;
			if (mode != EXPAND_ALL) have = gatherable(s, l) == (mode == EXPAND_GATHERABLE);
		}
		if (queueLongs(me + REC_LONG, longList, longAt, longCap, have && l.nb > 2, u, l.nb) || !have) continue;
		for (uint32_t k = 0; k < l.nb; k++) {
			uint32_t b = expandBlock(l, k, visited, parent, level, depth, out, outCount);
			if (s->pinned) lb += b;
		}
	}
	addWarp(me + REC_EXAMINED, ex);
	addWarp(me + REC_LINK, lb);
}

// expandLong expands the long lists expandQueue queued for the level of record me, a
// block a thread: block b of them is block b - longAt[i] of the list longList[i] with the
// last longAt[i] <= b, so neighbouring threads decode neighbouring blocks of one list.
__device__ __forceinline__ void expandLong(const Shard *shards, int ns, const uint32_t *longList, const uint32_t *longAt,
                                           uint32_t *visited, uint32_t *parent, uint32_t *level, uint32_t depth,
                                           uint32_t *out, unsigned long long *me) {
	uint32_t *outCount = (uint32_t *)(me + REC_COUNT);
	unsigned long long w = *(volatile unsigned long long *)(me + REC_LONG);
	uint32_t count = (uint32_t)(w >> 32), total = (uint32_t)w;
	unsigned long long lb = 0;
	for (uint32_t b = blockIdx.x * blockDim.x + threadIdx.x; b < total; b += gridDim.x * blockDim.x) {
		uint32_t a = 0, z = count - 1;
		while (a < z) {
			uint32_t m = (a + z + 1) >> 1;
			if (longAt[m] <= b) a = m; else z = m - 1;
		}
		uint32_t u = longList[a];
		const Shard *s = findShard(shards, ns, u);
		List l;
		l.at(s, u);
		uint32_t x = expandBlock(l, b - longAt[a], visited, parent, level, depth, out, outCount);
		if (s->pinned) lb += x;
	}
	addWarp(me + REC_LINK, lb);
}

// A warp stages the bytes of the 32 long-list blocks it expands in STAGE_BYTES of shared
// memory (blocks of at most STAGE_WARPS warps: bfs_kernels' block size).
#define STAGE_BYTES 4096
#define STAGE_WARPS 8
#define STAGE_LOADS 4 // 16-byte loads a lane has in flight while staging

// Decodes a block wherever its bytes lie (the warp's staged copy or the list itself).
typedef BlockDecoderR<ByteReader16T<false> > StagedDecoder;

// expandLongStaged is expandLong a warp 32 consecutive blocks at a time, a block a lane.
// The warp first copies
// the bytes of its blocks into shared memory with coalesced 16-byte loads, 512 contiguous
// bytes a warp instruction, then each lane decodes its block from there. A lane reading
// its own block costs a link request per 16 bytes, each waiting for the one before: a hub
// level of kron26 in input order at 3 GiB (17,345 lists, 207 MiB pinned) read its lists
// so at 6.4-8.5 GB/s, bound by the count of requests (GPU.md: 128-byte random reads reach
// 42-51 GB/s). The blocks of one list lie end to end, so the warp copies one aligned
// stretch per list it holds, all stretches together in one pass; a block whose stretch
// would pass the STAGE_BYTES is decoded where it lies. The buffer (32 KiB a block) takes
// the place of L1 cache, so only kernels for graphs with long lists use it (td_levels_staged).
__device__ __forceinline__ void expandLongStaged(const Shard *shards, int ns, const uint32_t *longList, const uint32_t *longAt,
                                           uint32_t *visited, uint32_t *parent, uint32_t *level, uint32_t depth,
                                           uint32_t *out, unsigned long long *me) {
	__shared__ uint4 stage[STAGE_WARPS][STAGE_BYTES / 16];
	uint8_t *buf = (uint8_t *)stage[threadIdx.x >> 5];
	uint32_t *outCount = (uint32_t *)(me + REC_COUNT);
	unsigned long long w = *(volatile unsigned long long *)(me + REC_LONG);
	uint32_t count = (uint32_t)(w >> 32), total = (uint32_t)w;
	unsigned long long lb = 0;
	uint32_t lane = laneId(), warps = gridDim.x * (blockDim.x >> 5);
	for (uint32_t b0 = (blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5)) * 32; b0 < total; b0 += warps * 32) {
		uint32_t b = b0 + lane;
		bool act = b < total;
		const Shard *s = shards;
		List l;
		l.v = 0, l.deg = 0, l.nb = 0;
		uint32_t k = 0, c = 0;
		const uint8_t *start = NULL, *end = NULL;
		bool broken = false;
		if (act) {
			uint32_t a = 0, z = count - 1;
			while (a < z) {
				uint32_t m = (a + z + 1) >> 1;
				if (longAt[m] <= b) a = m; else z = m - 1;
			}
			uint32_t u = longList[a];
			s = findShard(shards, ns, u);
			l.at(s, u);
			k = b - longAt[a];
			start = l.block(k, &c, &end); // its bytes [start, end), inside the list
			broken = c == 0;              // the block index puts it outside the list (a fault)
			act = !broken;
		}
		// a warp with a broken block stages nothing: its stretches would not be one list's
		bool stage = __ballot_sync(0xffffffffu, broken) == 0;
		uintptr_t from = 0;
		uint32_t at = 0;
		if (stage) {
			// a list's stretch: from its first block here (a head: k == 0, or lane 0) to its
			// last, widened to 16-byte alignment
			unsigned heads = __ballot_sync(0xffffffffu, act && (k == 0 || lane == 0));
			unsigned acts = __ballot_sync(0xffffffffu, act);
			uint32_t h = 31 - __clz(heads & (0xffffffffu >> (31 - lane)));
			unsigned after = heads & ~(0xffffffffu >> (31 - lane));
			uint32_t tail = after ? __ffs(after) - 2 : 31 - __clz(acts);
			from = (uintptr_t)__shfl_sync(0xffffffffu, (unsigned long long)start, h) & ~(uintptr_t)15;
			uintptr_t to = ((uintptr_t)__shfl_sync(0xffffffffu, (unsigned long long)end, tail) + 15) & ~(uintptr_t)15;
			uint32_t len = act && lane == h ? (uint32_t)min(to - from, (uintptr_t)0xFFFFFFF0u) : 0;
			uint32_t incl = warpScan(len);
			at = __shfl_sync(0xffffffffu, incl - len, h); // the stretch's offset in buf
			uint32_t tot = __shfl_sync(0xffffffffu, incl, 31);
			uint32_t ends = act ? at + (uint32_t)(to - from) : 0xFFFFFFFFu; // the stretch's end in buf
			uint32_t lim = min(tot, (uint32_t)STAGE_BYTES);
			for (uint32_t q0 = 0; q0 < lim; q0 += 512 * STAGE_LOADS) {
				uint4 v[STAGE_LOADS];
#pragma unroll
				for (int j = 0; j < STAGE_LOADS; j++) {
					uint32_t q = q0 + 512 * j + 16 * lane;
					uint32_t o = warpOwner(ends, q);
					const uint8_t *src = (const uint8_t *)__shfl_sync(0xffffffffu, (unsigned long long)from, o);
					uint32_t off = __shfl_sync(0xffffffffu, at, o);
					if (q < lim) v[j] = __ldg((const uint4 *)(src + (q - off)));
				}
#pragma unroll
				for (int j = 0; j < STAGE_LOADS; j++) {
					uint32_t q = q0 + 512 * j + 16 * lane;
					if (q < lim) *(uint4 *)(buf + q) = v[j];
				}
			}
		}
		__syncwarp();
		if (act) {
			// a block's last 16-byte load ends at its end rounded up (a packed word at or before)
			uintptr_t last = ((uintptr_t)end + 15) & ~(uintptr_t)15;
			const uint8_t *p = start;
			if (stage && at + (last - from) <= STAGE_BYTES) p = buf + at + (start - (const uint8_t *)from);
			StagedDecoder d;
			d.initAt(p, p + (end - start), c, l.v);
			uint32_t x;
			while (d.next(&x)) {
				bool got = visit(visited, parent, level, x, l.v, depth);
				warpAppend(out, outCount, got, x);
			}
			if (s->pinned) lb += (unsigned long long)d.used() + (k > 0 ? 4 : 0);
		}
		__syncwarp();
	}
	addWarp(me + REC_LINK, lb);
}

// scoutQueue sums the out-degrees of the vertices the level of record me emitted into q
// (Beamer's m_f of the next level: the edges it would check top-down) into the record,
// reading the queue's length there; a level that did not run emitted none.
__device__ __forceinline__ void scoutQueue(const Shard *shards, int ns, const uint32_t *q, unsigned long long *me) {
	uint32_t qn = *(volatile uint32_t *)(me + REC_COUNT);
	unsigned long long acc = 0;
	for (uint32_t t = blockIdx.x * blockDim.x + threadIdx.x; t < qn; t += gridDim.x * blockDim.x) {
		uint32_t v = q[t];
		const Shard *s = findShard(shards, ns, v);
		acc += shardDegree(s, v - s->lo);
	}
	addWarp(me + REC_DEGREES, acc);
}

// gatherStop says whether level j of a batch, of qn vertices whose out-degrees sum to
// scout, is left to the host, which gathers it (the host's GPU.gatherable): a level of at
// least gmin vertices of at least gdeg out-neighbours on the mean, not the batch's first.
__device__ __forceinline__ bool gatherStop(uint32_t j, uint32_t qn, long long scout, uint32_t gmin, uint32_t gdeg) {
	return j > 0 && qn >= gmin && scout >= (long long)gdeg * qn;
}

// levelStart is what thread 0 of every block does when level j of a batch begins: it reads
// whether the level runs (tdLevel, a queue of at most qmax vertices, and not one the host
// gathers: gatherStop) and its queue length into *go and *qn, and block 0 of the level's
// first launch writes the record fields that are not counters.
__device__ __forceinline__ void levelStart(unsigned long long *rec, uint32_t j, bool first, uint32_t qn0,
                                           unsigned long long scout0, unsigned long long left0, uint32_t alpha,
                                           uint32_t qmax, uint32_t gmin, uint32_t gdeg, bool *go, uint32_t *qn) {
	unsigned long long *me = rec + (size_t)j * REC_WORDS;
	long long left, sc;
	*go = tdLevel(rec, j, qn0, scout0, left0, alpha, qn, &left, &sc) && *qn <= qmax && !gatherStop(j, *qn, sc, gmin, gdeg);
	if (first && blockIdx.x == 0) {
		atomicCAS(me + REC_T0, 0ull, globalTimer()); // td_gather_index may have begun the level
		if (*go) {
			long long scout = j > 0 ? (long long)rec[(size_t)(j - 1) * REC_WORDS + REC_DEGREES] : (long long)scout0;
			me[REC_LEFT] = (unsigned long long)(left - scout);
			me[REC_RAN] = 1;
		}
	}
}

// td_expand expands level j's frontier (top-down) into out (expandQueue, the lists mode
// selects), for a device that cannot run td_levels, for levels larger than those it runs,
// and beside a gathered level's copies. Only frontier vertices in [lo, hi) are expanded:
// with pinned adjacency the host launches it once per range of shards whose pinned lists
// fit one window, so a large frontier's many short random reads stay inside it
// (docs/design-link-policy.md: beyond ~512 MB such reads are bound by address
// translation); a queue of at most SMALL_QUEUE vertices is expanded whole by the range
// launch from vertex 0. The launch marked first writes the level's record fields that are
// not counters. A level the host gathers does not run (levelStart, gatherStop).
extern "C" __global__ void td_expand(const Shard *shards, int ns, uint32_t lo, uint32_t hi, uint32_t first,
                                     const uint32_t *in, uint32_t *visited, uint32_t *parent, uint32_t *level,
                                     uint32_t depth, uint32_t *out, uint32_t *longList, uint32_t *longAt, uint32_t longCap,
                                     unsigned long long *rec, uint32_t j, uint32_t qn0, unsigned long long scout0,
                                     unsigned long long left0, uint32_t alpha, uint32_t gmin, uint32_t gdeg,
                                     uint32_t mode) {
	__shared__ uint32_t sQn;
	__shared__ bool sGo;
	if (threadIdx.x == 0) {
		bool go;
		uint32_t qn;
		levelStart(rec, j, first != 0, qn0, scout0, left0, alpha, 0xFFFFFFFFu, gmin, gdeg, &go, &qn);
		sGo = go, sQn = qn;
	}
	__syncthreads();
	if (!sGo) return;
	uint32_t qn = sQn;
	if (qn <= SMALL_QUEUE) {
		if (lo != 0) return;
		hi = 0xFFFFFFFFu;
	}
	expandQueue(shards, ns, lo, hi, in, qn, visited, parent, level, depth, out, longList, longAt, longCap,
	            rec + (size_t)j * REC_WORDS, mode);
}

// td_gather_index starts the gathered part of a level the host gathers (bfs/gather_cuda.go),
// the first of its batch: the gatherable lists of the in queue's vertices of at least lo.
// For each it appends an entry to ents, {ADJ offset (bits 0-31), shard (32-47), bytes
// (48-63); offset in the gathered copy (0-31), vertex (32-63)}, the copies laid end to end
// in the entries' order: a warp reserves its entries and bytes with one atomic on *word
// (entries from bit 40, bytes below: a level gathers fewer than 2^24 lists, of fewer than
// 2^40 bytes). The host copies the lists and td_gathered expands them. A level that does
// not run (tdLevel) gathers nothing. The kernel runs first (the stream of the greatest
// priority), so it starts the level's time in the record when td_expand has not yet.
extern "C" __global__ void td_gather_index(const Shard *shards, int ns, const uint32_t *in, uint32_t lo,
                                           ulonglong2 *ents, unsigned long long *word, unsigned long long *rec,
                                           uint32_t qn0, unsigned long long scout0, unsigned long long left0,
                                           uint32_t alpha) {
	uint32_t qn;
	long long left;
	if (!tdLevel(rec, 0, qn0, scout0, left0, alpha, &qn, &left)) return;
	if (blockIdx.x == 0 && threadIdx.x == 0) atomicCAS(rec + REC_T0, 0ull, globalTimer()); // the level begins here
	// the loop is the warp's (the ballot and the scan need all 32 lanes)
	for (uint32_t t0 = blockIdx.x * blockDim.x + (threadIdx.x & ~31u); t0 < qn; t0 += gridDim.x * blockDim.x) {
		uint32_t t = t0 + laneId();
		uint32_t u = t < qn ? in[t] : 0;
		const Shard *s = shards;
		uint32_t start = 0, bytes = 0;
		bool want = false;
		if (t < qn && u >= lo) {
			s = findShard(shards, ns, u);
			if (s->pinned) {
				List l;
				l.at(s, u);
				if (gatherable(s, l)) {
					start = (uint32_t)(l.base - s->adj);
					bytes = (uint32_t)(l.end - l.base);
					want = true;
				}
			}
		}
		unsigned vote = __ballot_sync(0xffffffffu, want);
		if (vote == 0) continue;
		uint32_t incl = warpScan(bytes), total = __shfl_sync(0xffffffffu, incl, 31);
		unsigned long long old = 0;
		if (laneId() == 0) old = atomicAdd(word, (unsigned long long)__popc(vote) << 40 | total);
		old = __shfl_sync(0xffffffffu, old, 0);
		if (!want) continue;
		uint32_t i = (uint32_t)(old >> 40) + __popc(vote & ((1u << laneId()) - 1));
		unsigned long long at = (old & ((1ull << 40) - 1)) + incl - bytes;
		ents[i] = make_ulonglong2(start | (unsigned long long)(s - shards) << 32 | (unsigned long long)bytes << 48,
		                          at | (unsigned long long)u << 32);
	}
}

// td_gathered expands, for level j, the gathered lists of entries [i0, i1) of ents
// (td_gather_index's), each copied to bytes + its offset: decoded from device memory as a
// resident list.
extern "C" __global__ void td_gathered(const Shard *shards, int ns, const ulonglong2 *ents, uint32_t i0, uint32_t i1,
                                       const uint8_t *bytes, uint32_t *visited, uint32_t *parent, uint32_t *level,
                                       uint32_t depth, uint32_t *out, unsigned long long *rec, uint32_t j) {
	uint32_t *outCount = (uint32_t *)(rec + (size_t)j * REC_WORDS + REC_COUNT);
	for (uint32_t i = i0 + blockIdx.x * blockDim.x + threadIdx.x; i < i1; i += gridDim.x * blockDim.x) {
		ulonglong2 en = ents[i];
		unsigned long long e = en.y;
		uint32_t u = (uint32_t)(e >> 32);
		List l;
		l.at(findShard(shards, ns, u), u);
		l.base = bytes + (uint32_t)e;
		l.end = l.base + (uint32_t)(en.x >> 48);
		for (uint32_t k = 0; k < l.nb; k++) expandBlock(l, k, visited, parent, level, depth, out, outCount);
	}
}

// td_long runs expandLong for level j after td_expand. The counts are read on the device,
// so the host need not wait between the two launches. td_long_staged runs
// expandLongStaged instead, for a graph whose lists can pass two blocks.
extern "C" __global__ void td_long(const Shard *shards, int ns, const uint32_t *longList, const uint32_t *longAt,
                                   uint32_t *visited, uint32_t *parent, uint32_t *level, uint32_t depth, uint32_t *out,
                                   unsigned long long *rec, uint32_t j) {
	expandLong(shards, ns, longList, longAt, visited, parent, level, depth, out, rec + (size_t)j * REC_WORDS);
}

extern "C" __global__ void __launch_bounds__(256) td_long_staged(const Shard *shards, int ns, const uint32_t *longList,
                                                               const uint32_t *longAt, uint32_t *visited, uint32_t *parent,
                                                               uint32_t *level, uint32_t depth, uint32_t *out,
                                                               unsigned long long *rec, uint32_t j) {
	expandLongStaged(shards, ns, longList, longAt, visited, parent, level, depth, out, rec + (size_t)j * REC_WORDS);
}

// td_scout runs scoutQueue for level j after its expansion.
extern "C" __global__ void td_scout(const Shard *shards, int ns, const uint32_t *q, unsigned long long *rec, uint32_t j) {
	scoutQueue(shards, ns, q, rec + (size_t)j * REC_WORDS);
}

// gridSync is a barrier for all threads of a cooperative launch (every block resident):
// bar[0] counts the blocks arrived, bar[1] is the barrier's generation, which the last
// block to arrive advances after resetting the count. The fences order each block's
// writes before its arrival and its reads after the release, so what any block wrote
// before the barrier is seen by every block after it. bar starts at {0, any}.
__device__ __forceinline__ void gridSync(uint32_t *bar) {
	__syncthreads();
	if (threadIdx.x == 0) {
		volatile uint32_t *gen = bar + 1;
		uint32_t g = *gen;
		__threadfence();
		if (atomicAdd(bar, 1) == gridDim.x - 1) {
			atomicExch(bar, 0);
			__threadfence();
			atomicAdd(bar + 1, 1);
		} else {
			while (*gen == g) {
			}
		}
		__threadfence();
	}
	__syncthreads();
}

// td_levels runs up to batch top-down levels in one cooperative launch, the grid waiting
// at a barrier (gridSync) where td_expand and td_long would end: a level costs a barrier
// or two instead of three launches, what decides a high-diameter graph's time (thousands
// of small levels, each a chain of dependent memory reads). Level j reads queue qa when j
// is even, qb when odd, and writes the other. With pinned adjacency the expansion runs over
// the nr vertex ranges [ranges[2k], ranges[2k+1]) one after another, a barrier between
// two, as td_expand's launches do; a queue of at most SMALL_QUEUE vertices is expanded in
// one pass. A level whose queue exceeds qmax does not run here (the host runs it with
// td_expand's launches, which fill the device where td_levels' registers allow fewer
// threads).
//
// The scout pass (and its barrier) runs only when the rule needs it: when the emitted
// count times maxDeg (a bound on any out-degree) is at most the unchecked edges over
// alpha, the next level is top-down whatever the exact sum, and that sum is the next
// level's examined edges, which its expansion adds up anyway; the unchecked edges are
// settled then. The batch's last level, and one whose successor would not run here, get
// the exact scout the host reads, and so does a queue of gmin vertices or more after a
// level of at least gdeg out-neighbours a vertex: gatherStop may leave its level to the
// host (a grid's levels of 200K vertices of degree 4 skip the scout pass). Every block
// keeps the same state from the same records
// read after a barrier, so all agree on the level that does not run and return there
// together.
//
// td_levels_staged expands the long lists with expandLongStaged, for a graph whose lists
// can pass two blocks; on the others its shared buffer would only take L1 cache (urand26
// at 3 GiB: its td_levels levels 10% slower with it).
template <bool STAGED>
__device__ __forceinline__ void tdLevels(const Shard *shards, int ns, const uint32_t *ranges, uint32_t nr, uint32_t *qa,
                                         uint32_t *qb, uint32_t *visited, uint32_t *parent, uint32_t *level, uint32_t depth,
                                         uint32_t *longList, uint32_t *longAt, uint32_t longCap, unsigned long long *rec,
                                         uint32_t batch, uint32_t qn0, unsigned long long scout0, unsigned long long left0,
                                         uint32_t alpha, uint32_t qmax, uint32_t gmin, uint32_t gdeg,
                                         unsigned long long maxDeg, uint32_t *bar) {
	__shared__ uint32_t sQn;
	__shared__ bool sGo, sScout;
	// thread 0's view of the rule: the queue, the edges left unchecked before the level, and
	// the queue's out-degree sum when exact (else its bound passed the rule)
	uint32_t qn = qn0;
	long long left = (long long)left0, scout = (long long)scout0;
	bool exact = true;
	uint32_t *in = qa, *out = qb;
	for (uint32_t j = 0; j < batch; j++) {
		unsigned long long *me = rec + (size_t)j * REC_WORDS;
		if (threadIdx.x == 0) {
			bool go = qn > 0 && qn <= qmax && (!exact || !(scout > left / (long long)alpha || gatherStop(j, qn, scout, gmin, gdeg)));
			if (blockIdx.x == 0) {
				me[REC_T0] = globalTimer();
				if (go) {
					me[REC_RAN] = 1;
					if (exact) me[REC_LEFT] = (unsigned long long)(left - scout);
				}
			}
			sGo = go, sQn = qn;
		}
		__syncthreads();
		if (!sGo) return;
		uint32_t n = sQn, d = depth + j;
		uint32_t nk = n <= SMALL_QUEUE ? 1 : max(nr, 1u);
		for (uint32_t k = 0; k < nk; k++) {
			if (k > 0) gridSync(bar);
			uint32_t lo = nk == 1 ? 0 : ranges[2 * k], hi = nk == 1 ? 0xFFFFFFFFu : ranges[2 * k + 1];
			expandQueue(shards, ns, lo, hi, in, n, visited, parent, level, d, out, longList, longAt, longCap, me, EXPAND_ALL);
		}
		gridSync(bar);
		if (longCap > 0 && (uint32_t) * (volatile unsigned long long *)(me + REC_LONG) > 0) {
			if (STAGED) expandLongStaged(shards, ns, longList, longAt, visited, parent, level, d, out, me);
			else expandLong(shards, ns, longList, longAt, visited, parent, level, d, out, me);
			gridSync(bar);
		}
		if (threadIdx.x == 0) {
			const volatile unsigned long long *v = me;
			if (!exact) {
				scout = (long long)v[REC_EXAMINED];
				if (blockIdx.x == 0) {
					rec[(size_t)(j - 1) * REC_WORDS + REC_DEGREES] = (unsigned long long)scout;
					me[REC_LEFT] = (unsigned long long)(left - scout);
				}
			}
			left -= scout;
			qn = (uint32_t)v[REC_COUNT];
			long long room = left / (long long)alpha;
			// a next level the host may gather (as many vertices, this level's mean degree)
			// needs its exact scout for gatherStop
			bool gather = qn >= gmin && scout >= (long long)gdeg * n;
			exact = !(j + 1 < batch && qn <= qmax && !gather && room >= 0 &&
			          (unsigned long long)qn <= (unsigned long long)room / maxDeg);
			sScout = exact;
		}
		__syncthreads();
		if (sScout) {
			scoutQueue(shards, ns, out, me);
			gridSync(bar);
			if (threadIdx.x == 0) scout = (long long)*(volatile unsigned long long *)(me + REC_DEGREES);
		}
		uint32_t *t = in;
		in = out, out = t;
	}
}

extern "C" __global__ void __launch_bounds__(256) td_levels(const Shard *shards, int ns, const uint32_t *ranges, uint32_t nr,
                                                          uint32_t *qa, uint32_t *qb, uint32_t *visited, uint32_t *parent,
                                                          uint32_t *level, uint32_t depth, uint32_t *longList,
                                                          uint32_t *longAt, uint32_t longCap, unsigned long long *rec,
                                                          uint32_t batch, uint32_t qn0, unsigned long long scout0,
                                                          unsigned long long left0, uint32_t alpha, uint32_t qmax,
                                                          uint32_t gmin, uint32_t gdeg, unsigned long long maxDeg,
                                                          uint32_t *bar) {
	tdLevels<false>(shards, ns, ranges, nr, qa, qb, visited, parent, level, depth, longList, longAt, longCap, rec, batch, qn0,
	                scout0, left0, alpha, qmax, gmin, gdeg, maxDeg, bar);
}

extern "C" __global__ void __launch_bounds__(256) td_levels_staged(const Shard *shards, int ns, const uint32_t *ranges, uint32_t nr,
                                                                 uint32_t *qa, uint32_t *qb, uint32_t *visited, uint32_t *parent,
                                                                 uint32_t *level, uint32_t depth, uint32_t *longList,
                                                                 uint32_t *longAt, uint32_t longCap, unsigned long long *rec,
                                                                 uint32_t batch, uint32_t qn0, unsigned long long scout0,
                                                                 unsigned long long left0, uint32_t alpha, uint32_t qmax,
                                                                 uint32_t gmin, uint32_t gdeg, unsigned long long maxDeg,
                                                          uint32_t *bar) {
	tdLevels<true>(shards, ns, ranges, nr, qa, qb, visited, parent, level, depth, longList, longAt, longCap, rec, batch, qn0,
	               scout0, left0, alpha, qmax, gmin, gdeg, maxDeg, bar);
}

// td_mark writes the time a batch's launches ended into record j (the one after its last
// level), so each level's time is the difference of two records' REC_T0.
extern "C" __global__ void td_mark(unsigned long long *rec, uint32_t j) {
	if (blockIdx.x == 0 && threadIdx.x == 0) rec[(size_t)j * REC_WORDS + REC_T0] = globalTimer();
}

// bu_sweep checks every unvisited vertex of shard s (bottom-up) in vertex order: the first
// neighbour found in the frontier becomes its parent and the list is left at once. Found
// vertices go straight into next and the out queue. When first is not null it holds each
// vertex's first K neighbours in device memory (NONE-padded, packed at W bits an entry:
// graph.cuh's firstAt): most bottom-up checks end
// there (Beamer et al.: a parent is usually among the first neighbours), so only the
// remaining ones read the list, which may lie across the link.
//
// Only the shard's vertices [lo+i0, lo+i1) are swept: the host streams a pinned shard's
// adjacency through a device staging buffer one such sub-range at a time, passing
// s_adj = staging - (first byte copied), so the offsets arithmetic is unchanged. bytes, when
// not null, receives the list bytes decoded (block index words included), warp-aggregated:
// the host counts them as zero-copy traffic when s_adj is pinned host memory. Four blocks
// a multiprocessor (64 registers, no spill): the decoder's bounds checks would take 68
// and leave three.
extern "C" __global__ void __launch_bounds__(256, 4) bu_sweep(SHARD_PARAMS, const uint32_t *frontier, uint32_t *visited,
                                    uint32_t *next, uint32_t *parent, uint32_t *level,
                                    uint32_t depth, uint32_t *out, uint32_t *outCount,
                                    unsigned long long *checked, const unsigned long long *first, uint32_t K,
                                    uint32_t W, uint32_t i0, uint32_t i1, unsigned long long *bytes) {
	SHARD_LOCAL;
	uint32_t stride = gridDim.x * blockDim.x;
	uint32_t nc = 0;
	unsigned long long nb = 0;
	i1 = min(i1, s.n);
	for (uint32_t base = i0 + blockIdx.x * blockDim.x; base < i1; base += stride) {
		uint32_t i = base + threadIdx.x;
		uint32_t v = s.lo + i;
		bool found = false;
		uint32_t p = NONE;
		if (i < i1 && !testBit(visited, v)) {
			uint32_t skip = 0;
			if (first != NULL) {
				for (uint32_t j = 0; j < K; j++) {
					uint32_t w = firstAt(first, K, W, v, j);
					if (w == NONE) break;
					nc++;
					if (testBit(frontier, w)) {
						p = w;
						break;
					}
				}
				skip = K;
			}
			if (p == NONE) {
				uint32_t deg = shardDegree(&s, i);
				if (deg > skip) {
					List l;
					l.at(&s, v);
					uint32_t j = 0;
					for (uint32_t k = skip / OOC_BLOCK; k < l.nb && p == NONE; k++) {
						Decoder d;
						d.init(l, k);
						j = k * OOC_BLOCK;
						uint32_t w;
						while (d.next(&w)) {
							if (j++ < skip) continue;
							nc++;
							if (testBit(frontier, w)) {
								p = w;
								break;
							}
						}
						nb += (unsigned long long)d.used() + (k > 0 ? 4 : 0);
					}
				}
			}
			if (p != NONE) {
				parent[v] = p;
				level[v] = depth + 1;
				atomicOr(&visited[v >> 5], 1u << (v & 31));
				atomicOr(&next[v >> 5], 1u << (v & 31));
				found = true;
			}
		}
		warpAppend(out, outCount, found, v);
	}
	// one 64-bit atomic per warp for the examined-edges statistic
	for (int o = 16; o > 0; o >>= 1) nc += __shfl_down_sync(0xffffffffu, nc, o);
	if (laneId() == 0 && nc) atomicAdd(checked, (unsigned long long)nc);
	for (int o = 16; o > 0; o >>= 1) nb += __shfl_down_sync(0xffffffffu, nb, o);
	if (bytes != NULL && laneId() == 0 && nb) atomicAdd(bytes, nb);
}

// queue_bits sets the bit of every queued vertex (a top-down output becoming a bottom-up
// frontier); O(queue), not O(N).
extern "C" __global__ void queue_bits(const uint32_t *q, uint32_t qn, uint32_t *bits) {
	for (uint32_t t = blockIdx.x * blockDim.x + threadIdx.x; t < qn; t += gridDim.x * blockDim.x) {
		uint32_t v = q[t];
		atomicOr(&bits[v >> 5], 1u << (v & 31));
	}
}

// bu_sample estimates what a bottom-up level against frontier would examine (the host's
// direction rule, as the CPU's sampleBottomUp): each thread draws vertices at random
// (xorshift from seed and its index, up to 16 draws) until one is unvisited, and counts
// the entries bu_sweep would check for it: its first K neighbours from first (when not
// null; packed at W bits, graph.cuh's firstAt), then its in-list from entry K on, up to
// the first neighbour in the frontier. out[0] receives the entries, out[1] the vertices
// found.
extern "C" __global__ void bu_sample(const Shard *shards, int ns, const uint32_t *visited, const uint32_t *frontier,
                                     const unsigned long long *first, uint32_t K, uint32_t W, uint32_t n,
                                     unsigned long long seed, unsigned long long *out) {
	unsigned long long x = (seed + blockIdx.x * blockDim.x + threadIdx.x) * 0x9E3779B97F4A7C15ull | 1;
	uint32_t v = 0;
	bool have = false;
	for (int k = 0; k < 16 && !have && n > 0; k++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = (uint32_t)(((x >> 32) * (unsigned long long)n) >> 32);
		have = !testBit(visited, v);
	}
	unsigned long long nc = 0;
	if (have) {
		bool hit = false;
		uint32_t skip = 0;
		if (first != NULL) {
			for (uint32_t j = 0; j < K && !hit; j++) {
				uint32_t w = firstAt(first, K, W, v, j);
				if (w == NONE) break;
				nc++;
				hit = testBit(frontier, w);
			}
			skip = K;
		}
		const Shard *s = findShard(shards, ns, v);
		if (!hit && shardDegree(s, v - s->lo) > skip) {
			List l;
			l.at(s, v);
			for (uint32_t k = skip / OOC_BLOCK; k < l.nb && !hit; k++) {
				Decoder d;
				d.init(l, k);
				uint32_t j = k * OOC_BLOCK, w;
				while (d.next(&w)) {
					if (j++ < skip) continue;
					nc++;
					if (testBit(frontier, w)) {
						hit = true;
						break;
					}
				}
			}
		}
	}
	addWarp(out, nc);
	addWarp(out + 1, have ? 1 : 0);
}

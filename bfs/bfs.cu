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

__device__ __forceinline__ unsigned long long globalTimer() {
	unsigned long long t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

// expandBlock is the body of every top-down expansion: it decodes block k of l, claims each
// neighbour for l.v at level depth+1 and appends the won ones to out. It returns the list
// bytes it decoded (the block's index word included), for the link traffic count.
__device__ __forceinline__ uint32_t expandBlock(const List &l, uint32_t k, uint32_t *visited, uint32_t *parent,
                                                uint32_t *level, uint32_t depth, uint32_t *out, uint32_t *outCount) {
	BlockDecoder d;
	d.init(l, k);
	uint32_t w;
	while (d.next(&w)) {
		bool got = visit(visited, parent, level, w, l.v, depth);
		warpAppend(out, outCount, got, w);
	}
	return (uint32_t)d.used() + (k > 0 ? 4 : 0);
}

// queueLong queues u's list of nb blocks for td_long: one 64-bit atomic takes its entry
// (count, high half) and the index of its first block among the level's long-list blocks
// (low half), so the indexes rise with the entries. It returns false, queueing nothing,
// when the queue's cap entries are taken (the caller expands the list itself).
__device__ __forceinline__ bool queueLong(unsigned long long *word, uint32_t *longList, uint32_t *longAt, uint32_t cap,
                                          uint32_t u, uint32_t nb) {
	unsigned long long old = *(volatile unsigned long long *)word, seen;
	do {
		if ((uint32_t)(old >> 32) >= cap) return false;
		seen = old;
		old = atomicCAS(word, seen, seen + ((1ull << 32) | nb));
	} while (old != seen);
	uint32_t i = (uint32_t)(old >> 32);
	longList[i] = u;
	longAt[i] = (uint32_t)old;
	return true;
}

// tdLevel reads whether level j of a batch runs, and its input queue length: level 0 from
// the host's qn0, scout0 and left0 (the edges left unchecked), a later one from the record
// of the level before. A level runs when its queue is not empty and GAPBS's rule keeps it
// top-down: scout <= left / alpha (the host's rule, in the same integer arithmetic).
__device__ __forceinline__ bool tdLevel(const unsigned long long *rec, uint32_t j, uint32_t qn0,
                                        unsigned long long scout0, unsigned long long left0, uint32_t alpha,
                                        uint32_t *qn, long long *left) {
	long long scout = (long long)scout0;
	*qn = qn0;
	*left = (long long)left0;
	if (j > 0) {
		const volatile unsigned long long *p = rec + (size_t)(j - 1) * REC_WORDS;
		*qn = p[REC_RAN] ? (uint32_t)p[REC_COUNT] : 0;
		scout = (long long)p[REC_DEGREES];
		*left = (long long)p[REC_LEFT];
	}
	return *qn > 0 && !(scout > *left / (long long)alpha);
}

// td_expand expands level j's frontier (top-down) into out. A thread decodes a list of one
// or two blocks itself; a longer list is queued for td_long, which spreads the blocks of all
// of them over the whole grid, a block a thread (Merrill et al. 2012 gather the lists of a
// frontier cooperatively for the same reason: a few long lists must not leave most threads
// idle); when the queue's longCap entries are taken, the thread expands its list itself.
// Only frontier vertices in [lo, hi) are expanded: with pinned
// adjacency the host launches it once per range of shards whose pinned lists fit one
// window, so a large frontier's many short random reads stay inside it
// (docs/design-link-policy.md: beyond ~512 MB such reads are bound by address
// translation); a queue of at most SMALL_QUEUE vertices is expanded whole by the range
// launch marked first. The first launch also writes the level's record fields that are
// not counters.
extern "C" __global__ void td_expand(const Shard *shards, int ns, uint32_t lo, uint32_t hi, uint32_t first,
                                     const uint32_t *in, uint32_t *visited, uint32_t *parent, uint32_t *level,
                                     uint32_t depth, uint32_t *out, uint32_t *longList, uint32_t *longAt, uint32_t longCap,
                                     unsigned long long *rec, uint32_t j, uint32_t qn0, unsigned long long scout0,
                                     unsigned long long left0, uint32_t alpha) {
	__shared__ uint32_t sQn;
	__shared__ bool sGo;
	unsigned long long *me = rec + (size_t)j * REC_WORDS;
	if (threadIdx.x == 0) {
		uint32_t qn;
		long long left;
		sGo = tdLevel(rec, j, qn0, scout0, left0, alpha, &qn, &left);
		sQn = qn;
		if (first && blockIdx.x == 0) {
			me[REC_T0] = globalTimer();
			if (sGo) {
				long long scout = j > 0 ? (long long)rec[(size_t)(j - 1) * REC_WORDS + REC_DEGREES] : (long long)scout0;
				me[REC_LEFT] = (unsigned long long)(left - scout);
				me[REC_RAN] = 1;
			}
		}
	}
	__syncthreads();
	if (!sGo) return;
	uint32_t qn = sQn;
	if (qn <= SMALL_QUEUE) {
		if (!first) return;
		lo = 0, hi = 0xFFFFFFFFu;
	}
	uint32_t *outCount = (uint32_t *)(me + REC_COUNT);
	unsigned long long ex = 0, lb = 0;
	for (uint32_t t = blockIdx.x * blockDim.x + threadIdx.x; t < qn; t += gridDim.x * blockDim.x) {
		uint32_t u = in[t];
		if (u < lo || u >= hi) continue;
		const Shard *s = findShard(shards, ns, u);
		List l;
		l.at(s, u);
		ex += l.deg;
		if (l.nb > 2 && queueLong(me + REC_LONG, longList, longAt, longCap, u, l.nb)) continue;
		for (uint32_t k = 0; k < l.nb; k++) {
			uint32_t b = expandBlock(l, k, visited, parent, level, depth, out, outCount);
			if (s->pinned) lb += b;
		}
	}
	addWarp(me + REC_EXAMINED, ex);
	addWarp(me + REC_LINK, lb);
}

// td_long expands the long lists td_expand queued for level j, a block a thread: block b of
// them is block b - longAt[i] of the list longList[i] with the last longAt[i] <= b, so
// neighbouring threads decode neighbouring blocks of one list. The counts are read on the
// device, so the host need not wait between the two launches.
extern "C" __global__ void td_long(const Shard *shards, int ns, const uint32_t *longList, const uint32_t *longAt,
                                   uint32_t *visited, uint32_t *parent, uint32_t *level, uint32_t depth, uint32_t *out,
                                   unsigned long long *rec, uint32_t j) {
	unsigned long long *me = rec + (size_t)j * REC_WORDS;
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

// td_scout sums the out-degrees of the vertices level j emitted (Beamer's m_f of the next
// level: the edges it would check top-down) into its record, reading the queue's length
// there; a level that did not run emitted none.
extern "C" __global__ void td_scout(const Shard *shards, int ns, const uint32_t *q, unsigned long long *rec, uint32_t j) {
	unsigned long long *me = rec + (size_t)j * REC_WORDS;
	uint32_t qn = *(volatile uint32_t *)(me + REC_COUNT);
	unsigned long long acc = 0;
	for (uint32_t t = blockIdx.x * blockDim.x + threadIdx.x; t < qn; t += gridDim.x * blockDim.x) {
		uint32_t v = q[t];
		const Shard *s = findShard(shards, ns, v);
		acc += shardDegree(s, v - s->lo);
	}
	addWarp(me + REC_DEGREES, acc);
}

// td_mark writes the time a batch's launches ended into record j (the one after its last
// level), so each level's time is the difference of two records' REC_T0.
extern "C" __global__ void td_mark(unsigned long long *rec, uint32_t j) {
	if (blockIdx.x == 0 && threadIdx.x == 0) rec[(size_t)j * REC_WORDS + REC_T0] = globalTimer();
}

// bu_sweep checks every unvisited vertex of shard s (bottom-up) in vertex order: the first
// neighbour found in the frontier becomes its parent and the list is left at once. Found
// vertices go straight into next and the out queue. When first is not null it holds each
// vertex's first K neighbours in device memory (NONE-padded): most bottom-up checks end
// there (Beamer et al.: a parent is usually among the first neighbours), so only the
// remaining ones read the list, which may lie across the link.
//
// Only the shard's vertices [lo+i0, lo+i1) are swept: the host streams a pinned shard's
// adjacency through a device staging buffer one such sub-range at a time, passing
// s_adj = staging - (first byte copied), so the offsets arithmetic is unchanged. bytes, when
// not null, receives the list bytes decoded (block index words included), warp-aggregated:
// the host counts them as zero-copy traffic when s_adj is pinned host memory.
extern "C" __global__ void bu_sweep(SHARD_PARAMS, const uint32_t *frontier, uint32_t *visited,
                                    uint32_t *next, uint32_t *parent, uint32_t *level,
                                    uint32_t depth, uint32_t *out, uint32_t *outCount,
                                    unsigned long long *checked, const uint32_t *first, uint32_t K,
                                    uint32_t i0, uint32_t i1, unsigned long long *bytes) {
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
				const uint32_t *f = first + (size_t)v * K;
				for (uint32_t j = 0; j < K; j++) {
					uint32_t w = f[j];
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
						BlockDecoder d;
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

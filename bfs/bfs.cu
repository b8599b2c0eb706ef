// bfs.cu: direction-optimizing breadth-first search (Beamer, Asanović, Patterson, SC 2012)
// over delta-varint shards. One launch handles one shard, so the lists a launch reads stay
// within one shard's window (<= 512 MiB by default), the size below which random zero-copy
// reads keep the link full (docs/design-link-policy.md).
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

#define HUGE_PARTS 32 // CTAs sharing one huge list

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


// td_expand expands the frontier (top-down). A thread decodes a list of one or two blocks
// itself; longer lists are shared by the warp, one block per lane (the block index lets
// each lane start its block directly: Merrill et al. 2012's warp-level gathering); lists
// of more than hugeBlocks blocks are queued for td_huge (CTA-level gathering). Only
// frontier vertices in [lo, hi) are expanded: with pinned adjacency the host runs one
// launch per shard, so a large frontier's many short random reads stay inside one shard's
// window (docs/design-link-policy.md: beyond ~512 MB such reads are bound by address translation).
// linkBytes receives the list bytes decoded from pinned shards.
extern "C" __global__ void td_expand(const Shard *shards, int ns, uint32_t lo, uint32_t hi,
                                     const uint32_t *in, uint32_t qn,
                                     uint32_t *visited, uint32_t *parent, uint32_t *level,
                                     uint32_t depth, uint32_t *out, uint32_t *outCount,
                                     uint32_t *huge, uint32_t *hugeCount, uint32_t hugeBlocks,
                                     unsigned long long *examined, unsigned long long *linkBytes) {
	uint32_t stride = gridDim.x * blockDim.x;
	unsigned long long ex = 0, lb = 0;
	for (uint32_t base = blockIdx.x * blockDim.x; base < qn; base += stride) {
		uint32_t t = base + threadIdx.x;
		uint32_t u = t < qn ? in[t] : 0;
		bool mine = t < qn && u >= lo && u < hi;
		List l;
		l.nb = 0;
		const Shard *s = NULL;
		if (mine) {
			s = findShard(shards, ns, u);
			l.at(s, u);
			ex += l.deg;
		}
		if (mine && l.nb > hugeBlocks) {
			huge[atomicAdd(hugeCount, 1)] = u;
		} else if (mine && l.nb <= 2) {
			for (uint32_t k = 0; k < l.nb; k++) {
				uint32_t b = expandBlock(l, k, visited, parent, level, depth, out, outCount);
				if (s->pinned) lb += b;
			}
		}
		__syncwarp();
		unsigned coop = __ballot_sync(0xffffffffu, mine && l.nb > 2 && l.nb <= hugeBlocks);
		while (coop) {
			int src = __ffs(coop) - 1;
			coop &= coop - 1;
			uint32_t cu = __shfl_sync(0xffffffffu, u, src);
			const Shard *cs = findShard(shards, ns, cu);
			List cl;
			cl.at(cs, cu);
			for (uint32_t k = laneId(); k < cl.nb; k += 32) {
				uint32_t b = expandBlock(cl, k, visited, parent, level, depth, out, outCount);
				if (cs->pinned) lb += b;
			}
			__syncwarp();
		}
	}
	addWarp(examined, ex);
	addWarp(linkBytes, lb);
}

// td_huge expands the huge lists: HUGE_PARTS CTAs share each list, a thread per block.
// The count is read on the device, so the host need not wait between the two launches.
extern "C" __global__ void td_huge(const Shard *shards, int ns, const uint32_t *huge, const uint32_t *hugeCount,
                                   uint32_t *visited, uint32_t *parent, uint32_t *level,
                                   uint32_t depth, uint32_t *out, uint32_t *outCount,
                                   unsigned long long *linkBytes) {
	uint32_t items = *hugeCount * HUGE_PARTS;
	unsigned long long lb = 0;
	for (uint32_t t = blockIdx.x; t < items; t += gridDim.x) {
		uint32_t u = huge[t / HUGE_PARTS];
		uint32_t part = t % HUGE_PARTS;
		const Shard *s = findShard(shards, ns, u);
		List l;
		l.at(s, u);
		for (uint32_t k = part * blockDim.x + threadIdx.x; k < l.nb; k += HUGE_PARTS * blockDim.x) {
			uint32_t b = expandBlock(l, k, visited, parent, level, depth, out, outCount);
			if (s->pinned) lb += b;
		}
	}
	addWarp(linkBytes, lb);
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

// queue_degrees sums the degrees of the queued vertices (Beamer's m_f, the edges a top-down
// step from this queue would check).
extern "C" __global__ void queue_degrees(const Shard *shards, int ns, const uint32_t *q, uint32_t qn,
                                         unsigned long long *sum) {
	unsigned long long acc = 0;
	for (uint32_t t = blockIdx.x * blockDim.x + threadIdx.x; t < qn; t += gridDim.x * blockDim.x) {
		uint32_t v = q[t];
		const Shard *s = findShard(shards, ns, v);
		acc += shardDegree(s, v - s->lo);
	}
	for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
	if (laneId() == 0 && acc) atomicAdd(sum, acc);
}

// pagerank.cu: PageRank pulled over in-lists (package pagerank's model, GAPBS's PageRank kernel), one
// launch per shard or per streamed chunk of a shard, so the lists a launch reads lie in one
// window: device memory, a staging buffer the host filled by an asynchronous copy, or
// pinned host memory read zero-copy.
//
// State: score, the contributions of the previous iteration (contrib) and of this one
// (next), and every vertex's out-degree. Each vertex's incoming sum is added in double,
// its score rounded once to float, as the CPU version does; the L1 change is added in
// double and reduced per warp.
#include "graph.cuh" // store/graph.cuh (nvcc -I store)

#define DAMPING 0.85

// share is what a vertex of score sc and out-degree d gives each out-neighbour (0 for no
// out-edges: that mass leaves the system, as in GAPBS).
__device__ __forceinline__ float share(float sc, uint32_t d) { return d ? sc / (float)d : 0.0f; }

// pr_init sets, for the vertices of out shard s, the out-degree, the initial score (the
// float whose bits are init_bits) and the first contributions.
extern "C" __global__ void pr_init(SHARD_PARAMS, float *score, float *contrib, uint32_t *outdeg, uint32_t init_bits) {
	SHARD_LOCAL;
	float init = __uint_as_float(init_bits);
	for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < s.n; i += gridDim.x * blockDim.x) {
		uint32_t v = s.lo + i, d = shardDegree(&s, i);
		outdeg[v] = d;
		score[v] = init;
		contrib[v] = share(init, d);
	}
}

#define BATCH 8 // neighbours whose contributions a thread loads together

// sumBlock adds the contributions of the neighbours in block k of l to *sum, and returns
// the list bytes it decoded (the block's index word included), for the link count. The
// neighbours go BATCH at a time, their loads issued together, so a thread waits for
// memory once a batch rather than once a neighbour; they are added in list order.
__device__ __forceinline__ uint32_t sumBlock(const List &l, uint32_t k, const float *contrib, double *sum) {
	BlockDecoder d;
	d.init(l, k);
	double acc = 0;
	for (;;) {
		uint32_t u[BATCH];
		int c = 0;
#pragma unroll
		for (int j = 0; j < BATCH; j++)
			if (d.next(&u[j])) c = j + 1;
		float x[BATCH];
#pragma unroll
		for (int j = 0; j < BATCH; j++) x[j] = j < c ? __ldg(&contrib[u[j]]) : 0.0f;
#pragma unroll
		for (int j = 0; j < BATCH; j++) acc += (double)x[j];
		if (c < BATCH) break;
	}
	*sum += acc;
	return (uint32_t)d.used() + (k > 0 ? 4 : 0);
}

__device__ __forceinline__ double warpSum(double x) {
	for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
	return x;
}

#define HUB_BLOCKS 64 // lists of more blocks are left to pr_hub
#define HUB_PARTS 256 // the most warps sharing one such list

// finish rounds v's incoming sum into its score and its next contribution, and returns the
// change of its score.
__device__ __forceinline__ double finish(uint32_t v, double sum, double base, float *score, float *next,
                                         const uint32_t *outdeg) {
	float sc = (float)(base + DAMPING * sum);
	double ch = fabs((double)sc - (double)score[v]);
	score[v] = sc;
	next[v] = share(sc, outdeg[v]);
	return ch;
}

#define PULL_BLOCK 256 // the most threads a block of pr_pull may have

// pr_pull computes the new scores of the vertices [lo+i0, lo+i1) of in shard s. A warp
// lays the lists of its 32 vertices end to end and its lanes take their blocks in turn,
// so the lanes stay busy whatever the lengths; each pass adds its blocks' sums per list
// (a segmented sum across the lanes, whose lists are in lane order) into the list's
// slot in shared memory. Lists of more than HUB_BLOCKS blocks are queued in hubs (their
// block counts in hubNb, their sums zeroed in hubSum) for pr_hub and pr_hub_finish, which
// the host launches next. base_bits holds (1-d)/n as a double. change receives the L1
// change (double), bytes (when not null) the list bytes decoded.
// pr_pull fits 80 registers, so that 3 blocks of PULL_BLOCK threads share a multiprocessor.
extern "C" __global__ void __launch_bounds__(PULL_BLOCK, 3)
pr_pull(SHARD_PARAMS, const float *contrib, float *score, float *next,
        const uint32_t *outdeg, unsigned long long base_bits, uint32_t i0, uint32_t i1,
        double *change, unsigned long long *bytes, uint32_t *hubs, uint32_t *hubNb,
        uint32_t *hubCount, double *hubSum) {
	SHARD_LOCAL;
	__shared__ double sums[PULL_BLOCK];
	double base = __longlong_as_double((long long)base_bits);
	uint32_t stride = gridDim.x * blockDim.x, lane = laneId(), warp0 = threadIdx.x & ~31u;
	unsigned long long nb = 0;
	double ch = 0;
	i1 = min(i1, s.n);
	for (uint32_t b0 = i0 + blockIdx.x * blockDim.x; b0 < i1; b0 += stride) {
		uint32_t i = b0 + threadIdx.x;
		bool mine = i < i1;
		uint32_t v = s.lo + i, work = 0;
		List l;
		l.base = l.end = NULL;
		l.v = v;
		l.nb = 0;
		l.deg = 0;
		if (mine) {
			l.at(&s, v);
			work = l.nb;
			if (l.nb > HUB_BLOCKS) {
				uint32_t h = atomicAdd(hubCount, 1u);
				hubs[h] = v;
				hubNb[h] = l.nb;
				hubSum[h] = 0;
				atomicMax(hubCount + 1, l.nb);
				mine = false;
				work = 0;
			}
		}
		sums[threadIdx.x] = 0;
		uint32_t incl = warpScan(work); // blocks of the lanes up to this one
		uint32_t total = __shfl_sync(0xffffffffu, incl, 31);
		__syncwarp();
		for (uint32_t j0 = 0; j0 < total; j0 += 32) {
			uint32_t j = j0 + lane;
			uint32_t q = warpOwner(incl, j); // the lane whose list holds block j
			List cl = shflList(l, q);
			uint32_t first = __shfl_sync(0xffffffffu, incl - work, q);
			double part = 0;
			uint32_t key = 32; // lanes past the last block form no list's segment
			if (j < total) {
				nb += sumBlock(cl, j - first, contrib, &part);
				key = q;
			}
			for (int o = 1; o < 32; o <<= 1) {
				double y = __shfl_up_sync(0xffffffffu, part, o);
				uint32_t ky = __shfl_up_sync(0xffffffffu, key, o);
				if ((int)lane >= o && ky == key) part += y;
			}
			uint32_t after = __shfl_down_sync(0xffffffffu, key, 1);
			if (key < 32 && (lane == 31 || after != key)) sums[warp0 + key] += part;
			__syncwarp();
		}
		if (mine) ch += finish(v, sums[threadIdx.x], base, score, next, outdeg);
		__syncwarp();
	}
	ch = warpSum(ch);
	if (laneId() == 0 && ch != 0) atomicAdd(change, ch);
	addWarp(bytes, nb);
}

// pr_hub sums the lists pr_pull queued in hubs (of shard s, as pr_pull read it; hubCount[0]
// of them, hubNb[h] blocks each, at most hubCount[1]): each list is cut into parts, part p
// holding the blocks k with k/32 = p modulo the number of parts (enough for the longest
// list, at most HUB_PARTS), and a warp takes a part, a lane a block, and adds the part's
// sum into hubSum. The parts go in order of p across the lists, so the warps spread over
// every list at once. The counts are read on the device, so the host need not wait.
extern "C" __global__ void pr_hub(SHARD_PARAMS, const float *contrib, const uint32_t *hubs, const uint32_t *hubNb,
                                  const uint32_t *hubCount, double *hubSum, unsigned long long *bytes) {
	SHARD_LOCAL;
	uint32_t nh = hubCount[0];
	if (nh == 0) return;
	uint32_t parts = min((uint32_t)HUB_PARTS, (hubCount[1] + 31) / 32);
	uint64_t items = (uint64_t)nh * parts, warps = gridDim.x * (blockDim.x / 32);
	unsigned long long nb = 0;
	for (uint64_t t = (blockIdx.x * blockDim.x + threadIdx.x) / 32; t < items; t += warps) {
		uint32_t h = (uint32_t)(t % nh), p = (uint32_t)(t / nh);
		if (p * 32 >= hubNb[h]) continue; // the list has too few blocks for this part
		List l;
		l.at(&s, hubs[h]);
		double sum = 0;
		for (uint32_t k = p * 32 + laneId(); k < l.nb; k += parts * 32) nb += sumBlock(l, k, contrib, &sum);
		sum = warpSum(sum);
		if (laneId() == 0) atomicAdd(&hubSum[h], sum);
	}
	addWarp(bytes, nb);
}

// pr_hub_finish turns the queued lists' sums into scores and contributions, adds their
// change, and empties the queue for the next launch of pr_pull. It runs as one thread
// block.
extern "C" __global__ void pr_hub_finish(float *score, float *next, const uint32_t *outdeg, unsigned long long base_bits,
                                         const uint32_t *hubs, uint32_t *hubCount, const double *hubSum,
                                         double *change) {
	double base = __longlong_as_double((long long)base_bits);
	uint32_t count = *hubCount;
	double ch = 0;
	for (uint32_t b0 = 0; b0 < count; b0 += blockDim.x) {
		uint32_t i = b0 + threadIdx.x;
		if (i < count) ch += finish(hubs[i], hubSum[i], base, score, next, outdeg);
	}
	ch = warpSum(ch);
	if (laneId() == 0 && ch != 0) atomicAdd(change, ch);
	__syncthreads();
	if (threadIdx.x == 0) hubCount[0] = hubCount[1] = 0;
}

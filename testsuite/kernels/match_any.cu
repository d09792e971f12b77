// __match_any_sync and __match_all_sync (sm_70+): for each lane, the mask of
// lanes in its warp holding the same key; the leader (lowest lane) of each
// group adds the group size to count[key] (keys in [0, nkeys)).  All calls
// use the full mask, so n must be a multiple of 32.
extern "C" __global__ void match_any(unsigned *peers, int *count, int *all_same,
                                     const int *keys, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int key = keys[i];
    unsigned m = __match_any_sync(0xffffffffu, key);
    int pred;
    __match_all_sync(0xffffffffu, key, &pred);
    peers[i] = m;
    all_same[i] = pred;
    int lane = threadIdx.x & 31;
    if (lane == __ffs(m) - 1)
        atomicAdd(&count[key], __popc(m));
}

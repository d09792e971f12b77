// corpus-archs: sm_80 sm_86 sm_89 sm_90
// Warp-wide integer reductions in hardware (redux.sync, sm_80+):
// __reduce_add_sync, __reduce_min_sync, __reduce_max_sync, __reduce_or_sync.
// Each lane writes its warp's results; n must be a multiple of 32.
extern "C" __global__ void reduce_add_sync(int *sum, unsigned *mn, unsigned *mx, unsigned *orv,
                                           const unsigned *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned v = in[i];
    sum[i] = (int)__reduce_add_sync(0xffffffffu, v);
    mn[i] = __reduce_min_sync(0xffffffffu, v);
    mx[i] = __reduce_max_sync(0xffffffffu, v);
    orv[i] = __reduce_or_sync(0xffffffffu, v);
}

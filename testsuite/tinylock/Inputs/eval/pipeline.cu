// corpus-archs: sm_80
// Producer/consumer across the warps of a CTA, ordered by __syncthreads.
// Each CTA handles one 32-element chunk c = blockIdx.x (in, in2, out have
// gridDim.x * 32 ints, out2 too where used).
//   pipe_p2p            warp 0 writes buf[l] = 3 * in[c*32 + l] + 1; barrier;
//                       warp 1 reads out[c*32 + l] = buf[l] + l.  The barrier
//                       orders exactly one producer -> one consumer (affine,
//                       distance 32): the barrier -> channel rewrite target.
//   pipe_loop           the same over `steps` rounds (in has steps*gridDim*32
//                       ints): warp 0 produces round r, barrier, warp 1
//                       accumulates, barrier (the consumer's read -> the next
//                       round's write); out[c*32 + l] = sum_r (3 in[.] + 1) + l.
// Negative variants (must not become channels):
//   pipe_two_producers  warps 0 and 2 both produce (buf[l], buf[32 + l]);
//                       warp 1 consumes out = buf[l] + buf[32 + l].
//   pipe_cross          warp 0 produces buf[l]; warp 1 also writes aux[l] =
//                       in2[.] before the barrier, which warp 0 reads after
//                       it (an extra access crossing the barrier):
//                       out = buf[l] + l (warp 1), out2 = aux[l] * 2 (warp 0).
// Launch: --block=64 (pipe_p2p, pipe_loop, pipe_cross) or --block=96
// (pipe_two_producers); any grid.
extern "C" __global__ void pipe_p2p(int *out, const int *in)
{
    __shared__ int buf[32];
    int w = threadIdx.x / 32, l = threadIdx.x % 32, c = blockIdx.x;
    if (w == 0)
        buf[l] = 3 * in[c * 32 + l] + 1;
    __syncthreads();
    if (w == 1)
        out[c * 32 + l] = buf[l] + l;
}

extern "C" __global__ void pipe_loop(int *out, const int *in, int steps)
{
    __shared__ int buf[32];
    int w = threadIdx.x / 32, l = threadIdx.x % 32, c = blockIdx.x;
    int acc = 0;
    for (int r = 0; r < steps; r++) {
        if (w == 0)
            buf[l] = 3 * in[(r * gridDim.x + c) * 32 + l] + 1;
        __syncthreads();
        if (w == 1)
            acc += buf[l];
        __syncthreads();
    }
    if (w == 1)
        out[c * 32 + l] = acc + l;
}

extern "C" __global__ void pipe_two_producers(int *out, const int *in)
{
    __shared__ int buf[64];
    int w = threadIdx.x / 32, l = threadIdx.x % 32, c = blockIdx.x;
    if (w == 0)
        buf[l] = 3 * in[c * 32 + l] + 1;
    if (w == 2)
        buf[32 + l] = in[c * 32 + l] - l;
    __syncthreads();
    if (w == 1)
        out[c * 32 + l] = buf[l] + buf[32 + l];
}

extern "C" __global__ void pipe_cross(int *out, int *out2, const int *in, const int *in2)
{
    __shared__ int buf[32], aux[32];
    int w = threadIdx.x / 32, l = threadIdx.x % 32, c = blockIdx.x;
    if (w == 0)
        buf[l] = 3 * in[c * 32 + l] + 1;
    if (w == 1)
        aux[l] = in2[c * 32 + l];
    __syncthreads();
    if (w == 1)
        out[c * 32 + l] = buf[l] + l;
    if (w == 0)
        out2[c * 32 + l] = aux[l] * 2;
}

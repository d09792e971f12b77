// Kernels for the tinylock pass's barrier relaxation (issue 15 §2c), built
// with nvcc -arch=sm_80 -ptx -O3 (see regen.sh beside this file).  Blocks
// of 256 threads (__launch_bounds__ gives .maxntid 256,1,1: one row, so
// %tid.x names the thread).  Each kernel's comment says which barriers the
// pass may replace by point-to-point channels and why.

// relay: two phases, each a CTA barrier that only orders "thread t reads
// what thread t-32 (then t-64) wrote": both barriers become flag channels
// and one barrier (the flags' initialisation) remains.
// out[b*256+t] = (t >= 64 ? (t-64 >= 32 ? 3*in[t-96] : 0) + t-64 : 1)
extern "C" __global__ void __launch_bounds__(256) relay(int *out, const int *__restrict__ in)
{
    __shared__ int A[256];
    __shared__ int B[256];
    int t = threadIdx.x;
    int g = blockIdx.x * 256 + t;
    A[t] = in[g] * 3;
    __syncthreads();
    int v = t >= 32 ? A[t - 32] : 0;
    B[t] = v + t;
    __syncthreads();
    int w = t >= 64 ? B[t - 64] : 1;
    out[g] = w;
}

// stage: one barrier orders a load phase (all threads fill A, barrier)
// that is kept; the second barrier only orders A->B neighbour reads
// (distance 1: producer and consumer in the same warp) and becomes a
// channel whose flags are initialised before the kept barrier, so no
// barrier is added.
extern "C" __global__ void __launch_bounds__(256) stage(int *out, const int *__restrict__ in)
{
    __shared__ int A[256];
    __shared__ int B[256];
    int t = threadIdx.x;
    int g = blockIdx.x * 256 + t;
    A[t] = in[g];
    __syncthreads();
    B[t] = A[255 - t] + 1;
    __syncthreads();
    int w = t > 0 ? B[t - 1] : 0;
    out[g] = w * 2;
}

// twoprod (negative): even threads fill the lower half of A, odd threads
// the upper half (two stores, each guarded): the reader of A[t-32] has no
// single affine producer thread, the barrier stays.
extern "C" __global__ void __launch_bounds__(256) twoprod(int *out, const int *__restrict__ in)
{
    __shared__ int A[256];
    int t = threadIdx.x;
    int g = blockIdx.x * 256 + t;
    if ((t & 1) == 0)
        A[t >> 1] = in[g];
    else
        A[128 + (t >> 1)] = in[g] + 7;
    __syncthreads();
    int v = t >= 32 ? A[t - 32] : 0;
    out[g] = v;
}

// extra (negative): besides the neighbour dependence, thread 0 publishes
// a scalar that every thread reads after the barrier: an access crossing
// the barrier that no channel covers, the barrier stays.
extern "C" __global__ void __launch_bounds__(256) extra(int *out, const int *__restrict__ in)
{
    __shared__ int A[256];
    __shared__ int S;
    int t = threadIdx.x;
    int g = blockIdx.x * 256 + t;
    A[t] = in[g];
    if (t == 0)
        S = in[blockIdx.x * 256 + 255];
    __syncthreads();
    int v = t >= 32 ? A[t - 32] : 0;
    out[g] = v + S;
}

// pipe: warp 0 produces buf[l], warp 1 consumes it (l = %tid.x % 32, the
// eval pipeline's pipe_p2p with a read-only input).  No launch bounds:
// the block shape is unknown, so the barrier stays for blocks of several
// rows (@!one_d bar.sync) and the channel is used in one-row blocks.  The
// store's address is not injective in %tid.x; under the path conditions
// (warp 0 stores, warp 1 loads) Z3 proves that only thread %tid.x - 32
// writes what %tid.x reads.  out[c*32+l] = 3*in[c*32+l] + 1 + l.
extern "C" __global__ void pipe(int *out, const int *__restrict__ in)
{
    __shared__ int buf[32];
    int w = threadIdx.x / 32, l = threadIdx.x % 32, c = blockIdx.x;
    if (w == 0)
        buf[l] = 3 * in[c * 32 + l] + 1;
    __syncthreads();
    if (w == 1)
        out[c * 32 + l] = buf[l] + l;
}

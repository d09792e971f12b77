// Kernels for the tinylock pass's lock-used-as-flag rewrite (issue 15 §2b),
// built with nvcc -arch=sm_80 -ptx -O3.  The thesis's atom_lock channel
// (Listing 7.11): every thread holds the token of its element from the
// start; a consumer takes its producer's token with atomicCAS only to learn
// that the value is there, reads it, and restores the token.
// Launch: blockDim.x a multiple of 32, at most 256.

// token: thread t (t >= 32) reads what thread t-32 wrote.
// out[b*blockDim+t] = (t < 32 ? in[g] : 2*in[g-32] + 1) + ... see below:
// v(t) = in[g] for t < 32, v(t-32)*2 + 1 otherwise; out = v.
extern "C" __global__ void token(int *out, const int *__restrict__ in)
{
    __shared__ int A[256];
    __shared__ int mutex[256];
    int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    mutex[t] = 1;
    __syncthreads();
    int v;
    if (t < 32) {
        v = in[g];
    } else {
        while (atomicCAS(&mutex[t - 32], 0, 1) != 0)
            ;
        __threadfence_block();
        v = 2 * *(volatile int *)&A[t - 32] + 1;
        atomicExch(&mutex[t - 32], 0);
    }
    *(volatile int *)&A[t] = v;
    __threadfence_block();
    atomicExch(&mutex[t], 0);
    out[g] = v;
}

// token_write (negative): the consumer also writes the producer's element
// while it holds the token (a read-modify-write the lock protects): the
// exclusion matters, the lock stays.
extern "C" __global__ void token_write(int *out, const int *__restrict__ in)
{
    __shared__ int A[256];
    __shared__ int mutex[256];
    int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    mutex[t] = 1;
    __syncthreads();
    int v;
    if (t < 32) {
        v = in[g];
    } else {
        while (atomicCAS(&mutex[t - 32], 0, 1) != 0)
            ;
        __threadfence_block();
        v = *(volatile int *)&A[t - 32] + 1;
        *(volatile int *)&A[t - 32] = 0;
        atomicExch(&mutex[t - 32], 0);
    }
    *(volatile int *)&A[t] = v;
    __threadfence_block();
    atomicExch(&mutex[t], 0);
    out[g] = v;
}

// token_noinit (negative): the tokens are not taken before a barrier (the
// locks start free: a consumer may get in before its producer, it is an
// ordinary mutual exclusion): not a flag, the lock stays.
extern "C" __global__ void token_noinit(int *out, const int *__restrict__ in)
{
    __shared__ int A[256];
    __shared__ int mutex[256];
    int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    A[t] = in[g];
    mutex[t] = 0;
    __syncthreads();
    int v = 0;
    if (t >= 32) {
        while (atomicCAS(&mutex[t - 32], 0, 1) != 0)
            ;
        __threadfence_block();
        v = *(volatile int *)&A[t - 32];
        atomicExch(&mutex[t - 32], 0);
    }
    out[g] = v;
}

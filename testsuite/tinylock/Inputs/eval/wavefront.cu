// corpus-archs: sm_80
// A wavefront tile (Needleman-Wunsch as dataflow, seed 002 §3.7 Pattern B):
// thread (x = j, y = i) of one CTA owns cell (i, j) of
//     S(i, j) = max(S(i, j-1) - k, S(i-1, j-1) + (a[i] == b[j] ? 1 : -1), S(i-1, j) - k)
// with S(-1, j) = -(j + 1) k, S(i, -1) = -(i + 1) k, S(-1, -1) = 0.  A cell
// fires when the ready flags of its north and west neighbours are set (the
// north-west value is then ready by transitivity).  The source uses the
// critical-section shape of Listing 7.15 (test both flags, compute and
// publish inside the loop), but nvcc -O3 turns it into two spin loops with
// the computation after them, so west/east neighbours in one warp wait
// for each other across the loop's reconvergence point: it terminates
// under independent thread scheduling and deadlocks under pre-Volta
// lock-step (seed 002 §3.5, intra-warp pairs).  out[i * W + j] = S(i, j).
// Launch: one CTA, --block=W,H with W, H <= 32 (W * H <= 1024); a has H
// ints, b has W ints.
extern "C" __global__ void wavefront(int *out, const int *a, const int *b, int k)
{
    __shared__ int S[33 * 33];
    __shared__ volatile int ready[33 * 33];
    int j = threadIdx.x, i = threadIdx.y, W = blockDim.x, H = blockDim.y, w1 = W + 1;
    int tid = i * W + j;
    for (int c = tid; c < (W + 1) * (H + 1); c += W * H)
        ready[c] = 0;
    __syncthreads();
    if (i == 0) {
        S[j + 1] = -(j + 1) * k;
        if (j == 0)
            S[0] = 0;
    }
    if (j == 0)
        S[(i + 1) * w1] = -(i + 1) * k;
    __threadfence_block();
    if (i == 0) {
        ready[j + 1] = 1;
        if (j == 0)
            ready[0] = 1;
    }
    if (j == 0)
        ready[(i + 1) * w1] = 1;
    __syncthreads();
    int me = (i + 1) * w1 + (j + 1);
    int p = a[i] == b[j] ? 1 : -1;
    bool done = false;
    while (!done) {
        if (ready[me - 1] && ready[me - w1]) {
            __threadfence_block();
            int v = max(max(S[me - 1] - k, S[me - w1 - 1] + p), S[me - w1] - k);
            S[me] = v;
            __threadfence_block();
            ready[me] = 1;
            done = true;
        }
    }
    out[tid] = S[me];
}

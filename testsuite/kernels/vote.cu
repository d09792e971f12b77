// Warp vote functions: __ballot_sync, __all_sync, __any_sync, __activemask
// and __popc on the ballot.  For each element: flags[i] = popc(ballot(in>0))
// + 100*all(in>0) + 1000*any(in<0), over the 32 lanes of i's warp (lanes with
// i >= n count as in = 0).  blockDim.x must be a multiple of 32.
extern "C" __global__ void vote(int *flags, unsigned *ballots, const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    unsigned b = __ballot_sync(0xffffffffu, v > 0);
    int all = __all_sync(0xffffffffu, v > 0);
    int any = __any_sync(0xffffffffu, v < 0);
    if (i < n) {
        flags[i] = __popc(b) + 100 * all + 1000 * any;
        ballots[i] = b;
    }
}

// Vote inside a divergent region: the mask comes from __activemask().
// active[i] = number of lanes in i's warp with in[i] odd (for odd in[i]),
// 0 otherwise.
extern "C" __global__ void vote_divergent(int *active, const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int r = 0;
    if (in[i] & 1) {
        unsigned m = __activemask();
        r = __popc(__ballot_sync(m, 1));
    }
    active[i] = r;
}

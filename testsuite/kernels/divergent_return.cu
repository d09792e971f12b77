// Divergent control flow with several early returns and a data-dependent
// loop, so the CFG has multiple exits and non-uniform branches:
//   in < 0         -> out = -1
//   in == 0        -> out = 0
//   in odd         -> out = collatz steps of in to reach 1 (capped at 1000)
//   otherwise      -> out = in / 2
extern "C" __global__ void divergent_return(int *out, const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    if (v < 0) {
        out[i] = -1;
        return;
    }
    if (v == 0) {
        out[i] = 0;
        return;
    }
    if ((v & 1) == 0) {
        out[i] = v / 2;
        return;
    }
    int steps = 0;
    long long x = v;
    while (x != 1 && steps < 1000) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        ++steps;
    }
    out[i] = steps;
}

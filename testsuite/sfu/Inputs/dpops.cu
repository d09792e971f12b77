// dpops.cu -- the four double-precision operations the thesis approximates
// on the SFU (Table 6.2/6.5: x/y, 1/x, sqrt x, 1/sqrt x), one element per
// thread, each into its own output, so the output error per buffer is the
// per-operation error the thesis measured on 100,000 inputs (Table 6.5).
// Regenerate: bash testsuite/sfu/Inputs/regen.sh
extern "C" __global__ void dpops(double *q, double *r, double *s, double *rs, const double *x, const double *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    q[i] = x[i] / y[i];
    r[i] = 1.0 / x[i];
    s[i] = sqrt(x[i]);
    rs[i] = 1.0 / sqrt(x[i]);
}

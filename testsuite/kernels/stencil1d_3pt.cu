// 1-D 3-point stencil: out[i] = a*in[i-1] + b*in[i] + c*in[i+1] for interior
// points; boundary points are copied.  Neighbour loads at tid.x +/- 1 are the
// classic candidate for shuffle synthesis.
extern "C" __global__ void stencil1d_3pt(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    if (i == 0 || i == n - 1) {
        out[i] = in[i];
        return;
    }
    out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}

// A per-thread array indexed with runtime values, which forces it into
// .local memory (ld.local/st.local, __local_depot, %SP).  Each thread
// fills a 32-entry table with in[i]*k, then sums entries idx[i]+j (mod 32)
// for j < 8:  out[i] = in[i] * sum_{j<8} ((idx[i] + j) & 31).
extern "C" __global__ void local_array(float *out, const float *in, const int *idx, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float table[32];
    for (int k = 0; k < 32; ++k)
        table[k] = in[i] * (float)k;
    float acc = 0.0f;
    int base = idx[i];
    for (int j = 0; j < 8; ++j)
        acc += table[(base + j) & 31];
    out[i] = acc;
}

// A kernel with many parameters of mixed types, including a struct passed
// by value (16-byte aligned .param .align N .b8 array), a char, a short, a
// double, a 64-bit int and several pointers.
struct params {
    float scale;
    int offset;
    double bias;
    short flags;
    char tag;
    float weights[4];
};

extern "C" __global__ void many_params(float *out, const float *a, const float *b, const int *c,
                                       params p, int n, float alpha, double beta, char ch,
                                       short sh, long long big, unsigned mask, float *aux)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float w = p.weights[i & 3];
    float v = p.scale * a[i] + alpha * b[i] + (float)(c[i] + p.offset) * w;
    v += (float)(p.bias + beta) + (float)(p.flags + p.tag + ch + sh);
    v += (float)(big & 0xff) + (float)(mask & (unsigned)i);
    out[i] = v;
    if (i == 0)
        aux[0] = (float)p.tag;
}

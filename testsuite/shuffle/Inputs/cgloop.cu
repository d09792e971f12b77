// cgloop.cu - the shuffle gate's cost bench (issue 22): neighbour loads
// that bypass L1 (__ldcg: ld.global.cg), the destination in a loop whose
// trip count is a parameter (m) or a constant (4), the source before it.
// nvcc -ptx -arch=sm_80 cgloop.cu
extern "C" __global__ void cgloop(const float *a, float *out, int nx, int m)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int i = y * nx + x;
    float c = __ldcg(&a[i]);
    float s = 0;
    for (int k = 0; k < m; k++)
        s += __ldcg(&a[i + 1]) * (float)k + c;
    out[i] = s;
}

extern "C" __global__ void cgloop4(const double *a, double *out, int nx, int m)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int i = y * nx + x;
    double c = __ldcg(&a[i]);
    double s = 0;
#pragma unroll 1
    for (int k = 0; k < 4; k++)
        s += __ldcg(&a[i + 1]) * (double)(k + m) + c;
    out[i] = s;
}

extern "C" __global__ void cg1d(const double *a, double *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = __ldcg(&a[i]) * 0.5 + __ldcg(&a[i + 1]);
}

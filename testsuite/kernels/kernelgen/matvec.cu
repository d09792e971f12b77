// KernelGen "matvec" (C, 2-D data, one parallel loop), CUDA port for the
// shuffle-synthesis corpus.
//
// Shape (seed-003 §5.1; loop checked against the artifact's matvec.c):
//   for j (kernels loop independent, no gang/vector clause): y[j] = 0;
//     for i (loop seq): y[j] += A[i + nx*j] * x[i]
// The thread index is j, so A's addresses step by nx between lanes and x[i]
// is warp-uniform: nothing to shuffle.  Paper Table 2: 0 shuffles / 7 loads.
// Port: one thread per j (NVHPC's default vector length 128 assumed for the
// loop without clauses), j = threadIdx.x + 128*blockIdx.x, y[j] accumulated in
// a register (restrict lets nvcc do what NVHPC did).  nvcc unrolls the
// sequential loop itself, so the load count depends on its unroll factor.
#define A2(p, x, y) ((p)[(x) + nx * (y)])

extern "C" __global__ void __launch_bounds__(128)
matvec(int nx, int ny, const float *__restrict__ A, const float *__restrict__ x,
       float *__restrict__ y)
{
    const int j = blockIdx.x * 128 + threadIdx.x;
    if (j >= ny)
        return;
    float sum = 0.0f;
    for (int i = 0; i < nx; i++)
        sum += A2(A, i, j) * x[i];
    y[j] = sum;
}

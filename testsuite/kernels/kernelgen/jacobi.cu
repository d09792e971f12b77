// KernelGen "jacobi" (Fortran in the paper, 2-D), CUDA port for the
// shuffle-synthesis corpus.
//
// Shape (seed-003 §3.13, paper Listings 4-6):
//   w1(i,j) = c0*w0(i,j) + c1*(w0(i-1,j)+w0(i+1,j)+w0(i,j-1)+w0(i,j+1))
//                        + c2*(w0(i-1,j-1)+w0(i-1,j+1)+w0(i+1,j-1)+w0(i+1,j+1))
// with `kernels loop independent gang(65535)` over j and `loop independent
// vector(512)` over i.  Paper Table 2: 6 shuffles / 9 loads, mean |N| = 1.5.
// Fortran is column-major, so i (the first subscript) is unit stride: the
// port indexes w[i + nx*j].  j is blockIdx.x strided by gridDim.x, i is
// threadIdx.x + 512*blockIdx.y (the `%tid.x + %ctaid.y<<9` of Listing 5).
// Guessed: bounds 1..n-2 (Fortran 2..n-1 shifted to 0-based).
#define A2(p, x, y) ((p)[(x) + nx * (y)])

extern "C" __global__ void __launch_bounds__(512)
jacobi(int nx, int ny, float c0, float c1, float c2,
       const float *__restrict__ w0, float *__restrict__ w1)
{
    const int i = 1 + blockIdx.y * 512 + threadIdx.x;
    if (i >= nx - 1)
        return;
    for (int j = 1 + blockIdx.x; j < ny - 1; j += gridDim.x)
        A2(w1, i, j) = c0 * A2(w0, i, j) +
                       c1 * (A2(w0, i - 1, j) + A2(w0, i + 1, j) +
                             A2(w0, i, j - 1) + A2(w0, i, j + 1)) +
                       c2 * (A2(w0, i - 1, j - 1) + A2(w0, i - 1, j + 1) +
                             A2(w0, i + 1, j - 1) + A2(w0, i + 1, j + 1));
}

// 2-D thread blocks: matrix transpose through a padded shared tile
// (32x33 avoids bank conflicts), blockDim = (32, 8), each thread moves 4
// rows.  out is cols*rows, in is rows*cols, both row-major.
#define TDIM 32
#define ROWS_PER_PASS 8
extern "C" __global__ void transpose_block2d(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TDIM][TDIM + 1];
    int x = blockIdx.x * TDIM + threadIdx.x;
    int y = blockIdx.y * TDIM + threadIdx.y;
    for (int j = 0; j < TDIM; j += ROWS_PER_PASS)
        if (x < cols && y + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * TDIM + threadIdx.x;
    y = blockIdx.x * TDIM + threadIdx.y;
    for (int j = 0; j < TDIM; j += ROWS_PER_PASS)
        if (x < rows && y + j < cols)
            out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

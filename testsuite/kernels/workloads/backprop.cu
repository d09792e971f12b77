// backprop.cu — Rodinia 3.1 backprop (cuda/backprop/backprop_cuda_kernel.cu):
// bpnn_layerforward_CUDA and bpnn_adjust_weights_cuda.  Re-typed from the
// public source (Rodinia, University of Virginia, BSD-style licence: see
// its LICENSE).  Same access pattern: 16x16 blocks (8 warps, thesis Table
// 5.3), one block per 16 input rows of the (in+1) x (hid+1) weight matrix;
// layerforward stages weights and inputs in shared memory and reduces the
// columns by a tree; adjust_weights reads delta[], ly[], w[], oldw[].
// __log2f/__powf of the original loop bound are written as integer shifts
// (the same four steps for HEIGHT 16).  Launch: grid (1, in/16),
// block (16, 16), hid = 16.
// corpus-archs: sm_80

#define WIDTH 16
#define HEIGHT 16
#define ETA 0.3       // double, as in the original
#define MOMENTUM 0.3

extern "C" __global__ void bpnn_layerforward(const float *input, float *output_hidden,
                                             float *input_hidden, float *hidden_partial_sum,
                                             int in, int hid)
{
    int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_in = HEIGHT * by + ty + 1;
    __shared__ float input_node[HEIGHT];
    __shared__ float weight_matrix[HEIGHT][WIDTH];
    if (tx == 0)
        input_node[ty] = input[index_in];
    __syncthreads();
    weight_matrix[ty][tx] = input_hidden[index];
    __syncthreads();
    weight_matrix[ty][tx] = weight_matrix[ty][tx] * input_node[ty];
    __syncthreads();
    for (int i = 1; i <= 4; i++) {
        int power_two = 1 << i;
        if (ty % power_two == 0)
            weight_matrix[ty][tx] = weight_matrix[ty][tx] + weight_matrix[ty + power_two / 2][tx];
        __syncthreads();
    }
    input_hidden[index] = weight_matrix[ty][tx];
    __syncthreads();
    if (tx == 0)
        hidden_partial_sum[by * hid + ty] = weight_matrix[tx][ty];
}

extern "C" __global__ void bpnn_adjust_weights(const float *delta, int hid, const float *ly,
                                               int in, float *w, float *oldw)
{
    int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_y = HEIGHT * by + ty + 1;
    int index_x = tx + 1;
    w[index] += ((ETA * delta[index_x] * ly[index_y]) + (MOMENTUM * oldw[index]));
    oldw[index] = ((ETA * delta[index_x] * ly[index_y]) + (MOMENTUM * oldw[index]));
    __syncthreads();
    if (ty == 0 && by == 0) {
        w[index_x] += ((ETA * delta[index_x]) + (MOMENTUM * oldw[index_x]));
        oldw[index_x] = ((ETA * delta[index_x]) + (MOMENTUM * oldw[index_x]));
    }
}

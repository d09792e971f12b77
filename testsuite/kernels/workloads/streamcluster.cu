// streamcluster.cu — Rodinia 3.1 streamcluster
// (cuda/streamcluster/streamcluster_cuda.cu): kernel_compute_cost, the
// pgain kernel.  Re-typed from the public source (Rodinia, University of
// Virginia, BSD-style licence: see its LICENSE).  Same access pattern: a
// thread per point computes its distance to the candidate centre x from the
// feature-major coord[] (coord[i*num + tid], coalesced, and coord[i*num + x],
// uniform), reads its Point record (array of structs, 32-byte stride) and
// scatters into its own row of work_mem through center_table[].
// Launch: 512 threads per block (16 warps, thesis Table 5.3), 1-D grid.
// corpus-archs: sm_80

typedef struct {
    float weight;
    float *coord;
    long long assign;
    float cost;
} Point;

__device__ static float d_dist(int p1, int p2, int num, int dim, const float *coord)
{
    float retval = 0.0f;
    for (int i = 0; i < dim; i++) {
        float tmp = coord[i * num + p1] - coord[i * num + p2];
        retval += tmp * tmp;
    }
    return retval;
}

extern "C" __global__ void kernel_compute_cost(int num, int dim, long long x, const Point *p, int K,
                                               int stride, const float *coord, float *work_mem,
                                               const int *center_table, bool *switch_membership)
{
    const int bid = blockIdx.x + gridDim.x * blockIdx.y;
    const int tid = blockDim.x * bid + threadIdx.x;
    if (tid < num) {
        float *lower = &work_mem[tid * stride];
        float x_cost = d_dist(tid, x, num, dim, coord) * p[tid].weight;
        float current_cost = p[tid].cost;
        if (x_cost < current_cost) {
            switch_membership[tid] = 1;
            lower[K] += x_cost - current_cost;
        } else {
            int assign = p[tid].assign;
            lower[center_table[assign]] += current_cost - x_cost;
        }
    }
}

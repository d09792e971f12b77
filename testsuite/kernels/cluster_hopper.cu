// corpus-archs: sm_90 sm_90a
// Hopper thread block clusters (sm_90): a compile-time cluster of 2 blocks
// (__cluster_dims__), cluster.sync() (barrier.cluster), and distributed
// shared memory: each block reads its partner block's shared buffer through
// map_shared_rank (mapa / ld.shared::cluster).  blockDim.x = 128, gridDim.x
// even; out[i] = in[i] + partner's element at the same threadIdx.x.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void __cluster_dims__(2, 1, 1)
cluster_exchange(float *out, const float *in, int n)
{
    __shared__ float buf[128];
    cg::cluster_group cluster = cg::this_cluster();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    cluster.sync();
    unsigned partner = cluster.block_rank() ^ 1u;
    float *remote = cluster.map_shared_rank(buf, partner);
    float v = remote[threadIdx.x];
    cluster.sync();
    if (i < n)
        out[i] = buf[threadIdx.x] + v;
}

// Cluster geometry: rank[i] = block rank in cluster, size[i] = cluster size
// (launched with a runtime cluster dimension).
extern "C" __global__ void cluster_info(unsigned *rank, unsigned *size, int n)
{
    cg::cluster_group cluster = cg::this_cluster();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        rank[i] = cluster.block_rank();
        size[i] = cluster.num_blocks();
    }
}

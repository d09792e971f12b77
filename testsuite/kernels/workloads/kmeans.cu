// kmeans.cu — Rodinia 3.1 kmeans (cuda/kmeans/kmeans_cuda_kernel.cu):
// invert_mapping and kmeansPoint.  Re-typed from the public source (Rodinia,
// University of Virginia, BSD-style licence: see its LICENSE).  Same access
// pattern: invert_mapping transposes point-major features to feature-major;
// kmeansPoint gives each thread a point and walks every cluster and feature,
// reading features[point + j*npoints] (coalesced) and clusters[i*nf + j]
// (uniform).  The original fetches features through a texture and clusters
// from __constant__ memory; here both are plain global loads (the loads the
// bypass pass sees), and the block_deltas/block_clusters reductions, off by
// default in the original, are left out.  Launch: 256 threads per block
// (8 warps, thesis Table 5.3), 1-D grid.
// corpus-archs: sm_80

#include <cfloat>

extern "C" __global__ void invert_mapping(const float *input, float *output, int npoints, int nfeatures)
{
    int point_id = threadIdx.x + blockDim.x * blockIdx.x;
    if (point_id < npoints)
        for (int i = 0; i < nfeatures; i++)
            output[point_id + npoints * i] = input[point_id * nfeatures + i];
}

extern "C" __global__ void kmeansPoint(const float *features, int nfeatures, int npoints, int nclusters,
                                       int *membership, const float *clusters)
{
    unsigned block_id = gridDim.x * blockIdx.y + blockIdx.x;
    unsigned point_id = block_id * blockDim.x * blockDim.y + threadIdx.x;
    int index = -1;
    if (point_id < npoints) {
        float min_dist = FLT_MAX;
        for (int i = 0; i < nclusters; i++) {
            int base = i * nfeatures;
            float ans = 0.0f;
            for (int j = 0; j < nfeatures; j++) {
                float diff = features[point_id + j * npoints] - clusters[base + j];
                ans += diff * diff;
            }
            if (ans < min_dist) {
                min_dist = ans;
                index = i;
            }
        }
        membership[point_id] = index;
    }
}

// btree.cu — Rodinia 3.1 b+tree (cuda/b+tree/kernel/kernel_gpu_cuda.cu and
// kernel_gpu_cuda_2.cu): findK and findRangeK.  Re-typed from the public
// source (Rodinia, University of Virginia, BSD-style licence: see its
// LICENSE).  Same access pattern: one CTA per query, one thread per key
// slot of a knode (DEFAULT_ORDER 256: 8 warps, thesis Table 5.3); every
// level reads keys[thid], keys[thid+1] and indices[thid] of the current
// node, thread 0 moves the cursor.  The knode layout is the original's.
// Launch: grid = number of queries, block = 256.
// corpus-archs: sm_80

#define ORDER 256

struct knode {
    int location;
    int indices[ORDER + 1];
    int keys[ORDER + 1];
    bool is_leaf;
    int num_keys;
};
struct record { int value; };

extern "C" __global__ void findK(long long height, const knode *knodes, long long knodes_elem,
                                 const record *records, long long *currKnode, long long *offset,
                                 const int *keys, record *ans)
{
    int thid = threadIdx.x, bid = blockIdx.x;
    for (int i = 0; i < height; i++) {
        if (knodes[currKnode[bid]].keys[thid] <= keys[bid] &&
            knodes[currKnode[bid]].keys[thid + 1] > keys[bid]) {
            if (knodes[offset[bid]].indices[thid] < knodes_elem)
                offset[bid] = knodes[offset[bid]].indices[thid];
        }
        __syncthreads();
        if (thid == 0)
            currKnode[bid] = offset[bid];
        __syncthreads();
    }
    if (knodes[currKnode[bid]].keys[thid] == keys[bid])
        ans[bid].value = records[knodes[currKnode[bid]].indices[thid]].value;
}

extern "C" __global__ void findRangeK(long long height, const knode *knodes, long long knodes_elem,
                                      long long *currKnode, long long *offset, long long *lastKnode,
                                      long long *offset_2, const int *start, const int *end,
                                      int *recstart, int *reclen)
{
    int thid = threadIdx.x, bid = blockIdx.x;
    for (int i = 0; i < height; i++) {
        if (knodes[currKnode[bid]].keys[thid] <= start[bid] &&
            knodes[currKnode[bid]].keys[thid + 1] > start[bid]) {
            if (knodes[currKnode[bid]].indices[thid] < knodes_elem)
                offset[bid] = knodes[currKnode[bid]].indices[thid];
        }
        if (knodes[lastKnode[bid]].keys[thid] <= end[bid] &&
            knodes[lastKnode[bid]].keys[thid + 1] > end[bid]) {
            if (knodes[lastKnode[bid]].indices[thid] < knodes_elem)
                offset_2[bid] = knodes[lastKnode[bid]].indices[thid];
        }
        __syncthreads();
        if (thid == 0) {
            currKnode[bid] = offset[bid];
            lastKnode[bid] = offset_2[bid];
        }
        __syncthreads();
    }
    if (knodes[currKnode[bid]].keys[thid] == start[bid])
        recstart[bid] = knodes[currKnode[bid]].indices[thid];
    __syncthreads();
    if (knodes[lastKnode[bid]].keys[thid] == end[bid])
        reclen[bid] = knodes[lastKnode[bid]].indices[thid] - recstart[bid] + 1;
}

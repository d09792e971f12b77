// bfs.cu — Rodinia 3.1 bfs (cuda/bfs/kernel.cu, kernel2.cu): one level of a
// breadth-first search over a CSR graph.  Re-typed from the public source
// (Rodinia, University of Virginia, BSD-style licence: see its LICENSE);
// same memory access pattern: a thread per node, the frontier node reads
// its (starting, no_of_edges) pair, walks its edges and gathers visited[]
// and cost[] of the neighbours (the irregular loads that make bfs
// cache-congested in the thesis, Table 5.3: 16 warps per CTA).
// Launch: 512 threads per block (MAX_THREADS_PER_BLOCK), 1-D grid.
// corpus-archs: sm_80

struct Node { int starting; int no_of_edges; };

extern "C" __global__ void bfs_kernel(const Node *nodes, const int *edges, bool *mask,
                                      bool *updating, const bool *visited, int *cost, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n && mask[tid]) {
        mask[tid] = false;
        int first = nodes[tid].starting, end = first + nodes[tid].no_of_edges;
        for (int i = first; i < end; i++) {
            int id = edges[i];
            if (!visited[id]) {
                cost[id] = cost[tid] + 1;
                updating[id] = true;
            }
        }
    }
}

extern "C" __global__ void bfs_kernel2(bool *mask, bool *updating, bool *visited, bool *over, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n && updating[tid]) {
        mask[tid] = true;
        visited[tid] = true;
        *over = true;
        updating[tid] = false;
    }
}

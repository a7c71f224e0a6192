// __syncthreads() that not every thread of the block reaches.

// Threads past the data return before the barrier.
extern "C" __global__ void __launch_bounds__(64) exit_before_barrier(
    float *data) {
  __shared__ float tile[64];
  if (threadIdx.x >= 48)
    return;
  tile[threadIdx.x] = data[threadIdx.x];
  __syncthreads();
  data[threadIdx.x] = tile[47 - threadIdx.x];
}

// Each side of a branch has its own barrier.
extern "C" __global__ void __launch_bounds__(64) barrier_in_branch(
    float *data) {
  __shared__ float tile[64];
  tile[threadIdx.x] = data[threadIdx.x];
  if (threadIdx.x < 48)
    __syncthreads();
  else
    __syncthreads();
  data[threadIdx.x] = tile[63 - threadIdx.x];
}

// Half a warp returns before a shuffle that the other half waits in.
extern "C" __global__ void __launch_bounds__(32) shuffle_after_return(
    float *data) {
  if (threadIdx.x >= 16)
    return;
  data[threadIdx.x] = __shfl_xor_sync(0xffffffffu, data[threadIdx.x], 1);
}

//===- NcclBandwidth.cpp - An NCCL all-reduce, timed ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The GPU check's NCCL section (tools/kiln-gpu-check): each rank thread
// allocates its buffer on its device, and every call is timed from before
// the enqueue to the end of the wait, as a user of the Communicator sees it.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/NcclCommunicator.h"

#include "../../cuda/CudaDevice.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace kiln::rt {

StatusOr<NcclBandwidth> measureNcclAllReduce(const std::vector<int> &devices,
                                             size_t bytes, int iterations) {
  if (bytes == 0 || bytes % 4 || iterations < 1)
    return invalidArgument("measureNcclAllReduce: bytes must be a positive "
                           "multiple of 4 and iterations at least 1");
  auto group = openNcclGroup(devices);
  if (!group.isOk())
    return group.status();
  size_t ranks = devices.size();
  std::vector<std::vector<double>> millis(ranks);
  std::vector<Status> statuses(ranks);
  std::vector<std::thread> threads;
  for (size_t r = 0; r < ranks; ++r)
    threads.emplace_back([&, r] {
      auto device = cuda::CudaDevice::open(devices[r]);
      if (!device.isOk()) {
        statuses[r] = device.status();
        return;
      }
      cuda::CudaDevice &d = **device;
      cuda::CUdeviceptr buffer = 0;
      Status status = d.makeCurrent();
      if (status.isOk())
        status =
            d.check(d.driver().cuMemAlloc_v2(&buffer, bytes), "cuMemAlloc");
      if (status.isOk())
        status = d.check(d.driver().cuMemsetD8Async(buffer, 0, bytes, nullptr),
                         "cuMemsetD8Async");
      if (status.isOk())
        status = d.check(d.driver().cuCtxSynchronize(), "cuCtxSynchronize");
      Communicator &comm = *(*group)[r];
      auto *data = reinterpret_cast<void *>(buffer);
      for (int i = 0; status.isOk() && i <= iterations; ++i) {
        auto start = std::chrono::steady_clock::now();
        status =
            comm.allReduce(data, data, bytes / 4, DType::kF32, ReduceOp::kSum);
        std::chrono::duration<double, std::milli> took =
            std::chrono::steady_clock::now() - start;
        if (i > 0) // The first call warms NCCL's connections up.
          millis[r].push_back(took.count());
      }
      if (buffer)
        d.driver().cuMemFree_v2(buffer);
      statuses[r] = status;
    });
  for (std::thread &thread : threads)
    thread.join();
  for (size_t r = 0; r < ranks; ++r)
    if (!statuses[r].isOk())
      return statuses[r].withContext("rank " + std::to_string(r));
  std::vector<double> slowest(size_t(iterations), 0.0);
  for (size_t r = 0; r < ranks; ++r)
    for (int i = 0; i < iterations; ++i)
      slowest[size_t(i)] = std::max(slowest[size_t(i)], millis[r][size_t(i)]);
  std::nth_element(slowest.begin(), slowest.begin() + iterations / 2,
                   slowest.end());
  NcclBandwidth result;
  result.ranks = int(ranks);
  result.bytes = bytes;
  result.medianMs = slowest[size_t(iterations / 2)];
  result.algorithmGBps = double(bytes) / (result.medianMs * 1e6);
  result.busGBps =
      result.algorithmGBps * 2.0 * double(ranks - 1) / double(ranks);
  return result;
}

} // namespace kiln::rt

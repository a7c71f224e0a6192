//===- NcclCommunicator.h - Collectives between GPUs over NCCL --*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// NCCL ranks, one per CUDA device, behind the Communicator interface
// (Communicator.h) with one difference: buffers are device memory of the
// rank's device (CUdeviceptr values passed as pointers). NCCL is loaded
// with dlopen ($KILN_NCCL_LIBRARY, else libnccl.so.2; NCCL 2.18 or newer),
// so a build of Kiln without it still works.
//
// Every call is enqueued on the communicator's own stream and then polled
// until it completes, with NCCL's asynchronous error and the deadline
// checked on every poll: the waiting call is the watchdog. A call that
// misses its deadline, sees an asynchronous error or an abort aborts the
// NCCL communicator (ncclCommAbort), which is then broken for good.
// f16 and bf16 reduce in NCCL's own arithmetic (rounded at each step of
// its ring or tree), not accumulated in f32 as the in-process and MPI
// backends do; i16 and u16 do not reduce (NCCL has no such types).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_NCCLCOMMUNICATOR_H
#define KILN_RUNTIME_NCCLCOMMUNICATOR_H

#include "kiln/runtime/Communicator.h"

#include <memory>
#include <vector>

namespace kiln::rt {

/// One rank per process (or per thread): rank 0 of `bootstrap` makes the
/// NCCL id (ncclGetUniqueId), `bootstrap` broadcasts it (the MPI world
/// across hosts, or any communicator), and every rank joins with
/// ncclCommInitRank on CUDA device `device`. A collective over
/// `bootstrap`: every rank calls it. The result has bootstrap's rank and
/// size. kUnavailable without NCCL, a CUDA driver or the device.
StatusOr<std::unique_ptr<Communicator>>
openNcclCommunicator(Communicator &bootstrap, int device,
                     const CommunicatorOptions &options = {});

/// One process driving `devices` (ncclCommInitAll): element i is rank i
/// on CUDA device devices[i]; hand each to its own thread. abort() on one
/// reaches the others. kInvalidArgument for an empty or repeated list.
StatusOr<std::vector<std::unique_ptr<Communicator>>>
openNcclGroup(const std::vector<int> &devices,
              const CommunicatorOptions &options = {});

/// What measureNcclAllReduce found.
struct NcclBandwidth {
  int ranks = 0;
  size_t bytes = 0;         ///< Per rank.
  double medianMs = 0;      ///< Of the slowest rank, per call.
  double algorithmGBps = 0; ///< bytes / time.
  /// algorithm bandwidth x 2(n-1)/n: what each link carried, comparable
  /// across rank counts (nccl-tests' "busbw").
  double busGBps = 0;
};

/// Times an f32 sum all-reduce of `bytes` per rank over `devices` (one
/// thread and communicator each, ncclCommInitAll): one warm-up call, then
/// `iterations`; the median over calls of the slowest rank's time.
StatusOr<NcclBandwidth> measureNcclAllReduce(const std::vector<int> &devices,
                                             size_t bytes, int iterations);

/// The NCCL the process would use: "NCCL 2.28.5 (libnccl.so.2)", or why
/// there is none (the status).
StatusOr<std::string> ncclDescription();

} // namespace kiln::rt

#endif // KILN_RUNTIME_NCCLCOMMUNICATOR_H

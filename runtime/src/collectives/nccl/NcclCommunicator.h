//===- NcclCommunicator.h - Collectives between GPUs over NCCL --*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// See kiln/runtime/NcclCommunicator.h.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SRC_COLLECTIVES_NCCL_NCCLCOMMUNICATOR_H
#define KILN_RUNTIME_SRC_COLLECTIVES_NCCL_NCCLCOMMUNICATOR_H

#include "../../cuda/CudaDevice.h"
#include "../CollectiveCall.h"
#include "NcclLibrary.h"

#include <atomic>
#include <memory>
#include <vector>

namespace kiln::rt {

/// Set by abort() on any communicator of an in-process group (and of the
/// groups split from it); seen by every rank's next poll.
struct NcclAbortFlag {
  std::atomic<bool> raised{false};
};

class NcclCommunicator final : public Communicator {
public:
  /// Takes `comm`, made on `device` (its context is current), also when
  /// it fails (then `comm` is destroyed).
  static StatusOr<std::unique_ptr<NcclCommunicator>>
  create(const nccl::NcclLibrary &nccl,
         std::shared_ptr<cuda::CudaDevice> device, nccl::ncclComm_t comm,
         int rank, int size, std::shared_ptr<NcclAbortFlag> abortFlag,
         const CommunicatorOptions &options);
  ~NcclCommunicator() override;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  const CommunicatorOptions &options() const override { return options_; }
  const char *backendName() const override { return "nccl"; }

  Status allReduce(const void *send, void *recv, size_t count, DType dtype,
                   ReduceOp op) override;
  Status allGather(const void *send, void *recv, size_t countPerRank,
                   DType dtype) override;
  Status reduceScatter(const void *send, void *recv, size_t countPerRank,
                       DType dtype, ReduceOp op) override;
  Status broadcast(const void *send, void *recv, size_t count, DType dtype,
                   int root) override;
  Status allToAll(const void *send, void *recv, size_t countPerRank,
                  DType dtype) override;
  Status send(const void *buffer, size_t count, DType dtype, int peer) override;
  Status recv(void *buffer, size_t count, DType dtype, int peer) override;
  Status barrier() override;
  StatusOr<std::unique_ptr<Communicator>> split(int color, int key) override;
  void abort() override;

private:
  using Call = PendingCall;

  NcclCommunicator(const nccl::NcclLibrary &nccl,
                   std::shared_ptr<cuda::CudaDevice> device,
                   nccl::ncclComm_t comm, int rank, int size,
                   std::shared_ptr<NcclAbortFlag> abortFlag,
                   const CommunicatorOptions &options);

  /// Numbers, checks and (with fingerprints) agrees on a group call; makes
  /// the device current.
  Status begin(Call &call, CollectiveOp op, size_t count, DType dtype,
               uint32_t reduce, int root, const void *send, const void *recv,
               bool alwaysExchange = false);
  Status beginPointToPoint(Call &call, CollectiveOp op, size_t count,
                           DType dtype, int peer, const void *buffer);
  /// Every rank's `bytes` (at most a fingerprint's) at `mine` into `all`,
  /// rank r's at r * bytes, through the scratch memory.
  Status gatherSmall(const Call &call, const void *mine, size_t bytes,
                     void *all);
  /// The same fingerprint on every rank (collectives) or on `peer`.
  Status agree(const Call &call, int peer = -1);
  /// Polls the stream until the enqueued work is done, checking NCCL's
  /// asynchronous error, the abort flag and the deadline.
  Status wait(const Call &call);
  /// OK while the communicator works, else what broke it, for `call` (an
  /// abort of the group breaks it now).
  Status usable(const Call &call);
  /// An NCCL call's result: OK, or the communicator broken by it.
  Status enqueued(const Call &call, nccl::ncclResult_t result,
                  const char *function);
  /// A driver call's result, likewise.
  Status driverCall(const Call &call, cuda::CUresult result,
                    const char *function);
  /// Aborts the NCCL communicator (once) and keeps `why` for later calls.
  void breakWith(Status why);
  Status reduceType(const Call &call, DType dtype, nccl::ncclDataType_t &out);

  const nccl::NcclLibrary &nccl_;
  std::shared_ptr<cuda::CudaDevice> device_;
  nccl::ncclComm_t comm_;
  cuda::CUstream stream_ = nullptr;
  /// Device memory for fingerprints: one slot per rank, and one for a
  /// point-to-point peer's.
  cuda::CUdeviceptr scratch_ = 0;
  int rank_, size_;
  std::shared_ptr<NcclAbortFlag> abortFlag_;
  CommunicatorOptions options_;
  uint64_t sequence_ = 0;
  std::vector<uint64_t> sent_, received_;
  Status broken_;
};

} // namespace kiln::rt

#endif // KILN_RUNTIME_SRC_COLLECTIVES_NCCL_NCCLCOMMUNICATOR_H

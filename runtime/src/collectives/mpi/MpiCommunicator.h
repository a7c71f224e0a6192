//===- MpiCommunicator.h - Collectives over MPI ------------------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// MPI has no timeouts: every call is non-blocking (MPI_Iallreduce, ...)
// and polled against the deadline. A call that misses it leaves its
// request pending, so the communicator is then broken for good, and MPI
// is not finalised (a job whose rank exits so ends non-zero); abort()
// is MPI_Abort.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_COLLECTIVES_MPI_MPICOMMUNICATOR_H
#define KILN_RUNTIME_COLLECTIVES_MPI_MPICOMMUNICATOR_H

#include "../CollectiveCall.h"

#include <mpi.h>

#include <memory>
#include <vector>

namespace kiln::rt {

/// MPI itself: finalised with the last communicator, unless a call was
/// left pending.
struct MpiSession {
  bool initializedHere = false;
  bool pending = false;
  ~MpiSession();
};

class MpiCommunicator final : public Communicator {
public:
  /// Takes `comm` (freed on destruction unless it is MPI_COMM_WORLD).
  MpiCommunicator(std::shared_ptr<MpiSession> session, MPI_Comm comm,
                  const CommunicatorOptions &options);
  ~MpiCommunicator() override;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  const CommunicatorOptions &options() const override { return options_; }
  const char *backendName() const override { return "mpi"; }

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
  /// Numbers, checks and (with fingerprints) agrees on a group call.
  Status begin(Call &call, CollectiveOp op, size_t count, DType dtype,
               uint32_t reduce, int root, const void *send, const void *recv,
               bool alwaysExchange = false);
  /// The same for send and recv, with the peer.
  Status beginPointToPoint(Call &call, CollectiveOp op, size_t count,
                           DType dtype, int peer, const void *buffer);
  /// Polls `requests` until done, the deadline, or an error.
  Status wait(const Call &call, MPI_Request *requests, int count);
  /// An MPI error code as a Status for `call`.
  Status failed(const Call &call, const char *function, int code);

  std::shared_ptr<MpiSession> session_;
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  CommunicatorOptions options_;
  uint64_t sequence_ = 0;
  std::vector<uint64_t> sent_, received_;
  Status broken_; ///< Sticky once a call missed its deadline or failed.
};

} // namespace kiln::rt

#endif // KILN_RUNTIME_COLLECTIVES_MPI_MPICOMMUNICATOR_H

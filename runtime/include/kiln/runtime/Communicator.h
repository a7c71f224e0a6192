//===- Communicator.h - Collectives between the ranks of a group -*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A communicator joins `size()` ranks (threads of one process, or processes
// under mpirun) that call the same collectives in the same order. Every call
// is bounded by a deadline and returns a Status naming the collective, the
// rank and the call's sequence number; a peer that aborts or is late turns
// into kAborted or kDeadlineExceeded on the others, never a hang.
// Backends: InProcessGroup.h (rank threads) and the MPI plugin (below).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_COMMUNICATOR_H
#define KILN_RUNTIME_COMMUNICATOR_H

#include "kiln/runtime/DType.h"
#include "kiln/runtime/Status.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace kiln::rt {

/// How a reducing collective combines elements. The values are
/// exec::ReductionKind's (and Step::reduction's); 0 is "none".
enum class ReduceOp : uint32_t { kSum = 1, kMax = 2, kMin = 3, kProd = 4 };

/// "sum", "max", "min", "prod".
const char *reduceOpName(ReduceOp op);

/// What a call is; part of its fingerprint.
enum class CollectiveOp : uint32_t {
  kAllReduce = 1,
  kAllGather = 2,
  kReduceScatter = 3,
  kBroadcast = 4,
  kSend = 5,
  kRecv = 6,
  kAllToAll = 7,
  kBarrier = 8,
  kSplit = 9,
};

/// "allReduce", "allGather", ..., as messages spell them.
const char *collectiveOpName(CollectiveOp op);

/// What every rank of a call must agree on. With
/// CommunicatorOptions::checkFingerprints the ranks exchange these before
/// each call, so a divergent program is an error on every rank, not a hang.
struct CollectiveFingerprint {
  uint64_t sequence = 0; ///< Calls made on this communicator before.
  CollectiveOp op = CollectiveOp::kBarrier;
  uint64_t count = 0; ///< Elements (per rank for gather/scatter/all-to-all).
  DType dtype = DType::kU8;
  uint32_t reduce = 0; ///< A ReduceOp, or 0.
  int32_t root = -1;   ///< Broadcast root, send/recv peer; -1 otherwise.

  /// "allReduce #3 count 7 f32 sum" (and "root 1", "peer 2").
  std::string describe() const;
};

struct CommunicatorOptions {
  /// Longest a call may wait for its peers.
  std::chrono::milliseconds timeout{60000};
  /// Exchange a CollectiveFingerprint before each call and fail on a
  /// mismatch. The in-process backend always compares what it needs for
  /// memory safety (it costs nothing there); MPI pays one small all-gather
  /// (or a send/recv pair) per call.
  bool checkFingerprints = false;
};

/// A group of ranks. One thread at a time per communicator (each rank
/// thread owns its own); every rank calls the same collectives in the same
/// order. Buffers are host memory (device memory for NCCL:
/// NcclCommunicator.h); counts are elements of `dtype`.
///
/// In place, as NCCL allows it: allReduce and broadcast with send == recv,
/// allGather with send == recv + rank * countPerRank * size(dtype),
/// reduceScatter with recv == send + rank * countPerRank * size(dtype).
/// Any other overlap of send and recv is kInvalidArgument. Reductions:
/// f32, f64, f16 and bf16 (accumulated in f32, rounded once to nearest
/// even), i8..i64 and u8..u64 (integers wrap); i1 moves but does not
/// reduce. Every rank gets bitwise the same reduction result.
///
/// Errors: kDeadlineExceeded when a peer does not arrive within
/// options().timeout; kAborted once any rank of the group (or of a group
/// it was split from or into) called abort(); both are sticky: later calls
/// fail the same way at once.
class Communicator {
public:
  virtual ~Communicator();

  /// This rank, in [0, size()).
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual const CommunicatorOptions &options() const = 0;
  /// "in-process", "mpi" or "nccl".
  virtual const char *backendName() const = 0;

  virtual Status allReduce(const void *send, void *recv, size_t count,
                           DType dtype, ReduceOp op) = 0;
  /// recv[r * countPerRank ...] = rank r's send.
  virtual Status allGather(const void *send, void *recv, size_t countPerRank,
                           DType dtype) = 0;
  /// recv = block `rank()` (countPerRank elements) of the reduction of the
  /// size() * countPerRank elements of every send.
  virtual Status reduceScatter(const void *send, void *recv,
                               size_t countPerRank, DType dtype,
                               ReduceOp op) = 0;
  /// recv = `root`'s send (`send` is read on the root only).
  virtual Status broadcast(const void *send, void *recv, size_t count,
                           DType dtype, int root) = 0;
  /// recv block r = block rank() of rank r's send; never in place.
  virtual Status allToAll(const void *send, void *recv, size_t countPerRank,
                          DType dtype) = 0;
  /// Blocks until `peer` has received (or the deadline passes).
  virtual Status send(const void *buffer, size_t count, DType dtype,
                      int peer) = 0;
  virtual Status recv(void *buffer, size_t count, DType dtype, int peer) = 0;
  virtual Status barrier() = 0;

  /// A collective: ranks with the same `color` form a new communicator,
  /// ordered by (key, rank) as MPI_Comm_split. A negative color joins none
  /// (the value is then null). Expensive: make sub-communicators once and
  /// keep them. The result inherits options().
  virtual StatusOr<std::unique_ptr<Communicator>> split(int color, int key) = 0;

  /// Makes every blocked and later call on every rank of the group (and of
  /// groups split from it) return kAborted soon. Idempotent, not a
  /// collective, callable from any thread. On MPI it ends the whole job
  /// (MPI_Abort; exit code 7), since MPI cannot unblock a peer otherwise.
  virtual void abort() = 0;
};

/// The default path of the MPI plugin's shared library (a bare file name,
/// found the way dlopen searches: RUNPATH, LD_LIBRARY_PATH, ...).
inline constexpr const char *kMpiPluginName = "libkiln_collectives_mpi.so";

/// Opens the MPI plugin (`pluginPath`, or $KILN_MPI_PLUGIN, or
/// kMpiPluginName next to the running program, or on the library search
/// path), initialises MPI if needed (MPI_THREAD_MULTIPLE) and returns the
/// world communicator: rank and size from MPI_COMM_WORLD. kUnavailable when
/// the plugin or libmpi cannot be loaded, kFailedPrecondition when the
/// plugin was built for another API version. MPI is finalised when the
/// last communicator from the plugin is destroyed.
StatusOr<std::unique_ptr<Communicator>>
openMpiCommunicator(const CommunicatorOptions &options,
                    const std::string &pluginPath = "");

} // namespace kiln::rt

#endif // KILN_RUNTIME_COMMUNICATOR_H

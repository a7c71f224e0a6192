//===- CollectiveCall.h - What every backend checks about a call -*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_COLLECTIVES_COLLECTIVECALL_H
#define KILN_RUNTIME_COLLECTIVES_COLLECTIVECALL_H

#include "kiln/runtime/Communicator.h"

#include <chrono>
#include <string>
#include <vector>

namespace kiln::rt {

using CommClock = std::chrono::steady_clock;

/// A call being made: what it is, how messages name it, when it gives up.
struct PendingCall {
  CollectiveFingerprint fingerprint;
  std::string name;
  CommClock::time_point deadline;
};

/// `fingerprint` on `rank` of `size`, named, due within `timeout`.
PendingCall startCall(const CollectiveFingerprint &fingerprint, int rank,
                      int size, std::chrono::milliseconds timeout);

/// A send or recv with `peer`, numbered per peer and direction in `sent`
/// or `received` (one counter per rank; an invalid peer numbers 0).
CollectiveFingerprint pointToPointFingerprint(CollectiveOp op, size_t count,
                                              DType dtype, int peer,
                                              std::vector<uint64_t> &sent,
                                              std::vector<uint64_t> &received);

/// "allReduce #3 on rank 1 of 4", "send #2 to rank 3 on rank 1 of 4".
std::string callName(const CollectiveFingerprint &call, int rank, int size);

/// The arguments of `call` on `rank` of `size`, before anything is
/// exchanged: the types, reduction, root or peer, sizes (no overflow),
/// null buffers and the in-place rules of Communicator.h.
Status checkCall(const CollectiveFingerprint &call, const void *send,
                 const void *recv, int rank, int size);

/// Whether two ranks' fingerprints describe the same call. Send and recv
/// match when they name each other and agree on count and type.
bool sameCall(const CollectiveFingerprint &mine, int myRank,
              const CollectiveFingerprint &theirs, int theirRank);

/// kInvalidArgument: "<name>: ranks disagree: rank 0 calls ..., rank 2
/// calls ...".
Status mismatch(const std::string &name, int rankA,
                const CollectiveFingerprint &a, int rankB,
                const CollectiveFingerprint &b);

/// A fingerprint as six 64-bit words, for backends that move bytes.
struct WireFingerprint {
  uint64_t words[6];
};
WireFingerprint toWire(const CollectiveFingerprint &fingerprint);
CollectiveFingerprint fromWire(const WireFingerprint &wire);

/// OK when every rank's fingerprint (element r from rank r) describes the
/// same call as rank 0's, else mismatch() naming the first that does not.
Status sameOnEveryRank(const std::string &name,
                       const std::vector<WireFingerprint> &all);

/// Bytes of `count` elements of `dtype` (count already checked).
inline size_t byteCount(size_t count, DType dtype) {
  return count * dtypeSize(dtype);
}

} // namespace kiln::rt

#endif // KILN_RUNTIME_COLLECTIVES_COLLECTIVECALL_H

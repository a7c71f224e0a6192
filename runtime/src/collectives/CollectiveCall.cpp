//===- CollectiveCall.cpp - What every backend checks about a call --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "CollectiveCall.h"

#include "Reduce.h"

#include <cstdint>
#include <limits>

namespace kiln::rt {

Communicator::~Communicator() = default;

const char *reduceOpName(ReduceOp op) {
  switch (op) {
  case ReduceOp::kSum:
    return "sum";
  case ReduceOp::kMax:
    return "max";
  case ReduceOp::kMin:
    return "min";
  case ReduceOp::kProd:
    return "prod";
  }
  return "unknown";
}

const char *collectiveOpName(CollectiveOp op) {
  switch (op) {
  case CollectiveOp::kAllReduce:
    return "allReduce";
  case CollectiveOp::kAllGather:
    return "allGather";
  case CollectiveOp::kReduceScatter:
    return "reduceScatter";
  case CollectiveOp::kBroadcast:
    return "broadcast";
  case CollectiveOp::kSend:
    return "send";
  case CollectiveOp::kRecv:
    return "recv";
  case CollectiveOp::kAllToAll:
    return "allToAll";
  case CollectiveOp::kBarrier:
    return "barrier";
  case CollectiveOp::kSplit:
    return "split";
  }
  return "unknown";
}

namespace {
bool reduces(CollectiveOp op) {
  return op == CollectiveOp::kAllReduce || op == CollectiveOp::kReduceScatter;
}
bool hasRoot(CollectiveOp op) {
  return op == CollectiveOp::kBroadcast || op == CollectiveOp::kSend ||
         op == CollectiveOp::kRecv;
}
bool moves(CollectiveOp op) {
  return op != CollectiveOp::kBarrier && op != CollectiveOp::kSplit;
}
} // namespace

std::string CollectiveFingerprint::describe() const {
  std::string text =
      std::string(collectiveOpName(op)) + " #" + std::to_string(sequence);
  if (moves(op))
    text += " count " + std::to_string(count) + " " + dtypeName(dtype);
  if (reduces(op))
    text += std::string(" ") + reduceOpName(ReduceOp(reduce));
  if (op == CollectiveOp::kBroadcast)
    text += " root " + std::to_string(root);
  else if (op == CollectiveOp::kSend || op == CollectiveOp::kRecv)
    text += " peer " + std::to_string(root);
  return text;
}

std::string callName(const CollectiveFingerprint &call, int rank, int size) {
  std::string text = std::string(collectiveOpName(call.op)) + " #" +
                     std::to_string(call.sequence);
  if (call.op == CollectiveOp::kSend)
    text += " to rank " + std::to_string(call.root);
  else if (call.op == CollectiveOp::kRecv)
    text += " from rank " + std::to_string(call.root);
  return text + " on rank " + std::to_string(rank) + " of " +
         std::to_string(size);
}

Status checkCall(const CollectiveFingerprint &call, const void *send,
                 const void *recv, int rank, int size) {
  std::string name = callName(call, rank, size);
  if (!moves(call.op))
    return Status::ok();
  size_t elementBytes = dtypeSize(call.dtype);
  if (elementBytes == 0)
    return invalidArgument(name + ": unknown element type " +
                           std::to_string(unsigned(call.dtype)));
  if (reduces(call.op)) {
    if (call.reduce < 1 || call.reduce > 4)
      return invalidArgument(name + ": unknown reduction " +
                             std::to_string(call.reduce));
    if (!canReduce(call.dtype))
      return unimplemented(name + ": cannot reduce " + dtypeName(call.dtype) +
                           " elements");
  }
  if (hasRoot(call.op)) {
    if (call.root < 0 || call.root >= size)
      return invalidArgument(
          name + ": " +
          (call.op == CollectiveOp::kBroadcast ? "root " : "peer ") +
          std::to_string(call.root) + " is not a rank of " +
          std::to_string(size));
    if (call.op != CollectiveOp::kBroadcast && call.root == rank)
      return invalidArgument(name + ": a rank cannot " +
                             collectiveOpName(call.op) + " to itself");
  }
  // Bytes of send and recv on this rank.
  bool blocks = call.op == CollectiveOp::kAllGather ||
                call.op == CollectiveOp::kReduceScatter ||
                call.op == CollectiveOp::kAllToAll;
  uint64_t limit = std::numeric_limits<size_t>::max() / elementBytes /
                   (blocks ? uint64_t(size) : 1);
  if (call.count > limit)
    return invalidArgument(name + ": " + std::to_string(call.count) +
                           " elements overflow the address space");
  size_t bytes = size_t(call.count) * elementBytes;
  size_t sendBytes = bytes, recvBytes = bytes;
  if (call.op == CollectiveOp::kAllGather || call.op == CollectiveOp::kAllToAll)
    recvBytes = bytes * size_t(size);
  if (call.op == CollectiveOp::kReduceScatter ||
      call.op == CollectiveOp::kAllToAll)
    sendBytes = bytes * size_t(size);
  bool readsSend = call.op != CollectiveOp::kRecv &&
                   (call.op != CollectiveOp::kBroadcast || call.root == rank);
  bool writesRecv = call.op != CollectiveOp::kSend;
  if (bytes == 0)
    return Status::ok();
  if ((readsSend && !send) || (writesRecv && !recv))
    return invalidArgument(name + ": a null buffer for " +
                           std::to_string(call.count) + " elements");
  if (!readsSend || !writesRecv)
    return Status::ok();
  auto s = reinterpret_cast<uintptr_t>(send);
  auto r = reinterpret_cast<uintptr_t>(recv);
  if (s + sendBytes <= r || r + recvBytes <= s)
    return Status::ok();
  // Overlapping: only NCCL's in-place forms.
  bool inPlace = false;
  switch (call.op) {
  case CollectiveOp::kAllReduce:
  case CollectiveOp::kBroadcast:
    inPlace = s == r;
    break;
  case CollectiveOp::kAllGather:
    inPlace = s == r + size_t(rank) * bytes;
    break;
  case CollectiveOp::kReduceScatter:
    inPlace = r == s + size_t(rank) * bytes;
    break;
  default:
    break;
  }
  if (!inPlace)
    return invalidArgument(name + ": send and recv overlap, and not in the " +
                           "in-place form this collective allows");
  return Status::ok();
}

bool sameCall(const CollectiveFingerprint &mine, int myRank,
              const CollectiveFingerprint &theirs, int theirRank) {
  bool pointToPoint =
      mine.op == CollectiveOp::kSend || mine.op == CollectiveOp::kRecv;
  if (pointToPoint)
    return mine.op != theirs.op &&
           (theirs.op == CollectiveOp::kSend ||
            theirs.op == CollectiveOp::kRecv) &&
           mine.sequence == theirs.sequence && mine.count == theirs.count &&
           mine.dtype == theirs.dtype && mine.root == theirRank &&
           theirs.root == myRank;
  return mine.sequence == theirs.sequence && mine.op == theirs.op &&
         mine.count == theirs.count && mine.dtype == theirs.dtype &&
         mine.reduce == theirs.reduce && mine.root == theirs.root;
}

Status mismatch(const std::string &name, int rankA,
                const CollectiveFingerprint &a, int rankB,
                const CollectiveFingerprint &b) {
  return invalidArgument(name + ": ranks disagree: rank " +
                         std::to_string(rankA) + " calls " + a.describe() +
                         ", rank " + std::to_string(rankB) + " calls " +
                         b.describe());
}

PendingCall startCall(const CollectiveFingerprint &fingerprint, int rank,
                      int size, std::chrono::milliseconds timeout) {
  return {fingerprint, callName(fingerprint, rank, size),
          CommClock::now() + timeout};
}

CollectiveFingerprint pointToPointFingerprint(CollectiveOp op, size_t count,
                                              DType dtype, int peer,
                                              std::vector<uint64_t> &sent,
                                              std::vector<uint64_t> &received) {
  CollectiveFingerprint f;
  f.op = op;
  f.count = count;
  f.dtype = dtype;
  f.root = peer;
  std::vector<uint64_t> &counters = op == CollectiveOp::kSend ? sent : received;
  if (peer >= 0 && size_t(peer) < counters.size())
    f.sequence = counters[size_t(peer)]++;
  return f;
}

WireFingerprint toWire(const CollectiveFingerprint &f) {
  return {{f.sequence, uint64_t(f.op), f.count, uint64_t(f.dtype), f.reduce,
           uint64_t(int64_t(f.root))}};
}

CollectiveFingerprint fromWire(const WireFingerprint &w) {
  CollectiveFingerprint f;
  f.sequence = w.words[0];
  f.op = CollectiveOp(w.words[1]);
  f.count = w.words[2];
  f.dtype = DType(w.words[3]);
  f.reduce = uint32_t(w.words[4]);
  f.root = int32_t(int64_t(w.words[5]));
  return f;
}

Status sameOnEveryRank(const std::string &name,
                       const std::vector<WireFingerprint> &all) {
  CollectiveFingerprint first = fromWire(all[0]);
  for (size_t r = 1; r < all.size(); ++r) {
    CollectiveFingerprint other = fromWire(all[r]);
    if (!sameCall(first, 0, other, int(r)))
      return mismatch(name, 0, first, int(r), other);
  }
  return Status::ok();
}

} // namespace kiln::rt

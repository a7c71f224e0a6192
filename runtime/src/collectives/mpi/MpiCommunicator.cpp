//===- MpiCommunicator.cpp - Collectives over MPI -------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// f16 and bf16 reductions widen to f32 around the MPI call and round back
// once, like the in-process backend (MPI has no half types). In-place
// forms map to MPI_IN_PLACE where MPI has one, else to a staging buffer.
//
//===----------------------------------------------------------------------===//

#include "MpiCommunicator.h"

#include "../HalfFloat.h"

#include <climits>
#include <cstring>
#include <thread>

namespace kiln::rt {

namespace {

/// Tags of point-to-point traffic: the payload and its fingerprint.
constexpr int kDataTag = 0x4B31, kFingerprintTag = 0x4B32;
/// Exit code of MPI_Abort: kAborted's (docs/sharding.md).
constexpr int kAbortExitCode = 7;

MPI_Datatype mpiType(DType dtype) {
  switch (dtype) {
  case DType::kF32:
    return MPI_FLOAT;
  case DType::kF64:
    return MPI_DOUBLE;
  case DType::kF16:
  case DType::kBF16:
  case DType::kU16:
    return MPI_UINT16_T;
  case DType::kI1:
  case DType::kU8:
    return MPI_UINT8_T;
  case DType::kI8:
    return MPI_INT8_T;
  case DType::kI16:
    return MPI_INT16_T;
  case DType::kI32:
    return MPI_INT32_T;
  case DType::kI64:
    return MPI_INT64_T;
  case DType::kU32:
    return MPI_UINT32_T;
  case DType::kU64:
    return MPI_UINT64_T;
  }
  return MPI_BYTE;
}

MPI_Op mpiOp(ReduceOp op) {
  switch (op) {
  case ReduceOp::kSum:
    return MPI_SUM;
  case ReduceOp::kMax:
    return MPI_MAX;
  case ReduceOp::kMin:
    return MPI_MIN;
  case ReduceOp::kProd:
    return MPI_PROD;
  }
  return MPI_SUM;
}

bool isHalf(DType dtype) {
  return dtype == DType::kF16 || dtype == DType::kBF16;
}

std::vector<float> widen(const void *data, size_t count, DType dtype) {
  std::vector<float> wide(count);
  const auto *halves = static_cast<const uint16_t *>(data);
  for (size_t i = 0; i < count; ++i) {
    uint16_t bits;
    std::memcpy(&bits, halves + i, 2);
    wide[i] = dtype == DType::kF16 ? f16ToFloat(bits) : bf16ToFloat(bits);
  }
  return wide;
}

void narrow(const std::vector<float> &wide, void *data, DType dtype) {
  auto *halves = static_cast<uint16_t *>(data);
  for (size_t i = 0; i < wide.size(); ++i) {
    uint16_t bits =
        dtype == DType::kF16 ? floatToF16(wide[i]) : floatToBf16(wide[i]);
    std::memcpy(halves + i, &bits, 2);
  }
}

} // namespace

MpiSession::~MpiSession() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (initializedHere && !pending && !finalized)
    MPI_Finalize();
}

MpiCommunicator::MpiCommunicator(std::shared_ptr<MpiSession> session,
                                 MPI_Comm comm,
                                 const CommunicatorOptions &options)
    : session_(std::move(session)), comm_(comm), options_(options) {
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  sent_.assign(size_t(size_), 0);
  received_.assign(size_t(size_), 0);
}

MpiCommunicator::~MpiCommunicator() {
  if (comm_ != MPI_COMM_WORLD && broken_.isOk())
    MPI_Comm_free(&comm_);
}

Status MpiCommunicator::failed(const Call &call, const char *function,
                               int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  broken_ = aborted(std::string(function) +
                    " failed: " + std::string(text, size_t(length)));
  return Status(broken_.code(), call.name + ": " + broken_.message());
}

Status MpiCommunicator::wait(const Call &call, MPI_Request *requests,
                             int count) {
  // Open MPI progresses non-blocking collectives only inside MPI calls:
  // test often at first (yielding the core), then every 200 us.
  auto spinUntil = CommClock::now() + std::chrono::milliseconds(2);
  for (;;) {
    int done = 0;
    int code = MPI_Testall(count, requests, &done, MPI_STATUSES_IGNORE);
    if (code != MPI_SUCCESS)
      return failed(call, "MPI_Testall", code);
    if (done)
      return Status::ok();
    auto now = CommClock::now();
    if (now >= call.deadline) {
      session_->pending = true;
      broken_ =
          deadlineExceeded(call.name + " gave up after " +
                           std::to_string(options_.timeout.count()) + " ms");
      return deadlineExceeded(call.name + ": deadline exceeded after " +
                              std::to_string(options_.timeout.count()) +
                              " ms waiting for its peers");
    }
    if (now < spinUntil)
      std::this_thread::yield();
    else
      std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

Status MpiCommunicator::begin(Call &call, CollectiveOp op, size_t count,
                              DType dtype, uint32_t reduce, int root,
                              const void *send, const void *recv,
                              bool alwaysExchange) {
  call = startCall({sequence_++, op, count, dtype, reduce, root}, rank_, size_,
                   options_.timeout);
  const CollectiveFingerprint &f = call.fingerprint;
  if (!broken_.isOk())
    return Status(broken_.code(), call.name + ": " + broken_.message());
  KILN_RETURN_IF_ERROR(checkCall(f, send, recv, rank_, size_));
  size_t blocks = op == CollectiveOp::kAllGather ||
                          op == CollectiveOp::kReduceScatter ||
                          op == CollectiveOp::kAllToAll
                      ? size_t(size_)
                      : 1;
  if (count > size_t(INT_MAX) / blocks)
    return unimplemented(call.name + ": MPI counts stop at 2^31 - 1");
  if (!options_.checkFingerprints && !alwaysExchange)
    return Status::ok();
  WireFingerprint mine = toWire(f);
  std::vector<WireFingerprint> all(static_cast<size_t>(size_));
  MPI_Request request;
  int code = MPI_Iallgather(&mine, 6, MPI_UINT64_T, all.data(), 6, MPI_UINT64_T,
                            comm_, &request);
  if (code != MPI_SUCCESS)
    return failed(call, "MPI_Iallgather", code);
  KILN_RETURN_IF_ERROR(wait(call, &request, 1));
  return sameOnEveryRank(call.name, all);
}

Status MpiCommunicator::beginPointToPoint(Call &call, CollectiveOp op,
                                          size_t count, DType dtype, int peer,
                                          const void *buffer) {
  call = startCall(
      pointToPointFingerprint(op, count, dtype, peer, sent_, received_), rank_,
      size_, options_.timeout);
  const CollectiveFingerprint &f = call.fingerprint;
  bool sending = op == CollectiveOp::kSend;
  if (!broken_.isOk())
    return Status(broken_.code(), call.name + ": " + broken_.message());
  KILN_RETURN_IF_ERROR(checkCall(f, sending ? buffer : nullptr,
                                 sending ? nullptr : buffer, rank_, size_));
  if (count > size_t(INT_MAX))
    return unimplemented(call.name + ": MPI counts stop at 2^31 - 1");
  if (!options_.checkFingerprints)
    return Status::ok();
  WireFingerprint mine = toWire(f), theirs;
  MPI_Request requests[2];
  int code = MPI_Isend(&mine, 6, MPI_UINT64_T, peer, kFingerprintTag, comm_,
                       &requests[0]);
  if (code == MPI_SUCCESS)
    code = MPI_Irecv(&theirs, 6, MPI_UINT64_T, peer, kFingerprintTag, comm_,
                     &requests[1]);
  if (code != MPI_SUCCESS)
    return failed(call, "MPI_Isend/MPI_Irecv", code);
  KILN_RETURN_IF_ERROR(wait(call, requests, 2));
  CollectiveFingerprint other = fromWire(theirs);
  if (!sameCall(f, rank_, other, peer))
    return mismatch(call.name, rank_, f, peer, other);
  return Status::ok();
}

Status MpiCommunicator::allReduce(const void *send, void *recv, size_t count,
                                  DType dtype, ReduceOp op) {
  Call call;
  KILN_RETURN_IF_ERROR(begin(call, CollectiveOp::kAllReduce, count, dtype,
                             uint32_t(op), -1, send, recv));
  MPI_Request request;
  int code;
  if (isHalf(dtype)) {
    std::vector<float> wide = widen(send, count, dtype);
    code = MPI_Iallreduce(MPI_IN_PLACE, wide.data(), int(count), MPI_FLOAT,
                          mpiOp(op), comm_, &request);
    if (code != MPI_SUCCESS)
      return failed(call, "MPI_Iallreduce", code);
    KILN_RETURN_IF_ERROR(wait(call, &request, 1));
    narrow(wide, recv, dtype);
    return Status::ok();
  }
  code = MPI_Iallreduce(send == recv ? MPI_IN_PLACE : send, recv, int(count),
                        mpiType(dtype), mpiOp(op), comm_, &request);
  if (code != MPI_SUCCESS)
    return failed(call, "MPI_Iallreduce", code);
  return wait(call, &request, 1);
}

Status MpiCommunicator::allGather(const void *send, void *recv,
                                  size_t countPerRank, DType dtype) {
  Call call;
  KILN_RETURN_IF_ERROR(begin(call, CollectiveOp::kAllGather, countPerRank,
                             dtype, 0, -1, send, recv));
  size_t bytes = byteCount(countPerRank, dtype);
  bool inPlace = send == static_cast<uint8_t *>(recv) + size_t(rank_) * bytes;
  MPI_Request request;
  int code = MPI_Iallgather(inPlace ? MPI_IN_PLACE : send, int(countPerRank),
                            mpiType(dtype), recv, int(countPerRank),
                            mpiType(dtype), comm_, &request);
  if (code != MPI_SUCCESS)
    return failed(call, "MPI_Iallgather", code);
  return wait(call, &request, 1);
}

Status MpiCommunicator::reduceScatter(const void *send, void *recv,
                                      size_t countPerRank, DType dtype,
                                      ReduceOp op) {
  Call call;
  KILN_RETURN_IF_ERROR(begin(call, CollectiveOp::kReduceScatter, countPerRank,
                             dtype, uint32_t(op), -1, send, recv));
  size_t total = countPerRank * size_t(size_);
  MPI_Request request;
  int code;
  if (isHalf(dtype)) {
    std::vector<float> wide = widen(send, total, dtype);
    std::vector<float> out(countPerRank);
    code = MPI_Ireduce_scatter_block(wide.data(), out.data(), int(countPerRank),
                                     MPI_FLOAT, mpiOp(op), comm_, &request);
    if (code != MPI_SUCCESS)
      return failed(call, "MPI_Ireduce_scatter_block", code);
    KILN_RETURN_IF_ERROR(wait(call, &request, 1));
    narrow(out, recv, dtype);
    return Status::ok();
  }
  // recv may be this rank's block of send (NCCL's in-place form), which
  // MPI does not have: stage the result.
  size_t bytes = byteCount(countPerRank, dtype);
  std::vector<uint8_t> staged(bytes);
  code = MPI_Ireduce_scatter_block(send, staged.data(), int(countPerRank),
                                   mpiType(dtype), mpiOp(op), comm_, &request);
  if (code != MPI_SUCCESS)
    return failed(call, "MPI_Ireduce_scatter_block", code);
  KILN_RETURN_IF_ERROR(wait(call, &request, 1));
  if (bytes)
    std::memcpy(recv, staged.data(), bytes);
  return Status::ok();
}

Status MpiCommunicator::broadcast(const void *send, void *recv, size_t count,
                                  DType dtype, int root) {
  Call call;
  KILN_RETURN_IF_ERROR(
      begin(call, CollectiveOp::kBroadcast, count, dtype, 0, root, send, recv));
  size_t bytes = byteCount(count, dtype);
  if (rank_ == root && send != recv && bytes)
    std::memcpy(recv, send, bytes);
  MPI_Request request;
  int code =
      MPI_Ibcast(recv, int(count), mpiType(dtype), root, comm_, &request);
  if (code != MPI_SUCCESS)
    return failed(call, "MPI_Ibcast", code);
  return wait(call, &request, 1);
}

Status MpiCommunicator::allToAll(const void *send, void *recv,
                                 size_t countPerRank, DType dtype) {
  Call call;
  KILN_RETURN_IF_ERROR(begin(call, CollectiveOp::kAllToAll, countPerRank, dtype,
                             0, -1, send, recv));
  MPI_Request request;
  int code = MPI_Ialltoall(send, int(countPerRank), mpiType(dtype), recv,
                           int(countPerRank), mpiType(dtype), comm_, &request);
  if (code != MPI_SUCCESS)
    return failed(call, "MPI_Ialltoall", code);
  return wait(call, &request, 1);
}

Status MpiCommunicator::send(const void *buffer, size_t count, DType dtype,
                             int peer) {
  Call call;
  KILN_RETURN_IF_ERROR(
      beginPointToPoint(call, CollectiveOp::kSend, count, dtype, peer, buffer));
  // Synchronous: done once the peer has matched it, as in-process.
  MPI_Request request;
  int code = MPI_Issend(buffer, int(count), mpiType(dtype), peer, kDataTag,
                        comm_, &request);
  if (code != MPI_SUCCESS)
    return failed(call, "MPI_Issend", code);
  return wait(call, &request, 1);
}

Status MpiCommunicator::recv(void *buffer, size_t count, DType dtype,
                             int peer) {
  Call call;
  KILN_RETURN_IF_ERROR(
      beginPointToPoint(call, CollectiveOp::kRecv, count, dtype, peer, buffer));
  MPI_Request request;
  int code = MPI_Irecv(buffer, int(count), mpiType(dtype), peer, kDataTag,
                       comm_, &request);
  if (code != MPI_SUCCESS)
    return failed(call, "MPI_Irecv", code);
  return wait(call, &request, 1);
}

Status MpiCommunicator::barrier() {
  Call call;
  KILN_RETURN_IF_ERROR(begin(call, CollectiveOp::kBarrier, 0, DType::kU8, 0, -1,
                             nullptr, nullptr));
  MPI_Request request;
  int code = MPI_Ibarrier(comm_, &request);
  if (code != MPI_SUCCESS)
    return failed(call, "MPI_Ibarrier", code);
  return wait(call, &request, 1);
}

StatusOr<std::unique_ptr<Communicator>> MpiCommunicator::split(int color,
                                                               int key) {
  Call call;
  // MPI_Comm_split blocks without a deadline: the fingerprint exchange
  // first makes sure every rank is there.
  KILN_RETURN_IF_ERROR(begin(call, CollectiveOp::kSplit, 0, DType::kU8, 0, -1,
                             nullptr, nullptr, /*alwaysExchange=*/true));
  MPI_Comm sub = MPI_COMM_NULL;
  int code =
      MPI_Comm_split(comm_, color < 0 ? MPI_UNDEFINED : color, key, &sub);
  if (code != MPI_SUCCESS)
    return failed(call, "MPI_Comm_split", code);
  if (sub == MPI_COMM_NULL)
    return std::unique_ptr<Communicator>();
  return std::unique_ptr<Communicator>(
      std::make_unique<MpiCommunicator>(session_, sub, options_));
}

void MpiCommunicator::abort() { MPI_Abort(comm_, kAbortExitCode); }

} // namespace kiln::rt

//===- NcclCommunicator.cpp - Collectives between GPUs over NCCL ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Each call: check the arguments (CollectiveCall.h), exchange fingerprints
// when asked (through device scratch memory, with NCCL itself), enqueue the
// NCCL call on the communicator's stream, then poll. Moves (gather,
// broadcast, all-to-all, send/recv) go as bytes, so every dtype moves;
// reductions map to NCCL's types.
//
//===----------------------------------------------------------------------===//

#include "NcclCommunicator.h"

#include <optional>
#include <thread>

namespace kiln::rt {

using namespace nccl;
using cuda::CUDA_ERROR_NOT_READY;
using cuda::CUDA_SUCCESS;
using cuda::CUresult;

namespace {

constexpr size_t kWireBytes = sizeof(WireFingerprint);

ncclRedOp_t ncclOp(ReduceOp op) {
  switch (op) {
  case ReduceOp::kSum:
    return ncclSum;
  case ReduceOp::kMax:
    return ncclMax;
  case ReduceOp::kMin:
    return ncclMin;
  case ReduceOp::kProd:
    return ncclProd;
  }
  return ncclSum;
}

/// NCCL's type for reducing `dtype`; none for i1, i16 and u16.
std::optional<ncclDataType_t> ncclReduceType(DType dtype) {
  switch (dtype) {
  case DType::kF32:
    return ncclFloat32;
  case DType::kF64:
    return ncclFloat64;
  case DType::kF16:
    return ncclFloat16;
  case DType::kBF16:
    return ncclBfloat16;
  case DType::kI8:
    return ncclInt8;
  case DType::kU8:
    return ncclUint8;
  case DType::kI32:
    return ncclInt32;
  case DType::kU32:
    return ncclUint32;
  case DType::kI64:
    return ncclInt64;
  case DType::kU64:
    return ncclUint64;
  default:
    return std::nullopt;
  }
}

const char *at(const void *base, size_t bytes) {
  return static_cast<const char *>(base) + bytes;
}
char *at(void *base, size_t bytes) { return static_cast<char *>(base) + bytes; }

} // namespace

NcclCommunicator::NcclCommunicator(const NcclLibrary &nccl,
                                   std::shared_ptr<cuda::CudaDevice> device,
                                   ncclComm_t comm, int rank, int size,
                                   std::shared_ptr<NcclAbortFlag> abortFlag,
                                   const CommunicatorOptions &options)
    : nccl_(nccl), device_(std::move(device)), comm_(comm), rank_(rank),
      size_(size), abortFlag_(std::move(abortFlag)), options_(options),
      sent_(size_t(size), 0), received_(size_t(size), 0) {}

StatusOr<std::unique_ptr<NcclCommunicator>>
NcclCommunicator::create(const NcclLibrary &nccl,
                         std::shared_ptr<cuda::CudaDevice> device,
                         ncclComm_t comm, int rank, int size,
                         std::shared_ptr<NcclAbortFlag> abortFlag,
                         const CommunicatorOptions &options) {
  std::unique_ptr<NcclCommunicator> result(
      new NcclCommunicator(nccl, std::move(device), comm, rank, size,
                           std::move(abortFlag), options));
  cuda::CudaDevice &d = *result->device_;
  KILN_RETURN_IF_ERROR(d.makeCurrent());
  KILN_RETURN_IF_ERROR(d.check(
      d.driver().cuStreamCreate(&result->stream_, cuda::CU_STREAM_NON_BLOCKING),
      "cuStreamCreate"));
  KILN_RETURN_IF_ERROR(
      d.check(d.driver().cuMemAlloc_v2(&result->scratch_,
                                       kWireBytes * size_t(size + 1)),
              "cuMemAlloc"));
  return result;
}

NcclCommunicator::~NcclCommunicator() {
  // makeCurrent binds the context even on a device poisoned by a fault (a
  // rank's kernel, say): the communicator is still freed, by an abort,
  // which does not wait for work on the dead context.
  bool healthy = device_->makeCurrent().isOk();
  if (comm_)
    (abortFlag_->raised || !healthy ? nccl_.ncclCommAbort
                                    : nccl_.ncclCommDestroy)(comm_);
  if (scratch_)
    device_->driver().cuMemFree_v2(scratch_);
  if (stream_)
    device_->driver().cuStreamDestroy_v2(stream_);
}

void NcclCommunicator::breakWith(Status why) {
  if (comm_) {
    // The NCCL way out of a hang or an asynchronous error: abort frees
    // the communicator and lets enqueued work finish or fail.
    nccl_.ncclCommAbort(comm_);
    comm_ = nullptr;
  }
  broken_ = std::move(why);
}

Status NcclCommunicator::usable(const Call &call) {
  if (abortFlag_->raised && broken_.isOk())
    breakWith(aborted("a rank of the group aborted it"));
  if (broken_.isOk())
    return Status::ok();
  return Status(broken_.code(), call.name + ": " + broken_.message());
}

Status NcclCommunicator::enqueued(const Call &call, ncclResult_t result,
                                  const char *function) {
  if (result == ncclSuccess || result == ncclInProgress)
    return Status::ok();
  Status error = nccl_.error(result, function);
  breakWith(error);
  return Status(error.code(), call.name + ": " + error.message());
}

Status NcclCommunicator::driverCall(const Call &call, CUresult result,
                                    const char *function) {
  Status status = device_->check(result, function);
  if (status.isOk())
    return status;
  breakWith(status);
  return Status(status.code(), call.name + ": " + status.message());
}

Status NcclCommunicator::wait(const Call &call) {
  auto spinUntil = CommClock::now() + std::chrono::milliseconds(2);
  for (;;) {
    if (abortFlag_->raised)
      return usable(call);
    CUresult query = device_->driver().cuStreamQuery(stream_);
    if (query != CUDA_ERROR_NOT_READY && query != CUDA_SUCCESS)
      return driverCall(call, query, "cuStreamQuery");
    ncclResult_t asyncError = ncclSuccess;
    ncclResult_t got = nccl_.ncclCommGetAsyncError(comm_, &asyncError);
    if (got != ncclSuccess)
      return enqueued(call, got, "ncclCommGetAsyncError");
    if (asyncError != ncclSuccess && asyncError != ncclInProgress)
      return enqueued(call, asyncError, "an enqueued NCCL operation");
    if (query == CUDA_SUCCESS)
      return Status::ok();
    auto now = CommClock::now();
    if (now >= call.deadline) {
      std::string gaveUp = "deadline exceeded after " +
                           std::to_string(options_.timeout.count()) +
                           " ms waiting for its peers";
      breakWith(deadlineExceeded(call.name + " gave up: " + gaveUp));
      return deadlineExceeded(call.name + ": " + gaveUp);
    }
    if (now < spinUntil)
      std::this_thread::yield();
    else
      std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

Status NcclCommunicator::gatherSmall(const Call &call, const void *mine,
                                     size_t bytes, void *all) {
  const cuda::CudaDriver &driver = device_->driver();
  void *slots = reinterpret_cast<void *>(scratch_);
  KILN_RETURN_IF_ERROR(
      driverCall(call,
                 driver.cuMemcpyHtoDAsync_v2(scratch_ + bytes * size_t(rank_),
                                             mine, bytes, stream_),
                 "cuMemcpyHtoDAsync"));
  KILN_RETURN_IF_ERROR(
      enqueued(call,
               nccl_.ncclAllGather(at(slots, bytes * size_t(rank_)), slots,
                                   bytes, ncclUint8, comm_, stream_),
               "ncclAllGather"));
  KILN_RETURN_IF_ERROR(wait(call));
  // Stream-ordered after the gather on a GPU; the wait keeps it so on the
  // tests' fake too.
  KILN_RETURN_IF_ERROR(
      driverCall(call,
                 driver.cuMemcpyDtoHAsync_v2(all, scratch_,
                                             bytes * size_t(size_), stream_),
                 "cuMemcpyDtoHAsync"));
  return wait(call);
}

Status NcclCommunicator::agree(const Call &call, int peer) {
  WireFingerprint mine = toWire(call.fingerprint);
  if (peer < 0) {
    std::vector<WireFingerprint> all(static_cast<size_t>(size_));
    KILN_RETURN_IF_ERROR(gatherSmall(call, &mine, kWireBytes, all.data()));
    return sameOnEveryRank(call.name, all);
  }
  // Slot 0 sends mine, slot `size_` receives the peer's.
  const cuda::CudaDriver &driver = device_->driver();
  auto *slots = reinterpret_cast<void *>(scratch_);
  cuda::CUdeviceptr theirsAt = scratch_ + kWireBytes * size_t(size_);
  KILN_RETURN_IF_ERROR(driverCall(
      call, driver.cuMemcpyHtoDAsync_v2(scratch_, &mine, kWireBytes, stream_),
      "cuMemcpyHtoDAsync"));
  KILN_RETURN_IF_ERROR(
      enqueued(call, nccl_.ncclGroupStart(), "ncclGroupStart"));
  KILN_RETURN_IF_ERROR(enqueued(
      call, nccl_.ncclSend(slots, kWireBytes, ncclUint8, peer, comm_, stream_),
      "ncclSend"));
  KILN_RETURN_IF_ERROR(
      enqueued(call,
               nccl_.ncclRecv(reinterpret_cast<void *>(theirsAt), kWireBytes,
                              ncclUint8, peer, comm_, stream_),
               "ncclRecv"));
  KILN_RETURN_IF_ERROR(enqueued(call, nccl_.ncclGroupEnd(), "ncclGroupEnd"));
  KILN_RETURN_IF_ERROR(wait(call));
  WireFingerprint theirs;
  KILN_RETURN_IF_ERROR(driverCall(
      call, driver.cuMemcpyDtoHAsync_v2(&theirs, theirsAt, kWireBytes, stream_),
      "cuMemcpyDtoHAsync"));
  KILN_RETURN_IF_ERROR(wait(call));
  CollectiveFingerprint other = fromWire(theirs);
  if (!sameCall(call.fingerprint, rank_, other, peer))
    return mismatch(call.name, rank_, call.fingerprint, peer, other);
  return Status::ok();
}

Status NcclCommunicator::begin(Call &call, CollectiveOp op, size_t count,
                               DType dtype, uint32_t reduce, int root,
                               const void *send, const void *recv,
                               bool alwaysExchange) {
  call = startCall({sequence_++, op, count, dtype, reduce, root}, rank_, size_,
                   options_.timeout);
  const CollectiveFingerprint &f = call.fingerprint;
  KILN_RETURN_IF_ERROR(usable(call));
  KILN_RETURN_IF_ERROR(checkCall(f, send, recv, rank_, size_));
  KILN_RETURN_IF_ERROR(device_->makeCurrent());
  if (!options_.checkFingerprints && !alwaysExchange)
    return Status::ok();
  return agree(call);
}

Status NcclCommunicator::beginPointToPoint(Call &call, CollectiveOp op,
                                           size_t count, DType dtype, int peer,
                                           const void *buffer) {
  call = startCall(
      pointToPointFingerprint(op, count, dtype, peer, sent_, received_), rank_,
      size_, options_.timeout);
  const CollectiveFingerprint &f = call.fingerprint;
  bool sending = op == CollectiveOp::kSend;
  KILN_RETURN_IF_ERROR(usable(call));
  KILN_RETURN_IF_ERROR(checkCall(f, sending ? buffer : nullptr,
                                 sending ? nullptr : buffer, rank_, size_));
  KILN_RETURN_IF_ERROR(device_->makeCurrent());
  if (!options_.checkFingerprints)
    return Status::ok();
  return agree(call, peer);
}

Status NcclCommunicator::reduceType(const Call &call, DType dtype,
                                    ncclDataType_t &out) {
  std::optional<ncclDataType_t> type = ncclReduceType(dtype);
  if (!type)
    return unimplemented(call.name + ": NCCL cannot reduce " +
                         dtypeName(dtype) + " (no such NCCL type)");
  out = *type;
  return Status::ok();
}

Status NcclCommunicator::allReduce(const void *send, void *recv, size_t count,
                                   DType dtype, ReduceOp op) {
  Call call;
  KILN_RETURN_IF_ERROR(begin(call, CollectiveOp::kAllReduce, count, dtype,
                             uint32_t(op), -1, send, recv));
  ncclDataType_t type;
  KILN_RETURN_IF_ERROR(reduceType(call, dtype, type));
  KILN_RETURN_IF_ERROR(enqueued(
      call,
      nccl_.ncclAllReduce(send, recv, count, type, ncclOp(op), comm_, stream_),
      "ncclAllReduce"));
  return wait(call);
}

Status NcclCommunicator::allGather(const void *send, void *recv,
                                   size_t countPerRank, DType dtype) {
  Call call;
  KILN_RETURN_IF_ERROR(begin(call, CollectiveOp::kAllGather, countPerRank,
                             dtype, 0, -1, send, recv));
  KILN_RETURN_IF_ERROR(
      enqueued(call,
               nccl_.ncclAllGather(send, recv, byteCount(countPerRank, dtype),
                                   ncclUint8, comm_, stream_),
               "ncclAllGather"));
  return wait(call);
}

Status NcclCommunicator::reduceScatter(const void *send, void *recv,
                                       size_t countPerRank, DType dtype,
                                       ReduceOp op) {
  Call call;
  KILN_RETURN_IF_ERROR(begin(call, CollectiveOp::kReduceScatter, countPerRank,
                             dtype, uint32_t(op), -1, send, recv));
  ncclDataType_t type;
  KILN_RETURN_IF_ERROR(reduceType(call, dtype, type));
  KILN_RETURN_IF_ERROR(
      enqueued(call,
               nccl_.ncclReduceScatter(send, recv, countPerRank, type,
                                       ncclOp(op), comm_, stream_),
               "ncclReduceScatter"));
  return wait(call);
}

Status NcclCommunicator::broadcast(const void *send, void *recv, size_t count,
                                   DType dtype, int root) {
  Call call;
  KILN_RETURN_IF_ERROR(
      begin(call, CollectiveOp::kBroadcast, count, dtype, 0, root, send, recv));
  KILN_RETURN_IF_ERROR(
      enqueued(call,
               nccl_.ncclBroadcast(rank_ == root ? send : nullptr, recv,
                                   byteCount(count, dtype), ncclUint8, root,
                                   comm_, stream_),
               "ncclBroadcast"));
  return wait(call);
}

Status NcclCommunicator::allToAll(const void *send, void *recv,
                                  size_t countPerRank, DType dtype) {
  Call call;
  KILN_RETURN_IF_ERROR(begin(call, CollectiveOp::kAllToAll, countPerRank, dtype,
                             0, -1, send, recv));
  // NCCL's all-to-all is a group of sends and receives.
  size_t bytes = byteCount(countPerRank, dtype);
  KILN_RETURN_IF_ERROR(
      enqueued(call, nccl_.ncclGroupStart(), "ncclGroupStart"));
  for (int peer = 0; peer < size_; ++peer) {
    size_t offset = bytes * size_t(peer);
    KILN_RETURN_IF_ERROR(
        enqueued(call,
                 nccl_.ncclSend(at(send, offset), bytes, ncclUint8, peer, comm_,
                                stream_),
                 "ncclSend"));
    KILN_RETURN_IF_ERROR(
        enqueued(call,
                 nccl_.ncclRecv(at(recv, offset), bytes, ncclUint8, peer, comm_,
                                stream_),
                 "ncclRecv"));
  }
  KILN_RETURN_IF_ERROR(enqueued(call, nccl_.ncclGroupEnd(), "ncclGroupEnd"));
  return wait(call);
}

Status NcclCommunicator::send(const void *buffer, size_t count, DType dtype,
                              int peer) {
  Call call;
  KILN_RETURN_IF_ERROR(
      beginPointToPoint(call, CollectiveOp::kSend, count, dtype, peer, buffer));
  KILN_RETURN_IF_ERROR(enqueued(call,
                                nccl_.ncclSend(buffer, byteCount(count, dtype),
                                               ncclUint8, peer, comm_, stream_),
                                "ncclSend"));
  return wait(call);
}

Status NcclCommunicator::recv(void *buffer, size_t count, DType dtype,
                              int peer) {
  Call call;
  KILN_RETURN_IF_ERROR(
      beginPointToPoint(call, CollectiveOp::kRecv, count, dtype, peer, buffer));
  KILN_RETURN_IF_ERROR(enqueued(call,
                                nccl_.ncclRecv(buffer, byteCount(count, dtype),
                                               ncclUint8, peer, comm_, stream_),
                                "ncclRecv"));
  return wait(call);
}

Status NcclCommunicator::barrier() {
  Call call;
  KILN_RETURN_IF_ERROR(begin(call, CollectiveOp::kBarrier, 0, DType::kU8, 0, -1,
                             nullptr, nullptr));
  // A one-element all-reduce in the scratch memory.
  void *word = reinterpret_cast<void *>(scratch_);
  KILN_RETURN_IF_ERROR(enqueued(
      call,
      nccl_.ncclAllReduce(word, word, 1, ncclUint8, ncclMax, comm_, stream_),
      "ncclAllReduce"));
  return wait(call);
}

StatusOr<std::unique_ptr<Communicator>> NcclCommunicator::split(int color,
                                                                int key) {
  Call call;
  // ncclCommSplit blocks without a deadline: the fingerprint exchange
  // first makes sure every rank is there.
  KILN_RETURN_IF_ERROR(begin(call, CollectiveOp::kSplit, 0, DType::kU8, 0, -1,
                             nullptr, nullptr, /*alwaysExchange=*/true));
  // NCCL orders the new ranks by (key, rank), as MPI_Comm_split does. Every
  // rank learns its new rank and size from an all-gather of the colors and
  // keys in the old group, before the split (ranks without a color leave
  // after it).
  struct Member {
    int32_t color, key;
  };
  Member mine{color, key};
  std::vector<Member> members(static_cast<size_t>(size_));
  KILN_RETURN_IF_ERROR(
      gatherSmall(call, &mine, sizeof(Member), members.data()));
  ncclComm_t sub = nullptr;
  KILN_RETURN_IF_ERROR(
      enqueued(call,
               nccl_.ncclCommSplit(comm_, color < 0 ? kNcclSplitNoColor : color,
                                   key, &sub, nullptr),
               "ncclCommSplit"));
  if (!sub)
    return std::unique_ptr<Communicator>();
  int newRank = 0, newSize = 0;
  for (int r = 0; r < size_; ++r) {
    const Member &m = members[size_t(r)];
    if (m.color != color)
      continue;
    ++newSize;
    if (m.key < key || (m.key == key && r < rank_))
      ++newRank;
  }
  auto made =
      create(nccl_, device_, sub, newRank, newSize, abortFlag_, options_);
  if (!made.isOk())
    return made.status();
  return std::unique_ptr<Communicator>(std::move(*made));
}

void NcclCommunicator::abort() { abortFlag_->raised = true; }

} // namespace kiln::rt

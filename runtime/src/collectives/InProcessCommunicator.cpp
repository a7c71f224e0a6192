//===- InProcessCommunicator.cpp - Collectives between rank threads -------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Every collective reads the peers' buffers directly between the two
// barriers of InProcessState.h. Reductions split the elements into one
// slice per rank: rank r reduces slice r of every send (in rank order, so
// every rank gets bitwise the same result) into its scratch, and after
// `sync` every rank copies all slices: the same work as a ring's
// reduce-scatter and all-gather, without the ring.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/InProcessGroup.h"

#include "InProcessState.h"
#include "Reduce.h"

#include <algorithm>
#include <cstring>

namespace kiln::rt {

namespace {

/// Rank r's share [begin, end) of `count` elements split over `ranks`.
std::pair<size_t, size_t> slice(size_t count, int ranks, int r) {
  size_t base = count / size_t(ranks), rest = count % size_t(ranks);
  size_t begin = base * size_t(r) + std::min(size_t(r), rest);
  return {begin, begin + base + (size_t(r) < rest ? 1 : 0)};
}

const uint8_t *bytesOf(const void *pointer) {
  return static_cast<const uint8_t *>(pointer);
}

class InProcessCommunicator final : public Communicator {
public:
  InProcessCommunicator(std::shared_ptr<InProcessGroupState> group, int rank,
                        const CommunicatorOptions &options)
      : group_(std::move(group)), rank_(rank), options_(options),
        sent_(size_t(group_->size()), 0), received_(size_t(group_->size()), 0) {
  }

  int rank() const override { return rank_; }
  int size() const override { return group_->size(); }
  const CommunicatorOptions &options() const override { return options_; }
  const char *backendName() const override { return "in-process"; }

  Status allReduce(const void *send, void *recv, size_t count, DType dtype,
                   ReduceOp op) override {
    std::vector<Posted> all;
    KILN_RETURN_IF_ERROR(start(CollectiveOp::kAllReduce, count, dtype,
                               uint32_t(op), -1, send, recv, all));
    size_t elementBytes = dtypeSize(dtype);
    auto [begin, end] = slice(count, size(), rank_);
    std::vector<uint8_t> &mine = group_->scratch(rank_);
    mine.resize((end - begin) * elementBytes);
    std::vector<const void *> inputs(all.size());
    for (size_t r = 0; r < all.size(); ++r)
      inputs[r] = bytesOf(all[r].send) + begin * elementBytes;
    reduceElements(dtype, op, inputs.data(), inputs.size(), end - begin,
                   mine.data());
    group_->sync(rank_);
    for (int r = 0; r < size(); ++r) {
      auto [from, to] = slice(count, size(), r);
      if (to > from)
        std::memcpy(static_cast<uint8_t *>(recv) + from * elementBytes,
                    group_->scratch(r).data(), (to - from) * elementBytes);
    }
    return Status::ok();
  }

  Status allGather(const void *send, void *recv, size_t countPerRank,
                   DType dtype) override {
    std::vector<Posted> all;
    KILN_RETURN_IF_ERROR(start(CollectiveOp::kAllGather, countPerRank, dtype, 0,
                               -1, send, recv, all));
    size_t bytes = byteCount(countPerRank, dtype);
    for (int r = 0; r < size(); ++r) {
      uint8_t *target = static_cast<uint8_t *>(recv) + size_t(r) * bytes;
      if (bytes && target != all[r].send)
        std::memcpy(target, all[r].send, bytes);
    }
    group_->sync(rank_);
    return Status::ok();
  }

  Status reduceScatter(const void *send, void *recv, size_t countPerRank,
                       DType dtype, ReduceOp op) override {
    std::vector<Posted> all;
    KILN_RETURN_IF_ERROR(start(CollectiveOp::kReduceScatter, countPerRank,
                               dtype, uint32_t(op), -1, send, recv, all));
    // Only this rank reads block `rank` of the sends, element by element
    // before writing it: recv may be that block of this rank's send.
    size_t bytes = byteCount(countPerRank, dtype);
    std::vector<const void *> inputs(all.size());
    for (size_t r = 0; r < all.size(); ++r)
      inputs[r] = bytesOf(all[r].send) + size_t(rank_) * bytes;
    reduceElements(dtype, op, inputs.data(), inputs.size(), countPerRank, recv);
    group_->sync(rank_);
    return Status::ok();
  }

  Status broadcast(const void *send, void *recv, size_t count, DType dtype,
                   int root) override {
    std::vector<Posted> all;
    KILN_RETURN_IF_ERROR(start(CollectiveOp::kBroadcast, count, dtype, 0, root,
                               send, recv, all));
    size_t bytes = byteCount(count, dtype);
    if (bytes && recv != all[root].send)
      std::memcpy(recv, all[root].send, bytes);
    group_->sync(rank_);
    return Status::ok();
  }

  Status allToAll(const void *send, void *recv, size_t countPerRank,
                  DType dtype) override {
    std::vector<Posted> all;
    KILN_RETURN_IF_ERROR(start(CollectiveOp::kAllToAll, countPerRank, dtype, 0,
                               -1, send, recv, all));
    size_t bytes = byteCount(countPerRank, dtype);
    for (int r = 0; r < size() && bytes; ++r)
      std::memcpy(static_cast<uint8_t *>(recv) + size_t(r) * bytes,
                  bytesOf(all[r].send) + size_t(rank_) * bytes, bytes);
    group_->sync(rank_);
    return Status::ok();
  }

  Status send(const void *buffer, size_t count, DType dtype,
              int peer) override {
    CollectiveFingerprint call =
        pointToPoint(CollectiveOp::kSend, count, dtype, peer);
    std::string name = callName(call, rank_, size());
    KILN_RETURN_IF_ERROR(checkCall(call, buffer, nullptr, rank_, size()));
    ++sent_[size_t(peer)];
    return group_->send(rank_, peer, call, buffer, deadline(), options_.timeout,
                        name);
  }

  Status recv(void *buffer, size_t count, DType dtype, int peer) override {
    CollectiveFingerprint call =
        pointToPoint(CollectiveOp::kRecv, count, dtype, peer);
    std::string name = callName(call, rank_, size());
    KILN_RETURN_IF_ERROR(checkCall(call, nullptr, buffer, rank_, size()));
    ++received_[size_t(peer)];
    return group_->recv(rank_, peer, call, buffer, byteCount(count, dtype),
                        deadline(), options_.timeout, name);
  }

  Status barrier() override {
    std::vector<Posted> all;
    return start(CollectiveOp::kBarrier, 0, DType::kU8, 0, -1, nullptr, nullptr,
                 all);
  }

  StatusOr<std::unique_ptr<Communicator>> split(int color, int key) override {
    std::vector<Posted> all;
    KILN_RETURN_IF_ERROR(start(CollectiveOp::kSplit, 0, DType::kU8, 0, -1,
                               nullptr, nullptr, all, color, key));
    std::vector<int> members; // Old ranks of this rank's color, new order.
    for (int r = 0; r < size(); ++r)
      if (color >= 0 && all[r].color == color)
        members.push_back(r);
    std::sort(members.begin(), members.end(), [&](int a, int b) {
      return std::make_pair(all[a].key, a) < std::make_pair(all[b].key, b);
    });
    int leader = members.empty()
                     ? -1
                     : *std::min_element(members.begin(), members.end());
    if (leader == rank_)
      group_->splitSlot(rank_) = std::make_shared<InProcessGroupState>(
          group_->family(), int(members.size()));
    group_->sync(rank_);
    if (color < 0)
      return std::unique_ptr<Communicator>();
    int newRank =
        int(std::find(members.begin(), members.end(), rank_) - members.begin());
    return std::unique_ptr<Communicator>(
        std::make_unique<InProcessCommunicator>(group_->splitSlot(leader),
                                                newRank, options_));
  }

  void abort() override { group_->abort(rank_); }

private:
  CommClock::time_point deadline() const {
    return CommClock::now() + options_.timeout;
  }

  CollectiveFingerprint pointToPoint(CollectiveOp op, size_t count, DType dtype,
                                     int peer) const {
    CollectiveFingerprint call;
    call.op = op;
    call.count = count;
    call.dtype = dtype;
    call.root = peer;
    if (peer >= 0 && peer < size())
      call.sequence = (op == CollectiveOp::kSend ? sent_ : received_)[peer];
    return call;
  }

  /// Checks this rank's arguments, publishes them and checks that every
  /// rank makes the same call.
  Status start(CollectiveOp op, size_t count, DType dtype, uint32_t reduce,
               int root, const void *send, void *recv, std::vector<Posted> &all,
               int color = 0, int key = 0) {
    Posted mine;
    mine.call.sequence = sequence_++;
    mine.call.op = op;
    mine.call.count = count;
    mine.call.dtype = dtype;
    mine.call.reduce = reduce;
    mine.call.root = root;
    mine.send = send;
    mine.recv = recv;
    mine.color = color;
    mine.key = key;
    std::string name = callName(mine.call, rank_, size());
    KILN_RETURN_IF_ERROR(checkCall(mine.call, send, recv, rank_, size()));
    KILN_RETURN_IF_ERROR(
        group_->exchange(rank_, mine, deadline(), options_.timeout, name, all));
    // Every rank sees the same `all`, so every rank reports the same
    // disagreement and none waits in `sync`.
    for (int r = 1; r < size(); ++r)
      if (!sameCall(all[0].call, 0, all[r].call, r))
        return mismatch(name, 0, all[0].call, r, all[r].call);
    return Status::ok();
  }

  std::shared_ptr<InProcessGroupState> group_;
  int rank_;
  CommunicatorOptions options_;
  uint64_t sequence_ = 0;
  std::vector<uint64_t> sent_, received_; ///< Per peer.
};

} // namespace

StatusOr<std::vector<std::unique_ptr<Communicator>>>
InProcessGroup::create(int ranks, const CommunicatorOptions &options) {
  if (ranks < 1 || ranks > 4096)
    return invalidArgument("an in-process group needs 1 to 4096 ranks, not " +
                           std::to_string(ranks));
  if (options.timeout.count() <= 0)
    return invalidArgument("a communicator needs a positive timeout");
  auto group = std::make_shared<InProcessGroupState>(
      std::make_shared<InProcessFamily>(), ranks);
  std::vector<std::unique_ptr<Communicator>> communicators;
  for (int r = 0; r < ranks; ++r)
    communicators.push_back(
        std::make_unique<InProcessCommunicator>(group, r, options));
  return communicators;
}

} // namespace kiln::rt

//===- FakeNccl.cpp - NCCL on host memory, for tests ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Built into libkiln_fake_cuda.so; see FakeNccl.h. The signatures come from
// the runtime's NcclApi.h so that they cannot drift from what it resolves.
//
//===----------------------------------------------------------------------===//

#include "FakeNccl.h"
#include "FakeCudaDriver.h"

#include "HalfFloat.h"
#include "nccl/NcclApi.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

using namespace kiln::rt::nccl;

namespace {

enum class Kind {
  kAllReduce,
  kAllGather,
  kReduceScatter,
  kBroadcast,
  kPointToPoint
};

/// One rank's part of an operation.
struct Post {
  int rank = 0;
  Kind kind = Kind::kAllReduce;
  const void *send = nullptr;
  void *recv = nullptr;
  size_t count = 0;
  ncclDataType_t type = ncclUint8;
  ncclRedOp_t op = ncclSum;
  int root = 0;
  void *stream = nullptr;
};

struct SplitArrival {
  int color, key;
  ncclComm_t *result;
};

struct Group {
  int size = 0;
  /// Collectives by sequence number, each with the posts so far.
  std::map<uint64_t, std::vector<Post>> collectives;
  /// Unmatched sends and receives by (sender, receiver).
  std::map<std::pair<int, int>, std::deque<Post>> sends, recvs;
  /// Splits by sequence number: the ranks arrived so far.
  std::map<uint64_t, std::map<int, SplitArrival>> splits;
  std::map<uint64_t, bool> splitDone;
};

std::mutex mutex;
std::condition_variable splitArrived;
FakeNcclState state;
std::map<void *, int> pending; ///< Incomplete posts by stream.
std::map<std::string, std::shared_ptr<Group>> groupsById;
uint64_t idsMade = 0;

/// Applies the failure injection to a call of `name` (under the mutex).
ncclResult_t enter(const char *name) {
  if (!state.failCall.empty() && state.failCall == name) {
    state.failCall.clear();
    return state.failResult;
  }
  return ncclSuccess;
}

#define ENTER(name)                                                            \
  std::lock_guard<std::mutex> lock(mutex);                                     \
  if (ncclResult_t injected = enter(name); injected != ncclSuccess)            \
  return injected

size_t typeSize(ncclDataType_t type) {
  switch (type) {
  case ncclInt8:
  case ncclUint8:
    return 1;
  case ncclFloat16:
  case ncclBfloat16:
    return 2;
  case ncclInt32:
  case ncclUint32:
  case ncclFloat32:
    return 4;
  default:
    return 8;
  }
}

template <typename T> T combine(T a, T b, ncclRedOp_t op) {
  switch (op) {
  case ncclProd:
    return T(a * b);
  case ncclMax:
    return std::max(a, b);
  case ncclMin:
    return std::min(a, b);
  default:
    return T(a + b);
  }
}

template <typename T>
void reduceTyped(void *acc, const void *x, size_t count, ncclRedOp_t op) {
  for (size_t i = 0; i < count; ++i) {
    T a, b;
    std::memcpy(&a, static_cast<char *>(acc) + i * sizeof(T), sizeof(T));
    std::memcpy(&b, static_cast<const char *>(x) + i * sizeof(T), sizeof(T));
    T c = combine(a, b, op);
    std::memcpy(static_cast<char *>(acc) + i * sizeof(T), &c, sizeof(T));
  }
}

/// Half types reduce through float, rounded at each step (as NCCL's ring).
template <float (*ToFloat)(uint16_t), uint16_t (*FromFloat)(float)>
void reduceHalf(void *acc, const void *x, size_t count, ncclRedOp_t op) {
  auto *a = static_cast<uint16_t *>(acc);
  const auto *b = static_cast<const uint16_t *>(x);
  for (size_t i = 0; i < count; ++i)
    a[i] = FromFloat(combine(ToFloat(a[i]), ToFloat(b[i]), op));
}

void reduceInto(void *acc, const void *x, size_t count, ncclDataType_t type,
                ncclRedOp_t op) {
  using namespace kiln::rt;
  switch (type) {
  case ncclInt8:
    return reduceTyped<int8_t>(acc, x, count, op);
  case ncclUint8:
    return reduceTyped<uint8_t>(acc, x, count, op);
  case ncclInt32:
    return reduceTyped<int32_t>(acc, x, count, op);
  case ncclUint32:
    return reduceTyped<uint32_t>(acc, x, count, op);
  case ncclInt64:
    return reduceTyped<int64_t>(acc, x, count, op);
  case ncclUint64:
    return reduceTyped<uint64_t>(acc, x, count, op);
  case ncclFloat16:
    return reduceHalf<f16ToFloat, floatToF16>(acc, x, count, op);
  case ncclBfloat16:
    return reduceHalf<bf16ToFloat, floatToBf16>(acc, x, count, op);
  case ncclFloat32:
    return reduceTyped<float>(acc, x, count, op);
  case ncclFloat64:
    return reduceTyped<double>(acc, x, count, op);
  }
}

/// Runs a collective every rank has posted (`posts` in rank order).
void execute(const std::vector<Post> &posts) {
  const Post &first = posts.front();
  size_t ranks = posts.size(), element = typeSize(first.type);
  size_t bytes = first.count * element;
  if (bytes == 0)
    return; // Empty buffers may be null: nothing to move.
  std::vector<char> staged;
  switch (first.kind) {
  case Kind::kAllReduce:
  case Kind::kReduceScatter: {
    size_t total = first.kind == Kind::kAllReduce ? bytes : bytes * ranks;
    staged.assign(static_cast<const char *>(first.send),
                  static_cast<const char *>(first.send) + total);
    for (size_t r = 1; r < ranks; ++r)
      reduceInto(staged.data(), posts[r].send, total / element, first.type,
                 first.op);
    for (size_t r = 0; r < ranks; ++r)
      std::memcpy(posts[r].recv,
                  staged.data() +
                      (first.kind == Kind::kAllReduce ? 0 : r * bytes),
                  bytes);
    return;
  }
  case Kind::kAllGather:
    staged.resize(bytes * ranks);
    for (size_t r = 0; r < ranks; ++r)
      std::memcpy(staged.data() + r * bytes, posts[r].send, bytes);
    for (const Post &post : posts)
      std::memcpy(post.recv, staged.data(), staged.size());
    return;
  case Kind::kBroadcast:
    staged.assign(static_cast<const char *>(posts[size_t(first.root)].send),
                  static_cast<const char *>(posts[size_t(first.root)].send) +
                      bytes);
    for (const Post &post : posts)
      std::memcpy(post.recv, staged.data(), bytes);
    return;
  case Kind::kPointToPoint:
    return; // Matched pairwise instead (matchPointToPoint).
  }
}

} // namespace

struct kiln::rt::nccl::ncclComm {
  std::shared_ptr<Group> group;
  int rank = 0;
  uint64_t sequence = 0, splits = 0;
};

namespace {

ncclComm_t makeComm(std::shared_ptr<Group> group, int rank) {
  ++state.liveComms;
  return new ncclComm{std::move(group), rank};
}

ncclResult_t postCollective(ncclComm_t comm, Post post) {
  if (!comm)
    return ncclInvalidArgument;
  // A rank's k-th collective meets the other ranks' k-th.
  post.rank = comm->rank;
  uint64_t sequence = comm->sequence++;
  std::vector<Post> &posts = comm->group->collectives[sequence];
  posts.push_back(post);
  ++pending[post.stream];
  if (int(posts.size()) < comm->group->size)
    return ncclSuccess;
  std::sort(posts.begin(), posts.end(),
            [](const Post &a, const Post &b) { return a.rank < b.rank; });
  execute(posts);
  for (const Post &done : posts)
    --pending[done.stream];
  ++state.completed;
  comm->group->collectives.erase(sequence);
  return ncclSuccess;
}

void matchPointToPoint(Group &group, std::pair<int, int> pair) {
  auto &sends = group.sends[pair];
  auto &recvs = group.recvs[pair];
  while (!sends.empty() && !recvs.empty()) {
    Post send = sends.front(), recv = recvs.front();
    sends.pop_front();
    recvs.pop_front();
    if (size_t bytes = std::min(send.count, recv.count) * typeSize(send.type))
      std::memcpy(recv.recv, send.send, bytes);
    --pending[send.stream];
    --pending[recv.stream];
    ++state.completed;
  }
}

/// Removes `rank`'s posts from `posts`; their streams drain.
template <typename Posts> void dropPostsOf(int rank, Posts &posts) {
  posts.erase(std::remove_if(posts.begin(), posts.end(),
                             [&](const Post &p) {
                               if (p.rank != rank)
                                 return false;
                               --pending[p.stream];
                               return true;
                             }),
              posts.end());
}

} // namespace

int fakeNcclPendingOn(void *stream) {
  std::lock_guard<std::mutex> lock(mutex);
  auto found = pending.find(stream);
  return found == pending.end() ? 0 : found->second;
}

extern "C" {

FakeNcclState *kilnFakeNcclState() { return &state; }

ncclResult_t ncclGetVersion(int *version) {
  ENTER("ncclGetVersion");
  *version = state.version;
  return ncclSuccess;
}

ncclResult_t ncclGetUniqueId(ncclUniqueId *id) {
  ENTER("ncclGetUniqueId");
  std::memset(id, 0, sizeof(*id));
  std::string text = "fake-nccl-" + std::to_string(++idsMade);
  std::memcpy(id->internal, text.data(), text.size());
  return ncclSuccess;
}

ncclResult_t ncclCommInitRank(ncclComm_t *comm, int ranks, ncclUniqueId id,
                              int rank) {
  ENTER("ncclCommInitRank");
  ++state.initRankCalls;
  if (ranks < 1 || rank < 0 || rank >= ranks)
    return ncclInvalidArgument;
  std::shared_ptr<Group> &group =
      groupsById[std::string(id.internal, sizeof(id.internal))];
  if (!group) {
    group = std::make_shared<Group>();
    group->size = ranks;
  }
  if (group->size != ranks)
    return ncclInvalidArgument;
  *comm = makeComm(group, rank);
  return ncclSuccess;
}

ncclResult_t ncclCommInitAll(ncclComm_t *comms, int devices, const int *) {
  ENTER("ncclCommInitAll");
  ++state.initAllCalls;
  auto group = std::make_shared<Group>();
  group->size = devices;
  for (int r = 0; r < devices; ++r)
    comms[r] = makeComm(group, r);
  return ncclSuccess;
}

ncclResult_t ncclCommDestroy(ncclComm_t comm) {
  ENTER("ncclCommDestroy");
  ++state.destroys;
  --state.liveComms;
  delete comm;
  return ncclSuccess;
}

ncclResult_t ncclCommAbort(ncclComm_t comm) {
  std::lock_guard<std::mutex> lock(mutex);
  ++state.aborts;
  --state.liveComms;
  // What this rank had enqueued ends (its stream drains); its peers keep
  // waiting, as on GPUs, until their own deadline or abort.
  Group &group = *comm->group;
  for (auto &[sequence, posts] : group.collectives)
    dropPostsOf(comm->rank, posts);
  for (auto *queues : {&group.sends, &group.recvs})
    for (auto &[pair, queue] : *queues)
      dropPostsOf(comm->rank, queue);
  delete comm;
  return ncclSuccess;
}

ncclResult_t ncclCommSplit(ncclComm_t comm, int color, int key,
                           ncclComm_t *result, ncclConfig *) {
  std::unique_lock<std::mutex> lock(mutex);
  if (ncclResult_t injected = enter("ncclCommSplit"); injected != ncclSuccess)
    return injected;
  ++state.splitCalls;
  Group &group = *comm->group;
  uint64_t sequence = comm->splits++;
  auto &arrivals = group.splits[sequence];
  arrivals[comm->rank] = {color, key, result};
  if (int(arrivals.size()) == group.size) {
    // Every rank is here: one new group per color, ordered by (key, rank).
    std::map<int, std::vector<std::pair<int, int>>> byColor;
    for (auto &[rank, arrival] : arrivals) {
      *arrival.result = nullptr;
      if (arrival.color != kNcclSplitNoColor)
        byColor[arrival.color].push_back({arrival.key, rank});
    }
    for (auto &[c, members] : byColor) {
      std::sort(members.begin(), members.end());
      auto made = std::make_shared<Group>();
      made->size = int(members.size());
      for (size_t i = 0; i < members.size(); ++i)
        *arrivals[members[i].second].result = makeComm(made, int(i));
    }
    group.splitDone[sequence] = true;
    splitArrived.notify_all();
    return ncclSuccess;
  }
  splitArrived.wait(lock, [&] { return group.splitDone[sequence]; });
  return ncclSuccess;
}

ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t *error) {
  ENTER("ncclCommGetAsyncError");
  *error =
      state.asyncError != ncclSuccess &&
              (state.asyncErrorRank < 0 || state.asyncErrorRank == comm->rank)
          ? state.asyncError
          : ncclSuccess;
  return ncclSuccess;
}

ncclResult_t ncclAllReduce(const void *send, void *recv, size_t count,
                           ncclDataType_t type, ncclRedOp_t op, ncclComm_t comm,
                           cudaStream_t stream) {
  ENTER("ncclAllReduce");
  return postCollective(
      comm, {0, Kind::kAllReduce, send, recv, count, type, op, 0, stream});
}

ncclResult_t ncclBroadcast(const void *send, void *recv, size_t count,
                           ncclDataType_t type, int root, ncclComm_t comm,
                           cudaStream_t stream) {
  ENTER("ncclBroadcast");
  return postCollective(comm, {0, Kind::kBroadcast, send, recv, count, type,
                               ncclSum, root, stream});
}

ncclResult_t ncclReduceScatter(const void *send, void *recv,
                               size_t countPerRank, ncclDataType_t type,
                               ncclRedOp_t op, ncclComm_t comm,
                               cudaStream_t stream) {
  ENTER("ncclReduceScatter");
  return postCollective(comm, {0, Kind::kReduceScatter, send, recv,
                               countPerRank, type, op, 0, stream});
}

ncclResult_t ncclAllGather(const void *send, void *recv, size_t countPerRank,
                           ncclDataType_t type, ncclComm_t comm,
                           cudaStream_t stream) {
  ENTER("ncclAllGather");
  return postCollective(comm, {0, Kind::kAllGather, send, recv, countPerRank,
                               type, ncclSum, 0, stream});
}

ncclResult_t ncclSend(const void *send, size_t count, ncclDataType_t type,
                      int peer, ncclComm_t comm, cudaStream_t stream) {
  ENTER("ncclSend");
  if (peer < 0 || peer >= comm->group->size)
    return ncclInvalidArgument;
  comm->group->sends[{comm->rank, peer}].push_back(
      {comm->rank, Kind::kPointToPoint, send, nullptr, count, type, ncclSum, 0,
       stream});
  ++pending[stream];
  matchPointToPoint(*comm->group, {comm->rank, peer});
  return ncclSuccess;
}

ncclResult_t ncclRecv(void *recv, size_t count, ncclDataType_t type, int peer,
                      ncclComm_t comm, cudaStream_t stream) {
  ENTER("ncclRecv");
  if (peer < 0 || peer >= comm->group->size)
    return ncclInvalidArgument;
  comm->group->recvs[{peer, comm->rank}].push_back(
      {comm->rank, Kind::kPointToPoint, nullptr, recv, count, type, ncclSum, 0,
       stream});
  ++pending[stream];
  matchPointToPoint(*comm->group, {peer, comm->rank});
  return ncclSuccess;
}

ncclResult_t ncclGroupStart() {
  ENTER("ncclGroupStart");
  return ncclSuccess;
}

ncclResult_t ncclGroupEnd() {
  ENTER("ncclGroupEnd");
  return ncclSuccess;
}

const char *ncclGetErrorString(ncclResult_t result) {
  switch (result) {
  case ncclRemoteError:
    return "remote process exited or there was a network error";
  case ncclInvalidArgument:
    return "invalid argument";
  default:
    return "fake NCCL error";
  }
}

} // extern "C"

//===- InProcessState.h - Where rank threads meet ----------------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A family (a world and every group split from it) shares one lock, one
// condition variable and one "broken" status: an abort or a missed
// deadline anywhere fails every blocked and later call in the family.
//
// A collective is two barriers. `exchange` publishes each rank's arguments
// (bounded by the deadline; a broken family fails it); then each rank reads
// the others' buffers; then `sync` waits until every rank has finished
// reading. `sync` ignores the deadline and the broken status on purpose:
// every rank past `exchange` reaches it without blocking, and leaving
// early would free buffers a peer is still reading.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_COLLECTIVES_INPROCESSSTATE_H
#define KILN_RUNTIME_COLLECTIVES_INPROCESSSTATE_H

#include "CollectiveCall.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace kiln::rt {

struct InProcessFamily {
  std::mutex mutex;
  std::condition_variable changed;
  Status broken; ///< OK while the family is usable.
};

/// What a rank publishes in `exchange`.
struct Posted {
  CollectiveFingerprint call;
  const void *send = nullptr;
  void *recv = nullptr;
  int color = 0; ///< split only.
  int key = 0;
};

class InProcessGroupState {
public:
  InProcessGroupState(std::shared_ptr<InProcessFamily> family, int size);

  int size() const { return size_; }
  const std::shared_ptr<InProcessFamily> &family() const { return family_; }

  /// Publishes `mine` and waits until every rank has; `all[r]` is what rank
  /// r published. kDeadlineExceeded (naming the ranks that are missing) at
  /// `deadline`; the family's broken status when it is or becomes broken.
  Status exchange(int rank, const Posted &mine, CommClock::time_point deadline,
                  std::chrono::milliseconds timeout, const std::string &name,
                  std::vector<Posted> &all);
  /// Waits until every rank has arrived (see the file comment).
  void sync(int rank);

  /// Hands `bytes` at `data` to rank `to` and waits until it has copied
  /// them (or the deadline passes, or the family breaks).
  Status send(int from, int to, const CollectiveFingerprint &call,
              const void *data, CommClock::time_point deadline,
              std::chrono::milliseconds timeout, const std::string &name);
  /// Copies what rank `from` sends into `data` (`bytes` bytes).
  Status recv(int to, int from, const CollectiveFingerprint &call, void *data,
              size_t bytes, CommClock::time_point deadline,
              std::chrono::milliseconds timeout, const std::string &name);

  /// Breaks the family with kAborted (kept if it already was aborted).
  void abort(int rank);

  /// Rank `rank`'s scratch: it writes it between exchange and sync, the
  /// others read it after sync and before their next exchange.
  std::vector<uint8_t> &scratch(int rank) { return scratch_[rank]; }
  /// Where the leader of a split publishes the new group (same rules).
  std::shared_ptr<InProcessGroupState> &splitSlot(int rank) {
    return splitSlots_[rank];
  }

private:
  /// The family's broken status, for call `name`; the lock is held.
  Status brokenFor(const std::string &name) const;
  /// Breaks the family with a deadline for `name`, naming `missing`.
  Status missedDeadline(const std::string &name,
                        std::chrono::milliseconds timeout,
                        const std::string &missing);
  /// Arrives at the barrier; `mine` and `all` are null for sync, which
  /// also passes no deadline.
  Status arrive(int rank, const Posted *mine,
                const CommClock::time_point *deadline,
                std::chrono::milliseconds timeout, const std::string &name,
                std::vector<Posted> *all);

  std::shared_ptr<InProcessFamily> family_;
  int size_;
  // Guarded by family_->mutex.
  std::vector<Posted> posted_, snapshot_;
  std::vector<bool> arrived_;
  int arrivedCount_ = 0;
  std::atomic<uint64_t> generation_{0};
  enum class Box { kEmpty, kPosted, kTaking, kTaken };
  struct Mailbox {
    Box state = Box::kEmpty;
    const void *data = nullptr;
    CollectiveFingerprint call;
    Status verdict;
  };
  std::vector<Mailbox> mailboxes_; ///< [from * size + to].
  // Owned by one rank each (see above).
  std::vector<std::vector<uint8_t>> scratch_;
  std::vector<std::shared_ptr<InProcessGroupState>> splitSlots_;
};

} // namespace kiln::rt

#endif // KILN_RUNTIME_COLLECTIVES_INPROCESSSTATE_H

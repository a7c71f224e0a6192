//===- InProcessState.cpp - Where rank threads meet -----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "InProcessState.h"

#include <cstring>
#include <thread>

namespace kiln::rt {

namespace {
/// Yields this often before sleeping on the condition variable: a peer
/// that is a few microseconds behind costs no futex round trip.
constexpr int kSpins = 64;

std::string ms(std::chrono::milliseconds timeout) {
  return std::to_string(timeout.count()) + " ms";
}
} // namespace

InProcessGroupState::InProcessGroupState(
    std::shared_ptr<InProcessFamily> family, int size)
    : family_(std::move(family)), size_(size), posted_(size), snapshot_(size),
      arrived_(size, false), mailboxes_(size_t(size) * size), scratch_(size),
      splitSlots_(size) {}

Status InProcessGroupState::brokenFor(const std::string &name) const {
  return Status(family_->broken.code(),
                name + ": " + family_->broken.message());
}

Status InProcessGroupState::missedDeadline(const std::string &name,
                                           std::chrono::milliseconds timeout,
                                           const std::string &missing) {
  family_->broken = deadlineExceeded(name + " gave up after " + ms(timeout) +
                                     " waiting for " + missing);
  family_->changed.notify_all();
  return deadlineExceeded(name + ": deadline exceeded after " + ms(timeout) +
                          " waiting for " + missing);
}

Status InProcessGroupState::arrive(int rank, const Posted *mine,
                                   const CommClock::time_point *deadline,
                                   std::chrono::milliseconds timeout,
                                   const std::string &name,
                                   std::vector<Posted> *all) {
  std::unique_lock<std::mutex> lock(family_->mutex);
  if (deadline && !family_->broken.isOk())
    return brokenFor(name);
  if (mine)
    posted_[rank] = *mine;
  uint64_t generation = generation_.load(std::memory_order_relaxed);
  arrived_[rank] = true;
  if (++arrivedCount_ == size_) {
    if (all)
      *all = snapshot_ = posted_;
    arrivedCount_ = 0;
    arrived_.assign(size_t(size_), false);
    generation_.store(generation + 1, std::memory_order_release);
    lock.unlock();
    family_->changed.notify_all();
    return Status::ok();
  }
  lock.unlock();
  for (int spin = 0; spin < kSpins &&
                     generation_.load(std::memory_order_acquire) == generation;
       ++spin)
    std::this_thread::yield();
  lock.lock();
  while (generation_.load(std::memory_order_relaxed) == generation) {
    if (!deadline) {
      family_->changed.wait(lock);
      continue;
    }
    if (!family_->broken.isOk()) {
      // Withdraw: the others will not complete this barrier either.
      arrived_[rank] = false;
      --arrivedCount_;
      return brokenFor(name);
    }
    if (family_->changed.wait_until(lock, *deadline) ==
            std::cv_status::timeout &&
        generation_.load(std::memory_order_relaxed) == generation &&
        family_->broken.isOk()) {
      std::string missing;
      int count = 0;
      for (int r = 0; r < size_; ++r)
        if (!arrived_[r])
          missing += (count++ ? ", " : "") + std::to_string(r);
      arrived_[rank] = false;
      --arrivedCount_;
      return missedDeadline(name, timeout,
                            (count == 1 ? "rank " : "ranks ") + missing);
    }
  }
  if (all)
    *all = snapshot_;
  return Status::ok();
}

Status InProcessGroupState::exchange(int rank, const Posted &mine,
                                     CommClock::time_point deadline,
                                     std::chrono::milliseconds timeout,
                                     const std::string &name,
                                     std::vector<Posted> &all) {
  return arrive(rank, &mine, &deadline, timeout, name, &all);
}

void InProcessGroupState::sync(int rank) {
  (void)arrive(rank, nullptr, nullptr, std::chrono::milliseconds(0), "",
               nullptr);
}

Status InProcessGroupState::send(int from, int to,
                                 const CollectiveFingerprint &call,
                                 const void *data,
                                 CommClock::time_point deadline,
                                 std::chrono::milliseconds timeout,
                                 const std::string &name) {
  std::unique_lock<std::mutex> lock(family_->mutex);
  if (!family_->broken.isOk())
    return brokenFor(name);
  Mailbox &box = mailboxes_[size_t(from) * size_ + to];
  box.state = Box::kPosted;
  box.data = data;
  box.call = call;
  box.verdict = Status::ok();
  family_->changed.notify_all();
  while (box.state != Box::kTaken) {
    // Once the receiver is copying, it finishes without blocking: wait for
    // it whatever happens, or it would read a buffer this rank gave back.
    if (box.state == Box::kTaking) {
      family_->changed.wait(lock);
      continue;
    }
    if (!family_->broken.isOk()) {
      box.state = Box::kEmpty;
      return brokenFor(name);
    }
    if (family_->changed.wait_until(lock, deadline) ==
            std::cv_status::timeout &&
        box.state == Box::kPosted && family_->broken.isOk()) {
      box.state = Box::kEmpty;
      return missedDeadline(name, timeout,
                            "rank " + std::to_string(to) + " to receive");
    }
  }
  box.state = Box::kEmpty;
  return box.verdict;
}

Status InProcessGroupState::recv(int to, int from,
                                 const CollectiveFingerprint &call, void *data,
                                 size_t bytes, CommClock::time_point deadline,
                                 std::chrono::milliseconds timeout,
                                 const std::string &name) {
  std::unique_lock<std::mutex> lock(family_->mutex);
  Mailbox &box = mailboxes_[size_t(from) * size_ + to];
  while (box.state != Box::kPosted) {
    if (!family_->broken.isOk())
      return brokenFor(name);
    if (family_->changed.wait_until(lock, deadline) ==
            std::cv_status::timeout &&
        box.state != Box::kPosted && family_->broken.isOk())
      return missedDeadline(name, timeout,
                            "rank " + std::to_string(from) + " to send");
  }
  if (!sameCall(call, to, box.call, from)) {
    box.verdict =
        mismatch(callName(box.call, from, size_), from, box.call, to, call);
    box.state = Box::kTaken;
    family_->changed.notify_all();
    return mismatch(name, to, call, from, box.call);
  }
  box.state = Box::kTaking;
  const void *source = box.data;
  lock.unlock();
  if (bytes)
    std::memcpy(data, source, bytes);
  lock.lock();
  box.state = Box::kTaken;
  family_->changed.notify_all();
  return Status::ok();
}

void InProcessGroupState::abort(int rank) {
  std::lock_guard<std::mutex> lock(family_->mutex);
  if (family_->broken.code() == StatusCode::kAborted)
    return;
  family_->broken = aborted("rank " + std::to_string(rank) + " of " +
                            std::to_string(size_) + " aborted the group");
  family_->changed.notify_all();
}

} // namespace kiln::rt

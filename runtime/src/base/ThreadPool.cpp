//===- ThreadPool.cpp - Worker threads that run ranges of work ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Idle threads spin briefly before they sleep: a model's dispatches follow
// each other within microseconds, and a worker woken through the condition
// variable would start each one late.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/ThreadPool.h"

#include <map>
#include <sched.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace kiln::rt {

namespace {
/// Polls of an empty queue before a worker sleeps (about 50 us).
constexpr unsigned kSpinsBeforeSleep = 20000;

void pause() {
#if defined(__x86_64__)
  _mm_pause();
#endif
}
} // namespace

ThreadPool::ThreadPool(unsigned threads) {
  for (unsigned i = 1; i < threads; ++i)
    workers_.emplace_back([this] { work(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread &worker : workers_)
    worker.join();
}

void ThreadPool::submit(const Task *tasks, size_t count) {
  if (count == 0)
    return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.insert(queue_.end(), tasks, tasks + count);
    queued_.store(queue_.size(), std::memory_order_release);
  }
  tasksQueued_.fetch_add(count, std::memory_order_relaxed);
  if (count == 1)
    wake_.notify_one();
  else
    wake_.notify_all();
}

bool ThreadPool::runOne() {
  if (queued_.load(std::memory_order_acquire) == 0)
    return false;
  Task task;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (queue_.empty())
      return false;
    task = queue_.front();
    queue_.pop_front();
    queued_.store(queue_.size(), std::memory_order_release);
  }
  task.run(task.context, task.begin, task.end);
  return true;
}

void ThreadPool::backOff(unsigned idle) {
  if (idle < 1000)
    pause();
  else
    std::this_thread::yield();
}

void ThreadPool::work() {
  for (;;) {
    if (runOne())
      continue;
    unsigned spins = 0;
    while (queued_.load(std::memory_order_acquire) == 0 &&
           spins < kSpinsBeforeSleep) {
      pause();
      ++spins;
    }
    if (spins < kSpinsBeforeSleep)
      continue;
    std::unique_lock<std::mutex> lock(mutex_);
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_ && queue_.empty())
      return;
  }
}

std::shared_ptr<ThreadPool> ThreadPool::shared(unsigned threads) {
  static std::mutex mutex;
  static std::map<unsigned, std::shared_ptr<ThreadPool>> pools;
  threads = threads == 0 ? 1 : threads;
  std::lock_guard<std::mutex> lock(mutex);
  std::shared_ptr<ThreadPool> &pool = pools[threads];
  if (!pool)
    pool = std::make_shared<ThreadPool>(threads);
  return pool;
}

unsigned ThreadPool::availableThreads() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    int count = CPU_COUNT(&set);
    if (count > 0)
      return unsigned(count);
  }
  unsigned hardware = std::thread::hardware_concurrency();
  return hardware == 0 ? 1 : hardware;
}

} // namespace kiln::rt

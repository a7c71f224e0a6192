//===- ThreadPool.h - Worker threads that run ranges of work ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The CPU runtime's workers. A pool of N threads is N - 1 worker threads
// plus whichever thread waits on a job: callers take part in the work
// instead of sleeping, so a pool of 1 is just the calling thread. Threads
// are created once, with the pool, and reused by every job; several host
// threads may submit jobs to one pool at once (tasks of all jobs share one
// queue). Thread-safe.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_THREADPOOL_H
#define KILN_RUNTIME_THREADPOOL_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace kiln::rt {

/// A unit of work: `run(context, begin, end)`.
struct Task {
  void (*run)(void *context, uint64_t begin, uint64_t end) = nullptr;
  void *context = nullptr;
  uint64_t begin = 0;
  uint64_t end = 0;
};

class ThreadPool {
public:
  /// A pool of `threads` threads in all (at least 1): `threads - 1` workers.
  explicit ThreadPool(unsigned threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  /// Threads that run tasks, the waiting caller included.
  unsigned threads() const { return unsigned(workers_.size()) + 1; }

  /// Queues tasks for any thread of the pool.
  void submit(const Task *tasks, size_t count);

  /// Tasks queued since the pool was made (each one a hand-over between
  /// threads, which work run directly by the thread at hand avoids).
  uint64_t tasksQueued() const {
    return tasksQueued_.load(std::memory_order_relaxed);
  }

  /// Runs one queued task on the calling thread; false when none was queued.
  bool runOne();

  /// Runs queued tasks on the calling thread until `done()` holds (it is
  /// polled between tasks and while the queue is empty).
  template <typename Done> void helpUntil(Done done) {
    unsigned idle = 0;
    while (!done()) {
      if (runOne()) {
        idle = 0;
        continue;
      }
      backOff(idle++);
    }
  }

  /// The process's pool of `threads` threads, created on first use and kept
  /// for the life of the process.
  static std::shared_ptr<ThreadPool> shared(unsigned threads);

  /// The threads this process may run on (its CPU affinity), at least 1.
  static unsigned availableThreads();

private:
  void work();
  static void backOff(unsigned idle);

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Task> queue_;
  /// Tasks in the queue, read without the lock by spinning threads.
  std::atomic<size_t> queued_{0};
  std::atomic<uint64_t> tasksQueued_{0};
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

} // namespace kiln::rt

#endif // KILN_RUNTIME_THREADPOOL_H

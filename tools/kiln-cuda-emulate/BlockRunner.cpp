//===- BlockRunner.cpp - Run a kernel's grid on CPU threads ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "BlockRunner.h"

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace kiln::emu {

namespace {

constexpr unsigned kWarp = 32;

/// A reusable barrier from which finished threads can drop out (a thread
/// that has left the kernel must not hold the others' __syncthreads()).
/// `onPhase` runs in the last arriving thread before anyone is released.
class Barrier {
public:
  explicit Barrier(unsigned count, std::function<void()> onPhase = {})
      : expected_(count), waiting_(count), onPhase_(std::move(onPhase)) {}

  void arriveAndWait() {
    std::unique_lock<std::mutex> lock(mutex_);
    uint64_t phase = phase_;
    if (arrive())
      return;
    released_.wait(lock, [&] { return phase_ != phase; });
  }

  void arriveAndDrop() {
    std::unique_lock<std::mutex> lock(mutex_);
    --expected_;
    arrive();
  }

private:
  /// With the lock held; true when this arrival completed the phase.
  bool arrive() {
    if (--waiting_ != 0)
      return false;
    if (onPhase_)
      onPhase_();
    waiting_ = expected_;
    ++phase_;
    released_.notify_all();
    return true;
  }

  std::mutex mutex_;
  std::condition_variable released_;
  unsigned expected_, waiting_;
  uint64_t phase_ = 0;
  std::function<void()> onPhase_;
};

/// What the threads of the running block share.
struct BlockState {
  unsigned threads = 0;
  std::unique_ptr<Barrier> block;
  std::vector<std::unique_ptr<Barrier>> warps;
  /// Per thread: the value its last shuffle published.
  std::vector<uint64_t> slots;

  /// Fresh barriers for the next block (every thread is waiting between
  /// blocks then, so none is inside a barrier being replaced).
  void reset() {
    block = std::make_unique<Barrier>(threads);
    for (size_t w = 0; w < warps.size(); ++w)
      warps[w] = std::make_unique<Barrier>(
          std::min(kWarp, threads - unsigned(w) * kWarp));
  }
};

thread_local BlockState *current = nullptr;
thread_local unsigned linearThread = 0;

[[noreturn]] void fatal(const char *what) {
  std::fprintf(stderr, "kiln-cuda-emulate: error: %s\n", what);
  std::fflush(stderr);
  std::abort();
}

void syncthreads() {
  if (!current)
    fatal("__syncthreads() in a kernel run without threads");
  current->block->arriveAndWait();
}

uint64_t shuffleXor(uint64_t value, int laneMask, int width) {
  if (!current)
    fatal("__shfl_xor_sync() in a kernel run without threads");
  unsigned warp = linearThread / kWarp, lane = linearThread % kWarp;
  unsigned from = lane ^ unsigned(laneMask);
  // Outside the caller's segment of `width` lanes: its own value.
  if (width <= 0 || from >= kWarp ||
      from / unsigned(width) != lane / unsigned(width))
    from = lane;
  uint64_t *slots = current->slots.data() + warp * kWarp;
  slots[lane] = value;
  current->warps[warp]->arriveAndWait(); // every lane published
  uint64_t result = slots[from];
  current->warps[warp]->arriveAndWait(); // every lane read: slots reusable
  return result;
}

void setIndex(unsigned *index, unsigned linear, const uint32_t *extent) {
  index[0] = linear % extent[0];
  index[1] = linear / extent[0] % extent[1];
  index[2] = linear / extent[0] / extent[1];
}

} // namespace

const Hooks &hooks() {
  static const Hooks hooks{&syncthreads, &shuffleXor};
  return hooks;
}

void launch(KernelEntry entry, void **args, const uint32_t grid[3],
            const uint32_t block[3], bool threaded) {
  const unsigned blocks = grid[0] * grid[1] * grid[2];
  const unsigned threads = block[0] * block[1] * block[2];
  if (blocks == 0 || threads == 0)
    return;
  unsigned ids[12];
  std::copy(block, block + 3, ids + 6);
  std::copy(grid, grid + 3, ids + 9);
  if (!threaded) {
    // No communication between threads: any order gives the same result.
    for (unsigned b = 0; b < blocks; ++b) {
      setIndex(ids + 3, b, grid);
      for (unsigned t = 0; t < threads; ++t) {
        setIndex(ids, t, block);
        linearThread = t;
        entry(args, ids);
      }
    }
    return;
  }

  BlockState state;
  state.threads = threads;
  state.warps.resize((threads + kWarp - 1) / kWarp);
  state.slots.resize(state.warps.size() * kWarp);
  state.reset();
  Barrier between(threads, [&] { state.reset(); });
  auto body = [&](unsigned t) {
    current = &state;
    linearThread = t;
    unsigned mine[12];
    std::copy(ids, ids + 12, mine);
    setIndex(mine, t, block);
    for (unsigned b = 0; b < blocks; ++b) {
      setIndex(mine + 3, b, grid);
      entry(args, mine);
      // A finished thread no longer holds back the others' barriers.
      state.warps[t / kWarp]->arriveAndDrop();
      state.block->arriveAndDrop();
      between.arriveAndWait();
    }
    current = nullptr;
  };
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back(body, t);
  for (std::thread &thread : pool)
    thread.join();
}

} // namespace kiln::emu

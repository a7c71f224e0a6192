//===- BlockRunner.cpp - Run a kernel's grid on the CPU -------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// _longjmp between fiber stacks is what this file does on purpose; the
// fortified longjmp would take it for stack corruption.
#undef _FORTIFY_SOURCE

#include "BlockRunner.h"
#include "SharedChecker.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <random>
#include <setjmp.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <vector>

namespace kiln::emu {

namespace {

constexpr unsigned kWarp = 32;
/// Kernels keep small arrays on the stack (WMMA tiles are 1 KiB each).
constexpr size_t kStackBytes = 256 * 1024;
/// One shared-memory access in this many hands the CPU to another thread.
constexpr uint64_t kSwitchEvery = 8;

/// A fiber's stack, with an inaccessible page below it so that an overflow
/// faults instead of corrupting the neighbour.
class Stack {
public:
  Stack() {
    base_ = mmap(nullptr, kStackBytes + kGuard, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base_ == MAP_FAILED) {
      std::fprintf(stderr, "kiln-cuda-emulate: error: no memory for a "
                           "thread's stack\n");
      std::exit(4);
    }
    mprotect(base_, kGuard, PROT_NONE);
  }
  ~Stack() { munmap(base_, kStackBytes + kGuard); }
  Stack(const Stack &) = delete;
  Stack &operator=(const Stack &) = delete;
  void *bottom() const { return static_cast<char *>(base_) + kGuard; }

private:
  static constexpr size_t kGuard = 4096;
  void *base_;
};

enum class Wait { kNone, kBarrier, kShuffle, kDone };

/// A CUDA thread. It starts with setcontext (a fresh stack) and switches
/// with _setjmp/_longjmp afterwards: swapcontext saves the signal mask with
/// a system call on every switch, which dominated the run time.
struct Fiber {
  ucontext_t start;
  jmp_buf resume;
  bool started = false;
  std::unique_ptr<Stack> stack;
  unsigned ids[12];
  Wait wait = Wait::kNone;
  /// Source line of the barrier or shuffle it waits at.
  int line = 0;
  uint64_t value = 0, result = 0;
  int laneMask = 0, width = kWarp;
};

std::string dims(const unsigned *v) {
  return "(" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," +
         std::to_string(v[2]) + ")";
}

/// The launch being run (hooks are plain function pointers, and the
/// whole grid runs on the calling OS thread).
struct Run {
  Run(const Launch &launch, const Library &library, SharedChecker &checker,
      unsigned threads, std::vector<Fiber> &fibers)
      : launch(launch), library(library), checker(checker), threads(threads),
        rng(launch.seed), fibers(fibers) {}

  const Launch &launch;
  Library library;
  SharedChecker &checker;
  unsigned threads;
  std::mt19937_64 rng;
  std::vector<Fiber> &fibers;
  std::vector<unsigned> runnable;
  std::vector<unsigned> shuffleArrivals;
  unsigned barrierArrivals = 0;
  /// The running CUDA thread (linear index), or -1 between threads.
  int current = -1;
  unsigned blockIds[3] = {0, 0, 0};
  jmp_buf scheduler;
  std::string error;

  std::string where(int thread) const {
    std::string text = "kernel " + *launch.kernel + ", block " + dims(blockIds);
    if (thread >= 0)
      text += ", thread " + dims(fibers[thread].ids);
    return text + ": ";
  }
  std::string thread(int t) const {
    return t < 0 ? std::string("another thread")
                 : "thread " + dims(fibers[t].ids);
  }
};

Run *active = nullptr;
// Fibers and checker outlive launches: stacks are costly to map.
std::vector<Fiber> fiberPool;
SharedChecker checker;
Library attached{};

/// Back to the scheduler; returns when the scheduler resumes this thread.
void switchOut() {
  Fiber &self = active->fibers[active->current];
  if (_setjmp(self.resume) == 0)
    _longjmp(active->scheduler, 1);
}

/// Ends the launch with `message`; the thread is never resumed.
[[noreturn]] void fail(std::string message) {
  if (!active || active->current < 0 || !active->launch.threaded) {
    // No fiber to abandon (a kernel the tool judged not to synchronise).
    std::fprintf(stderr, "kilnc: error: %s\n", message.c_str());
    std::fflush(stderr);
    std::_Exit(6);
  }
  active->error = std::move(message);
  switchOut();
  std::abort(); // unreachable: a failed launch resumes no thread
}

void fiberMain() {
  Run &run = *active;
  Fiber &self = run.fibers[run.current];
  run.launch.entry(run.launch.args, self.ids);
  self.wait = Wait::kDone;
  _longjmp(run.scheduler, 1); // never returns: nothing to return to
}

/// Runs thread `t` until it switches out, waits or ends.
void resume(Run &run, unsigned t) {
  Fiber &f = run.fibers[t];
  if (_setjmp(run.scheduler) != 0)
    return;
  if (f.started)
    _longjmp(f.resume, 1);
  f.started = true;
  setcontext(&f.start);
}

/// The message for `finding`.
std::string describe(const Run &run, const SharedFinding &finding) {
  std::string at = " (byte " + std::to_string(finding.offset) +
                   " of the __shared__ segment)";
  if (finding.kind == SharedFinding::Kind::kUninitialisedRead)
    return run.where(finding.thread) +
           "reads __shared__ memory that no thread of the block wrote before "
           "it" +
           at;
  return run.where(finding.thread) + "data race on __shared__ memory" + at +
         ": " + (finding.wrote ? "writes" : "reads") + " what " +
         run.thread(finding.otherThread) +
         (finding.otherWrote ? " wrote" : " read") +
         " with no __syncthreads() between";
}

void syncthreads(int line) {
  if (!active || !active->launch.threaded)
    fail((active ? active->where(active->current) : std::string()) +
         "__syncthreads() in a kernel run without threads");
  Run &run = *active;
  Fiber &self = run.fibers[run.current];
  self.wait = Wait::kBarrier;
  self.line = line;
  if (++run.barrierArrivals < run.threads)
    return switchOut();
  // Everyone is here; on a GPU, threads at different __syncthreads() calls
  // would hang or pass each other's barrier (undefined behaviour).
  for (unsigned t = 0; t < run.threads; ++t)
    if (run.fibers[t].line != line)
      fail(run.where(-1) + "divergent __syncthreads(): " + run.thread(t) +
           " waits at line " + std::to_string(run.fibers[t].line) + ", " +
           run.thread(run.current) + " at line " + std::to_string(line));
  run.barrierArrivals = 0;
  if (std::optional<SharedFinding> finding = run.checker.barrier();
      finding && run.launch.checkShared)
    fail(describe(run, *finding));
  for (unsigned t = 0; t < run.threads; ++t) {
    run.fibers[t].wait = Wait::kNone;
    run.runnable.push_back(t);
  }
  switchOut(); // the schedule picks who leaves the barrier first
}

uint64_t shuffleXor(uint64_t value, int laneMask, int width, int line) {
  if (!active || !active->launch.threaded)
    fail((active ? active->where(active->current) : std::string()) +
         "__shfl_xor_sync() in a kernel run without threads");
  Run &run = *active;
  Fiber &self = run.fibers[run.current];
  unsigned warp = unsigned(run.current) / kWarp;
  unsigned first = warp * kWarp;
  unsigned lanes = std::min(kWarp, run.threads - first);
  self.wait = Wait::kShuffle;
  self.value = value;
  self.laneMask = laneMask;
  self.width = width;
  self.line = line;
  if (++run.shuffleArrivals[warp] < lanes) {
    switchOut();
    return self.result;
  }
  for (unsigned lane = 0; lane < lanes; ++lane) {
    Fiber &f = run.fibers[first + lane];
    if (f.line != line)
      fail(run.where(-1) + "divergent __shfl_xor_sync(): " +
           run.thread(first + lane) + " is at line " + std::to_string(f.line) +
           ", " + run.thread(run.current) + " at line " + std::to_string(line));
    unsigned from = lane ^ unsigned(f.laneMask);
    // Outside the caller's segment of `width` lanes, or past the block's
    // last thread: its own value.
    if (f.width <= 0 || from >= lanes ||
        from / unsigned(f.width) != lane / unsigned(f.width))
      from = lane;
    f.result = run.fibers[first + from].value;
  }
  run.shuffleArrivals[warp] = 0;
  for (unsigned lane = 0; lane < lanes; ++lane) {
    run.fibers[first + lane].wait = Wait::kNone;
    run.runnable.push_back(first + lane);
  }
  switchOut();
  return self.result;
}

void sharedAccess(void *address, unsigned size, int isWrite) {
  if (!active)
    return;
  Run &run = *active;
  if (run.launch.checkShared)
    if (std::optional<SharedFinding> finding = run.checker.access(
            static_cast<uint8_t *>(address), size, isWrite != 0, run.current))
      fail(describe(run, *finding));
  if (run.launch.threaded && run.rng() % kSwitchEvery == 0) {
    run.runnable.push_back(run.current);
    switchOut();
  }
}

void setIndex(unsigned *index, uint64_t linear, const uint32_t *extent) {
  index[0] = unsigned(linear % extent[0]);
  index[1] = unsigned(linear / extent[0] % extent[1]);
  index[2] = unsigned(linear / extent[0] / extent[1]);
}

/// Why no thread can go on though some have not finished.
std::string stalled(const Run &run) {
  int barrier = -1, shuffle = -1, done = -1;
  for (unsigned t = 0; t < run.threads; ++t) {
    Wait w = run.fibers[t].wait;
    int &slot = w == Wait::kBarrier   ? barrier
                : w == Wait::kShuffle ? shuffle
                                      : done;
    if (slot < 0 && w != Wait::kNone)
      slot = int(t);
  }
  auto line = [&](int t) { return std::to_string(run.fibers[t].line); };
  if (barrier >= 0 && done >= 0)
    return run.where(-1) + "__syncthreads() at line " + line(barrier) +
           " is not reached by every thread of the block: " + run.thread(done) +
           " has returned while " + run.thread(barrier) +
           " waits (a GPU hangs or misbehaves)";
  if (barrier >= 0 && shuffle >= 0)
    return run.where(-1) + "divergent threads: " + run.thread(barrier) +
           " waits at __syncthreads() at line " + line(barrier) + ", " +
           run.thread(shuffle) + " at __shfl_xor_sync() at line " +
           line(shuffle);
  if (shuffle >= 0)
    return run.where(-1) + "__shfl_xor_sync() at line " + line(shuffle) +
           " is not reached by every lane of the warp: " + run.thread(shuffle) +
           " waits for a lane that has returned";
  return run.where(-1) + "the block's threads deadlock";
}

std::string runThreadedBlock(Run &run, const unsigned *blockIds) {
  run.checker.beginBlock();
  run.runnable.clear();
  for (unsigned t = 0; t < run.threads; ++t) {
    Fiber &f = run.fibers[t];
    std::copy(blockIds, blockIds + 12, f.ids);
    setIndex(f.ids, t, run.launch.block);
    f.wait = Wait::kNone;
    f.line = 0;
    f.started = false;
    getcontext(&f.start);
    f.start.uc_stack.ss_sp = f.stack->bottom();
    f.start.uc_stack.ss_size = kStackBytes;
    f.start.uc_link = nullptr;
    makecontext(&f.start, fiberMain, 0);
    run.runnable.push_back(t);
  }
  while (!run.runnable.empty()) {
    size_t pick = run.rng() % run.runnable.size();
    unsigned t = run.runnable[pick];
    run.runnable[pick] = run.runnable.back();
    run.runnable.pop_back();
    run.current = int(t);
    run.library.enter(run.fibers[t].ids);
    resume(run, t);
    run.current = -1;
    if (!run.error.empty())
      return run.error;
  }
  for (unsigned t = 0; t < run.threads; ++t)
    if (run.fibers[t].wait != Wait::kDone)
      return stalled(run);
  if (std::optional<SharedFinding> finding = run.checker.endBlock();
      finding && run.launch.checkShared)
    return describe(run, *finding);
  return "";
}

void fault(const char *message) {
  fail((active ? active->where(active->current) : std::string()) + message);
}

} // namespace

const Hooks &hooks() {
  static const Hooks hooks{&syncthreads, &shuffleXor, &sharedAccess, &fault};
  return hooks;
}

void attach(const Library &library) {
  attached = library;
  checker.attach(library.sharedBegin, library.sharedEnd);
}

std::string launch(const Launch &launch) {
  const uint64_t blocks =
      uint64_t(launch.grid[0]) * launch.grid[1] * launch.grid[2];
  const unsigned threads = launch.block[0] * launch.block[1] * launch.block[2];
  if (blocks == 0 || threads == 0)
    return "";
  if (fiberPool.size() < threads)
    for (size_t t = fiberPool.size(); t < threads; ++t)
      fiberPool.emplace_back().stack = std::make_unique<Stack>();
  Run run(launch, attached, checker, threads, fiberPool);
  run.shuffleArrivals.assign((threads + kWarp - 1) / kWarp, 0);
  active = &run;
  struct Reset {
    ~Reset() { active = nullptr; }
  } reset;

  // Blocks in a seeded order: a GPU promises none.
  std::vector<uint64_t> order(blocks);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), run.rng);
  std::vector<unsigned> threadOrder(threads);
  std::iota(threadOrder.begin(), threadOrder.end(), 0);
  unsigned ids[12];
  std::copy(launch.block, launch.block + 3, ids + 6);
  std::copy(launch.grid, launch.grid + 3, ids + 9);
  for (uint64_t b : order) {
    setIndex(ids + 3, b, launch.grid);
    std::copy(ids + 3, ids + 6, run.blockIds);
    if (launch.threaded) {
      if (std::string error = runThreadedBlock(run, ids); !error.empty())
        return error;
      continue;
    }
    // No communication between threads: each runs to its end, in an order
    // the seed picks.
    std::shuffle(threadOrder.begin(), threadOrder.end(), run.rng);
    for (unsigned t : threadOrder) {
      unsigned *mine = run.fibers[t].ids; // for messages
      std::copy(ids, ids + 12, mine);
      setIndex(mine, t, launch.block);
      run.current = int(t);
      launch.entry(launch.args, mine);
    }
  }
  return "";
}

} // namespace kiln::emu

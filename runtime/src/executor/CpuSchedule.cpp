//===- CpuSchedule.cpp - Run a CPU device program on a thread pool --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A run counts, per step, the dependencies still running and the chunks of
// work still running. The thread that finishes a step's last chunk starts
// the dependents whose count drops to zero, by queueing their chunks. The
// caller helps with queued work until every step is done, then returns:
// nothing of a run outlives it, and the pool's threads stay for the next.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/CpuSchedule.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <optional>

namespace kiln::rt {

StepHooks::~StepHooks() = default;
CollectivesHook::~CollectivesHook() = default;

uint8_t *RunBuffers::address(const KernelArg &binding) const {
  uint8_t *base = nullptr;
  switch (binding.base) {
  case KernelArg::Base::kInput:
    base = (*inputs)[binding.index];
    break;
  case KernelArg::Base::kOutput:
    base = (*outputs)[binding.index];
    break;
  case KernelArg::Base::kArena:
    base = arena;
    break;
  case KernelArg::Base::kConstants:
    base = const_cast<uint8_t *>(constants);
    break;
  }
  return base ? base + binding.offset : nullptr;
}

std::string cpuDispatchEntryName(const std::string &function) {
  return "_kiln_dispatch_" + function;
}

StatusOr<CpuSchedule>
CpuSchedule::create(const DeviceProgram &program,
                    const std::function<void *(const std::string &)> &lookup,
                    const std::string &name) {
  CpuSchedule schedule;
  schedule.steps_ = program.steps;
  size_t count = program.steps.size();
  schedule.kernels_.assign(count, nullptr);
  schedule.dependents_.resize(count);
  for (uint32_t i = 0; i < count; ++i) {
    const Step &step = program.steps[i];
    if (step.kind == Step::Kind::kDispatch) {
      void *symbol = lookup(cpuDispatchEntryName(step.kernel));
      if (!symbol)
        return dataLoss(name + ": kernel '" + step.kernel +
                        "' is missing from the CPU kernels");
      schedule.kernels_[i] = reinterpret_cast<CpuDispatchFn>(symbol);
    } else if (step.kind == Step::Kind::kLaunchKernel) {
      return unimplemented(name + ": step #" + std::to_string(i) +
                           " launches a CUDA kernel on the CPU");
    }
    schedule.hasCollectives_ |= step.kind == Step::Kind::kCollective;
    schedule.splits_ |=
        step.kind == Step::Kind::kDispatch && step.workgroups() > 1;
    // Duplicates would be counted twice and never reach zero.
    std::vector<uint32_t> after = step.after;
    std::sort(after.begin(), after.end());
    after.erase(std::unique(after.begin(), after.end()), after.end());
    for (uint32_t dependency : after) {
      if (dependency >= i)
        return dataLoss(name + ": step #" + std::to_string(i) +
                        " waits for a step that is not before it");
      schedule.dependents_[dependency].push_back(i);
    }
    schedule.steps_[i].after = std::move(after);
    if (schedule.steps_[i].after.empty())
      schedule.roots_.push_back(i);
  }
  return schedule;
}

Status CpuSchedule::runOther(uint32_t index, const RunBuffers &buffers,
                             const RunOptions &options) const {
  const Step &step = steps_[index];
  switch (step.kind) {
  case Step::Kind::kCopy:
    std::memmove(buffers.address(step.args[1]), buffers.address(step.args[0]),
                 step.args[0].bytes);
    return Status::ok();
  case Step::Kind::kFill: {
    uint8_t *target = buffers.address(step.args[0]);
    uint64_t pattern = step.pattern;
    for (uint64_t at = 0; at < step.args[0].bytes; at += step.patternBytes)
      std::memcpy(target + at, &pattern, step.patternBytes);
    return Status::ok();
  }
  case Step::Kind::kCollective: {
    StepEvent event{index, &step, &buffers};
    return options.collectives->run(event);
  }
  default:
    return Status::ok(); // A barrier only orders.
  }
}

/// The state of one multi-threaded run.
struct ScheduleRun {
  struct StepTask {
    ScheduleRun *run;
    uint32_t index;
  };

  const CpuSchedule &schedule;
  ThreadPool &pool;
  void **arguments;
  const RunBuffers &buffers;
  const RunOptions &options;
  std::unique_ptr<std::atomic<uint32_t>[]> waitingFor;
  std::unique_ptr<std::atomic<uint64_t>[]> chunksLeft;
  std::vector<StepTask> tasks;
  std::atomic<size_t> stepsLeft;
  std::mutex errorMutex;
  Status error = Status::ok();
  /// Set by the first failing step: later work is skipped (a rank must not
  /// go on to collectives its peers will not join).
  std::atomic<bool> failed{false};

  ScheduleRun(const CpuSchedule &schedule, ThreadPool &pool, void **arguments,
              const RunBuffers &buffers, const RunOptions &options)
      : schedule(schedule), pool(pool), arguments(arguments), buffers(buffers),
        options(options) {
    size_t count = schedule.steps_.size();
    waitingFor.reset(new std::atomic<uint32_t>[count]);
    chunksLeft.reset(new std::atomic<uint64_t>[count]);
    for (size_t i = 0; i < count; ++i)
      waitingFor[i].store(uint32_t(schedule.steps_[i].after.size()),
                          std::memory_order_relaxed);
    tasks.resize(count);
    for (uint32_t i = 0; i < count; ++i)
      tasks[i] = {this, i};
    stepsLeft.store(count, std::memory_order_relaxed);
  }

  /// One contiguous range of a step's workgroups.
  struct Chunk {
    uint32_t index = 0;
    uint64_t begin = 0;
    uint64_t end = 0;
  };

  /// Starts step `index`: its workgroups in as many contiguous ranges as
  /// the pool has threads, all queued, or all but the first when `keep` is
  /// given, which receives it for the calling thread to run next (no trip
  /// through the queue, and no wait for another thread to take it).
  void start(uint32_t index, std::optional<Chunk> *keep = nullptr) {
    const Step &step = schedule.steps_[index];
    if (options.hooks) {
      StepEvent event{index, &step, &buffers};
      options.hooks->beforeStep(event);
    }
    uint64_t workgroups =
        step.kind == Step::Kind::kDispatch ? step.workgroups() : 1;
    uint64_t chunks = std::min<uint64_t>(workgroups, pool.threads());
    chunksLeft[index].store(chunks, std::memory_order_relaxed);
    uint64_t first = 0;
    if (keep) {
      *keep = Chunk{index, 0, workgroups / chunks};
      first = 1;
    }
    Task queued[64];
    uint64_t submitted = 0;
    for (uint64_t c = first; c < chunks; ++c) {
      queued[submitted++] = {&ScheduleRun::runChunk, &tasks[index],
                             workgroups * c / chunks,
                             workgroups * (c + 1) / chunks};
      if (submitted == 64) {
        pool.submit(queued, submitted);
        submitted = 0;
      }
    }
    pool.submit(queued, submitted);
  }

  /// Runs a queued chunk and, while each chunk it runs is the last of its
  /// step, a chunk of a step that this one made ready: a chain of steps
  /// stays on one thread instead of passing through the queue at each.
  static void runChunk(void *context, uint64_t begin, uint64_t end) {
    auto *task = static_cast<StepTask *>(context);
    ScheduleRun &run = *task->run;
    std::optional<Chunk> next = Chunk{task->index, begin, end};
    while (next) {
      Chunk chunk = *next;
      run.execute(chunk);
      if (run.chunksLeft[chunk.index].fetch_sub(1, std::memory_order_acq_rel) !=
          1)
        return;
      next = run.finish(chunk.index);
    }
  }

  void execute(const Chunk &chunk) {
    if (failed.load(std::memory_order_acquire)) {
      // Skipped; the bookkeeping still lets the run finish.
    } else if (CpuDispatchFn kernel = schedule.kernels_[chunk.index]) {
      kernel(arguments, int64_t(chunk.begin), int64_t(chunk.end));
    } else {
      Status status = schedule.runOther(chunk.index, buffers, options);
      if (!status.isOk()) {
        std::lock_guard<std::mutex> lock(errorMutex);
        if (error.isOk())
          error = status;
        failed.store(true, std::memory_order_release);
      }
    }
  }

  /// Ends step `index` and starts the steps it made ready; returns a chunk
  /// of the first of them for the calling thread to run.
  std::optional<Chunk> finish(uint32_t index) {
    if (options.hooks) {
      StepEvent event{index, &schedule.steps_[index], &buffers};
      options.hooks->afterStep(event);
    }
    std::optional<Chunk> next;
    for (uint32_t dependent : schedule.dependents_[index])
      if (waitingFor[dependent].fetch_sub(1, std::memory_order_acq_rel) == 1)
        start(dependent, next ? nullptr : &next);
    // The last touch of this run's state by a thread with no chunk left:
    // the caller may return after it (a started step keeps stepsLeft above
    // zero until its own finish).
    stepsLeft.fetch_sub(1, std::memory_order_acq_rel);
    return next;
  }
};

Status CpuSchedule::run(ThreadPool *pool, void **arguments,
                        const RunBuffers &buffers,
                        const RunOptions &options) const {
  if (hasCollectives_ && !options.collectives)
    return unimplemented("the program has collective steps and no "
                         "communicator was given to run them");
  if (!pool || pool->threads() == 1 || !splits_) {
    // In order on the calling thread: the order is a valid one. The first
    // failing step ends the run.
    for (uint32_t i = 0; i < steps_.size(); ++i) {
      StepEvent event{i, &steps_[i], &buffers};
      if (options.hooks)
        options.hooks->beforeStep(event);
      Status status = Status::ok();
      if (kernels_[i])
        kernels_[i](arguments, 0, int64_t(steps_[i].workgroups()));
      else
        status = runOther(i, buffers, options);
      if (options.hooks)
        options.hooks->afterStep(event);
      if (!status.isOk())
        return status;
    }
    return Status::ok();
  }
  ScheduleRun run(*this, *pool, arguments, buffers, options);
  for (uint32_t root : roots_)
    run.start(root);
  pool->helpUntil(
      [&] { return run.stepsLeft.load(std::memory_order_acquire) == 0; });
  return run.error;
}

} // namespace kiln::rt

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

  /// Queues the work of step `index`: its workgroups in as many contiguous
  /// ranges as the pool has threads.
  void start(uint32_t index) {
    const Step &step = schedule.steps_[index];
    if (options.hooks) {
      StepEvent event{index, &step, &buffers};
      options.hooks->beforeStep(event);
    }
    uint64_t workgroups =
        step.kind == Step::Kind::kDispatch ? step.workgroups() : 1;
    uint64_t chunks = std::min<uint64_t>(workgroups, pool.threads());
    chunksLeft[index].store(chunks, std::memory_order_relaxed);
    Task queued[64];
    uint64_t submitted = 0;
    for (uint64_t c = 0; c < chunks; ++c) {
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

  static void runChunk(void *context, uint64_t begin, uint64_t end) {
    auto *task = static_cast<StepTask *>(context);
    ScheduleRun &run = *task->run;
    uint32_t index = task->index;
    if (run.failed.load(std::memory_order_acquire)) {
      // Skipped; the bookkeeping below still lets the run finish.
    } else if (CpuDispatchFn kernel = run.schedule.kernels_[index]) {
      kernel(run.arguments, int64_t(begin), int64_t(end));
    } else {
      Status status = run.schedule.runOther(index, run.buffers, run.options);
      if (!status.isOk()) {
        std::lock_guard<std::mutex> lock(run.errorMutex);
        if (run.error.isOk())
          run.error = status;
        run.failed.store(true, std::memory_order_release);
      }
    }
    if (run.chunksLeft[index].fetch_sub(1, std::memory_order_acq_rel) == 1)
      run.finish(index);
  }

  void finish(uint32_t index) {
    if (options.hooks) {
      StepEvent event{index, &schedule.steps_[index], &buffers};
      options.hooks->afterStep(event);
    }
    for (uint32_t dependent : schedule.dependents_[index])
      if (waitingFor[dependent].fetch_sub(1, std::memory_order_acq_rel) == 1)
        start(dependent);
    // The last touch of this run's state: the caller may return after it.
    stepsLeft.fetch_sub(1, std::memory_order_acq_rel);
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

//===- CpuScheduleTest.cpp - The CPU executor and its thread pool ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Dispatches here are plain functions that read their state through the
// packed-argument pointer; the executor only passes it on.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/CpuSchedule.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>

using namespace kiln::rt;

namespace {

constexpr int kItems = 64;

/// What the test dispatches work on.
struct State {
  float a[kItems] = {};
  float b[kItems] = {};
  std::atomic<int> runs[kItems] = {};
  std::atomic<bool> started[2] = {};
  std::atomic<bool> sawOther[2] = {};
  std::thread::id threads[8];
  std::atomic<int> notes{0};
};

State &stateOf(void **arguments) { return *static_cast<State *>(arguments[0]); }

void writeA(void **arguments, int64_t begin, int64_t end) {
  State &state = stateOf(arguments);
  for (int64_t i = begin; i < end; ++i) {
    state.a[i] = float(i);
    state.runs[i].fetch_add(1);
  }
}

/// Workgroup w does items [10w, 10w + 10) (a short last one).
void doubleIntoB(void **arguments, int64_t begin, int64_t end) {
  State &state = stateOf(arguments);
  for (int64_t i = begin * 10; i < std::min<int64_t>(end * 10, kItems); ++i)
    state.b[i] = state.a[i] * 2 + state.a[kItems - 1 - i];
}

/// Waits (bounded) until the other of two steps has started.
template <int Self> void meetOther(void **arguments, int64_t, int64_t) {
  State &state = stateOf(arguments);
  state.started[Self] = true;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!state.started[1 - Self] &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::yield();
  state.sawOther[Self] = bool(state.started[1 - Self]);
}

/// Notes which thread ran it, in the order of the calls.
void noteThread(void **arguments, int64_t, int64_t) {
  State &state = stateOf(arguments);
  state.threads[state.notes.fetch_add(1)] = std::this_thread::get_id();
}

Step dispatch(const std::string &kernel, uint32_t workgroups,
              std::vector<uint32_t> after = {}) {
  Step step;
  step.kind = Step::Kind::kDispatch;
  step.kernel = kernel;
  step.grid[0] = workgroups;
  step.after = std::move(after);
  return step;
}

std::function<void *(const std::string &)> kernels() {
  static const std::map<std::string, CpuDispatchFn> table = {
      {cpuDispatchEntryName("writeA"), &writeA},
      {cpuDispatchEntryName("doubleIntoB"), &doubleIntoB},
      {cpuDispatchEntryName("meet0"), &meetOther<0>},
      {cpuDispatchEntryName("meet1"), &meetOther<1>},
      {cpuDispatchEntryName("noteThread"), &noteThread},
  };
  return [](const std::string &name) -> void * {
    auto it = table.find(name);
    return it == table.end() ? nullptr : reinterpret_cast<void *>(it->second);
  };
}

CpuSchedule chain() {
  DeviceProgram program;
  program.steps = {dispatch("writeA", kItems), dispatch("doubleIntoB", 7, {0})};
  auto schedule = CpuSchedule::create(program, kernels(), "test");
  EXPECT_TRUE(schedule.isOk()) << schedule.status().toString();
  return std::move(*schedule);
}

Status runOn(const CpuSchedule &schedule, ThreadPool *pool, State &state,
             const RunOptions &options = {}) {
  void *arguments[] = {&state};
  RunBuffers buffers;
  return schedule.run(pool, arguments, buffers, options);
}

TEST(CpuScheduleTest, RunsEveryWorkgroupOnceAfterItsDependencies) {
  CpuSchedule schedule = chain();
  for (unsigned threads : {1u, 2u, 4u}) {
    ThreadPool pool(threads);
    State state;
    ASSERT_TRUE(runOn(schedule, &pool, state).isOk());
    for (int i = 0; i < kItems; ++i) {
      EXPECT_EQ(state.runs[i].load(), 1) << "workgroup " << i;
      // Only right if the whole of `a` was written before step 1 began.
      EXPECT_EQ(state.b[i], float(2 * i + (kItems - 1 - i)))
          << "item " << i << " with " << threads << " threads";
    }
  }
}

TEST(CpuScheduleTest, RunsIndependentStepsConcurrently) {
  DeviceProgram program;
  // A split third step: programs without one run in order.
  program.steps = {dispatch("meet0", 1), dispatch("meet1", 1),
                   dispatch("writeA", kItems)};
  auto schedule = CpuSchedule::create(program, kernels(), "test");
  ASSERT_TRUE(schedule.isOk());
  ThreadPool pool(2);
  State state;
  ASSERT_TRUE(runOn(*schedule, &pool, state).isOk());
  EXPECT_TRUE(state.sawOther[0] && state.sawOther[1]);
}

TEST(CpuScheduleTest, RunsFromSeveralHostThreadsAtOnce) {
  CpuSchedule schedule = chain();
  ThreadPool pool(2);
  std::vector<std::unique_ptr<State>> states;
  for (int t = 0; t < 4; ++t)
    states.push_back(std::make_unique<State>());
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t)
    callers.emplace_back([&, t] {
      for (int repeat = 0; repeat < 50; ++repeat)
        EXPECT_TRUE(runOn(schedule, &pool, *states[t]).isOk());
    });
  for (std::thread &caller : callers)
    caller.join();
  for (auto &state : states)
    for (int i = 0; i < kItems; ++i) {
      EXPECT_EQ(state->runs[i].load(), 50);
      EXPECT_EQ(state->b[i], float(2 * i + (kItems - 1 - i)));
    }
}

TEST(CpuScheduleTest, RunsAChainOfStepsOnTheThreadThatFinishedEach) {
  // A split step, then a chain of one-workgroup steps: each starts on the
  // thread that finished the step before it, without a trip through the
  // pool's queue, so the whole chain runs on one thread and only the
  // split step's second half is queued.
  DeviceProgram program;
  program.steps = {dispatch("writeA", kItems)};
  for (uint32_t i = 0; i < 8; ++i)
    program.steps.push_back(dispatch("noteThread", 1, {i}));
  auto schedule = CpuSchedule::create(program, kernels(), "test");
  ASSERT_TRUE(schedule.isOk());
  ThreadPool pool(2);
  for (int repeat = 0; repeat < 20; ++repeat) {
    State state;
    uint64_t queuedBefore = pool.tasksQueued();
    ASSERT_TRUE(runOn(*schedule, &pool, state).isOk());
    EXPECT_EQ(pool.tasksQueued() - queuedBefore, 2u) << "run " << repeat;
    ASSERT_EQ(state.notes.load(), 8);
    for (int i = 1; i < 8; ++i)
      EXPECT_EQ(state.threads[i], state.threads[0])
          << "step " << i + 1 << " of run " << repeat;
  }
}

/// Records the order of hook calls.
class Recorder : public StepHooks {
public:
  void beforeStep(const StepEvent &event) override {
    std::lock_guard<std::mutex> lock(mutex);
    log.push_back("before " + std::to_string(event.index));
  }
  void afterStep(const StepEvent &event) override {
    std::lock_guard<std::mutex> lock(mutex);
    log.push_back("after " + std::to_string(event.index));
  }
  std::mutex mutex;
  std::vector<std::string> log;
};

TEST(CpuScheduleTest, CallsHooksAroundEachStep) {
  CpuSchedule schedule = chain();
  for (unsigned threads : {1u, 2u}) {
    ThreadPool pool(threads);
    State state;
    Recorder recorder;
    RunOptions options;
    options.hooks = &recorder;
    ASSERT_TRUE(runOn(schedule, &pool, state, options).isOk());
    EXPECT_EQ(recorder.log, (std::vector<std::string>{"before 0", "after 0",
                                                      "before 1", "after 1"}))
        << threads << " threads";
  }
}

TEST(CpuScheduleTest, FillsAndCopies) {
  DeviceProgram program;
  Step fill;
  fill.kind = Step::Kind::kFill;
  fill.pattern = 0xABCD;
  fill.patternBytes = 2;
  fill.args = {{KernelArg::Base::kArena, 0, 8, 8, KernelArg::Access::kWrite}};
  Step copy;
  copy.kind = Step::Kind::kCopy;
  copy.args = {{KernelArg::Base::kArena, 0, 8, 8, KernelArg::Access::kRead},
               {KernelArg::Base::kOutput, 0, 0, 8, KernelArg::Access::kWrite}};
  copy.after = {0};
  program.steps = {fill, copy};
  auto schedule = CpuSchedule::create(program, kernels(), "test");
  ASSERT_TRUE(schedule.isOk());
  uint8_t arena[16] = {}, output[8] = {};
  std::vector<uint8_t *> inputs, outputs = {output};
  RunBuffers buffers{&inputs, &outputs, arena, nullptr};
  ThreadPool pool(2);
  ASSERT_TRUE(schedule->run(&pool, nullptr, buffers, {}).isOk());
  const uint8_t expected[8] = {0xCD, 0xAB, 0xCD, 0xAB, 0xCD, 0xAB, 0xCD, 0xAB};
  EXPECT_EQ(std::memcmp(output, expected, 8), 0);
  EXPECT_EQ(arena[0], 0);
}

class CountingCollectives : public CollectivesHook {
public:
  Status run(const StepEvent &event) override {
    ++calls;
    return event.step->ranks == 1 ? Status::ok()
                                  : unimplemented("one rank only");
  }
  std::atomic<int> calls{0};
};

/// Two ranks' collective reading arena bytes 0-7 into bytes 8-15.
Step twoRankAllReduce() {
  Step collective;
  collective.kind = Step::Kind::kCollective;
  collective.ranks = 2;
  collective.args = {
      {KernelArg::Base::kArena, 0, 0, 8, KernelArg::Access::kRead},
      {KernelArg::Base::kArena, 0, 8, 8, KernelArg::Access::kWrite}};
  return collective;
}

TEST(CpuScheduleTest, HandsCollectivesToTheHook) {
  DeviceProgram program;
  program.steps = {twoRankAllReduce()};
  auto schedule = CpuSchedule::create(program, kernels(), "test");
  ASSERT_TRUE(schedule.isOk());
  uint8_t arena[16] = {};
  RunBuffers buffers;
  buffers.arena = arena;
  // No communicator: a clear error, before anything runs.
  Status missing = schedule->run(nullptr, nullptr, buffers, {});
  EXPECT_EQ(missing.code(), StatusCode::kUnimplemented);
  EXPECT_NE(missing.message().find("no communicator"), std::string::npos);
  // The hook's error is the run's error, on one thread and on two.
  CountingCollectives hook;
  RunOptions options;
  options.collectives = &hook;
  ThreadPool pool(2);
  EXPECT_EQ(schedule->run(nullptr, nullptr, buffers, options).code(),
            StatusCode::kUnimplemented);
  EXPECT_EQ(schedule->run(&pool, nullptr, buffers, options).code(),
            StatusCode::kUnimplemented);
  EXPECT_EQ(hook.calls.load(), 2);
}

// A rank's collective waits for its peers on one thread while the others
// run the steps that do not depend on it: communication overlaps compute
// wherever the schedule allows.
TEST(CpuScheduleTest, OverlapsACollectiveWithIndependentSteps) {
  DeviceProgram program;
  // meet0 binds nothing the collective touches: no dependency.
  program.steps = {twoRankAllReduce(), dispatch("meet0", 1),
                   dispatch("writeA", kItems)};
  auto schedule = CpuSchedule::create(program, kernels(), "test");
  ASSERT_TRUE(schedule.isOk());
  State state;
  // Stands in for peers that answer only once meet0 has started.
  struct WaitsForCompute : CollectivesHook {
    State *state = nullptr;
    std::atomic<bool> overlapped{false};
    Status run(const StepEvent &) override {
      auto deadline =
          std::chrono::steady_clock::now() + std::chrono::seconds(5);
      while (!state->started[0] && std::chrono::steady_clock::now() < deadline)
        std::this_thread::yield();
      overlapped = state->started[0].load();
      state->started[1] = true; // Lets meet0 finish.
      return Status::ok();
    }
  } hook;
  hook.state = &state;
  RunOptions options;
  options.collectives = &hook;
  ThreadPool pool(2);
  uint8_t arena[16] = {};
  RunBuffers buffers;
  buffers.arena = arena;
  void *arguments[] = {&state};
  ASSERT_TRUE(schedule->run(&pool, arguments, buffers, options).isOk());
  EXPECT_TRUE(hook.overlapped.load());
  EXPECT_TRUE(state.sawOther[0].load());
}

// A failed step ends the run: later steps (here a second collective and a
// kernel) do not run, on one thread and on two. A rank whose collective
// failed must not go on to collectives its peers will not join.
TEST(CpuScheduleTest, AFailedStepStopsTheRun) {
  DeviceProgram program;
  Step collective;
  collective.kind = Step::Kind::kCollective;
  collective.ranks = 2; // CountingCollectives fails these.
  collective.args = {
      {KernelArg::Base::kArena, 0, 0, 8, KernelArg::Access::kRead},
      {KernelArg::Base::kArena, 0, 8, 8, KernelArg::Access::kWrite}};
  Step second = collective;
  second.after = {0};
  program.steps = {collective, second, dispatch("writeA", kItems, {1})};
  auto schedule = CpuSchedule::create(program, kernels(), "test");
  ASSERT_TRUE(schedule.isOk()) << schedule.status().toString();
  uint8_t arena[16] = {};
  ThreadPool pool(2);
  for (ThreadPool *threads : {static_cast<ThreadPool *>(nullptr), &pool}) {
    CountingCollectives hook;
    RunOptions options;
    options.collectives = &hook;
    State state;
    void *arguments[] = {&state};
    RunBuffers buffers;
    buffers.arena = arena;
    EXPECT_EQ(schedule->run(threads, arguments, buffers, options).code(),
              StatusCode::kUnimplemented);
    EXPECT_EQ(hook.calls.load(), 1);
    EXPECT_EQ(state.runs[0].load(), 0);
  }
}

TEST(CpuScheduleTest, RejectsMissingKernelsAndCudaSteps) {
  DeviceProgram missing;
  missing.steps = {dispatch("nowhere", 1)};
  auto unresolved = CpuSchedule::create(missing, kernels(), "m.kiln");
  EXPECT_EQ(unresolved.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(unresolved.status().message().find(
                "m.kiln: kernel 'nowhere' is missing from the CPU kernels"),
            std::string::npos);
  DeviceProgram cuda;
  cuda.steps = {dispatch("writeA", 1)};
  cuda.steps[0].kind = Step::Kind::kLaunchKernel;
  EXPECT_EQ(CpuSchedule::create(cuda, kernels(), "c.kiln").status().code(),
            StatusCode::kUnimplemented);
}

TEST(ThreadPoolTest, SharesOnePoolPerSizeAndCountsTheCaller) {
  EXPECT_GE(ThreadPool::availableThreads(), 1u);
  std::shared_ptr<ThreadPool> a = ThreadPool::shared(3);
  EXPECT_EQ(a, ThreadPool::shared(3));
  EXPECT_EQ(a->threads(), 3u);
  EXPECT_EQ(ThreadPool(1).threads(), 1u);
}

} // namespace

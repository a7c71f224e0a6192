//===- LivePoolTest.cpp - The pool on real threads and CPU devices --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// CPU devices run a stand-in executable (it doubles its f32 input after a
// short sleep), so these tests exercise the threads, the lock, the
// streams and the hand-over of tensors without compiling a model.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/InferenceData.h"
#include "kiln/runtime/serving/LivePool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <future>
#include <thread>

using namespace kiln::rt;
using namespace kiln::rt::serving;

namespace {

/// y = 2x on a [4] f32 tensor (or [rows, 4]), taking `sleep` per run.
class DoublingExecutable final : public DeviceExecutable {
public:
  explicit DoublingExecutable(std::chrono::microseconds sleep, int rows = 0)
      : sleep_(sleep) {
    std::vector<int64_t> shape =
        rows ? std::vector<int64_t>{rows, 4} : std::vector<int64_t>{4};
    program_.inputs.push_back({"x", DType::kF32, shape});
    program_.outputs.push_back({"y", DType::kF32, shape});
  }
  const Program &program() const override { return program_; }
  std::string description() const override { return "doubling"; }
  Status run(const std::vector<HostTensor> &inputs,
             std::vector<HostTensor> &outputs) override {
    const TensorSpec &spec = program_.inputs[0];
    size_t bytes =
        4 * size_t(HostTensor{spec.dtype, spec.shape, {}}.numElements());
    if (inputs.size() != 1 || inputs[0].data.size() != bytes)
      return invalidArgument("expected one input of " + std::to_string(bytes) +
                             " bytes");
    std::this_thread::sleep_for(sleep_);
    ++runs;
    outputs.assign(1, HostTensor{DType::kF32, spec.shape, {}});
    outputs[0].data.resize(bytes);
    std::vector<float> values(bytes / 4);
    std::memcpy(values.data(), inputs[0].data.data(), bytes);
    for (float &v : values)
      v *= 2;
    std::memcpy(outputs[0].data.data(), values.data(), bytes);
    return Status::ok();
  }
  std::atomic<int> runs{0};
  Status run(const std::vector<TensorRef> &,
             const std::vector<TensorRef> &) override {
    return unimplemented("not used");
  }

private:
  std::chrono::microseconds sleep_;
  Program program_;
};

ModelSpec modelSpec(const std::string &name, double latencyMs) {
  ModelSpec spec;
  spec.name = name;
  spec.footprint.weightsBytes = 1 << 20;
  spec.coldLoadTime = spec.reloadTime = 1000;
  spec.stepTime = millisToMicros(latencyMs);
  EXPECT_TRUE(spec.profile.set(1, millisToMicros(latencyMs)).isOk());
  return spec;
}

/// Serves "fast" (1 ms) and "slow" (5 ms); "broken" fails to load; "rows"
/// has variants of 1 and 4 rows on axis 0 (the last one loaded is kept in
/// `lastRows4`).
std::shared_ptr<DoublingExecutable> lastRows4;
ExecutableLoader loader() {
  return [](const std::string &model,
            int batch) -> StatusOr<std::shared_ptr<DeviceExecutable>> {
    if (model == "broken")
      return dataLoss("artifact is truncated");
    if (model == "rows") {
      auto executable = std::make_shared<DoublingExecutable>(
          std::chrono::microseconds(1000), batch);
      if (batch == 4)
        lastRows4 = executable;
      return std::shared_ptr<DeviceExecutable>(executable);
    }
    auto sleep = std::chrono::microseconds(model == "slow" ? 5000 : 1000);
    return std::shared_ptr<DeviceExecutable>(
        std::make_shared<DoublingExecutable>(sleep));
  };
}

std::shared_ptr<InferenceData> input(float base) {
  auto data = std::make_shared<InferenceData>();
  HostTensor x{DType::kF32, {4}, std::vector<uint8_t>(16)};
  float values[4] = {base, base + 1, base + 2, base + 3};
  std::memcpy(x.data.data(), values, 16);
  data->inputs.push_back(std::move(x));
  return data;
}

/// Submits a request of `model` and returns its future response.
std::future<Response> submitTo(LivePool &live, const std::string &model,
                               int priority,
                               std::shared_ptr<InferenceData> data) {
  // Shared: the pool's thread may still be in set_value when get() returns.
  auto promise = std::make_shared<std::promise<Response>>();
  std::future<Response> answer = promise->get_future();
  Request request;
  request.model = model;
  request.priority = priority;
  request.data = std::move(data);
  live.submit(request, [promise](const Response &r) { promise->set_value(r); });
  return answer;
}

/// Adds `devices` CPU devices cpu0, cpu1, ... of 1 GiB each.
void addCpuDevices(LivePool &live, int devices) {
  for (int d = 0; d < devices; ++d) {
    CpuDeviceOptions device;
    device.spec = {"cpu" + std::to_string(d), 1ull << 30, 0, 1.0};
    live.addCpuDevice(device, loader());
  }
}

struct Pool {
  explicit Pool(int devices, PoolOptions options = {}) : live(options, 0) {
    addCpuDevices(live, devices);
    for (const char *name : {"fast", "slow", "broken"})
      EXPECT_TRUE(live.addModel(modelSpec(name, name[0] == 's' ? 5 : 1))
                      .isOk());
    live.start();
  }
  /// Submits and waits for the response.
  Response call(const std::string &model, int priority,
                std::shared_ptr<InferenceData> data) {
    return submitTo(live, model, priority, std::move(data)).get();
  }
  LivePool live;
};

float outputAt(const Response &response, int index) {
  float value;
  std::memcpy(&value, response.data->outputs.at(0).data.data() + 4 * index, 4);
  return value;
}

} // namespace

TEST(LivePoolTest, RunsTheRequestsTensorsOnACpuDevice) {
  Pool pool(1);
  ASSERT_TRUE(pool.live.loadModel("fast", 0).isOk());
  Response response = pool.call("fast", 1, input(1.5f));
  ASSERT_EQ(response.outcome, Outcome::kCompleted);
  ASSERT_TRUE(response.data->status.isOk()) << response.data->status.toString();
  EXPECT_EQ(outputAt(response, 0), 3.0f);
  EXPECT_EQ(outputAt(response, 3), 9.0f);
  EXPECT_EQ(response.device, 0);
  EXPECT_GE(response.latency(), 1000);
}

TEST(LivePoolTest, EveryConcurrentRequestGetsItsOwnOutputsOnce) {
  Pool pool(2);
  constexpr int kThreads = 4, kPerThread = 25;
  std::atomic<int> answered{0}, wrong{0};
  std::vector<std::thread> clients;
  for (int t = 0; t < kThreads; ++t)
    clients.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        float base = float(t * 1000 + i);
        Response response = pool.call(i % 2 ? "fast" : "slow", i % 2,
                                      input(base));
        ++answered;
        if (response.outcome != Outcome::kCompleted ||
            !response.data->status.isOk() ||
            outputAt(response, 2) != 2 * (base + 2))
          ++wrong;
      }
    });
  for (std::thread &client : clients)
    client.join();
  EXPECT_EQ(answered.load(), kThreads * kPerThread);
  EXPECT_EQ(wrong.load(), 0);
  pool.live.inspect([](const DevicePool &devices) {
    EXPECT_EQ(devices.counters().responses, uint64_t(kThreads * kPerThread));
    EXPECT_EQ(devices.queued(), 0u);
    EXPECT_EQ(devices.running(), 0u);
  });
}

TEST(LivePoolTest, ALoadFailureReachesTheResponseAsItsStatus) {
  Pool pool(1);
  Response response = pool.call("broken", 0, input(0));
  ASSERT_EQ(response.outcome, Outcome::kCompleted);
  EXPECT_EQ(response.data->status.code(), StatusCode::kDataLoss);
  EXPECT_NE(response.data->status.message().find("loading model 'broken'"),
            std::string::npos)
      << response.data->status.message();
}

TEST(LivePoolTest, HighPriorityRunsBeforeQueuedLowPriorityWork) {
  PoolOptions options;
  options.batching = false;
  Pool pool(1, options);
  ASSERT_TRUE(pool.live.loadModel("slow", 0).isOk());
  ASSERT_TRUE(pool.live.loadModel("fast", 0).isOk());
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::mutex mutex;
  std::vector<std::string> order;
  std::atomic<int> done{0};
  auto submit = [&](const std::string &model, int priority) {
    Request request;
    request.model = model;
    request.priority = priority;
    request.data = input(0);
    pool.live.submit(request, [&, model](const Response &) {
      std::lock_guard<std::mutex> lock(mutex);
      order.push_back(model);
      ++done;
    });
  };
  for (int i = 0; i < 4; ++i)
    submit("slow", 1);
  submit("fast", 0);
  while (done.load() < 5)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  // The high-priority request overtakes at least the queued slow ones.
  auto fast = std::find(order.begin(), order.end(), "fast") - order.begin();
  EXPECT_LE(fast, 1) << "finished at position " << fast;
}

TEST(LivePoolTest, LoadUnloadChurnUnderLoadLosesNoResponse) {
  Pool pool(2);
  ASSERT_TRUE(pool.live.loadModel("fast", 0).isOk());
  std::atomic<bool> stop{false};
  std::atomic<int> sent{0}, answered{0}, failed{0};
  std::thread client([&] {
    while (!stop) {
      ++sent;
      Response response = pool.call("fast", sent % 2, input(1));
      ++answered;
      if (response.outcome == Outcome::kCompleted &&
          !response.data->status.isOk())
        ++failed;
    }
  });
  for (int cycle = 0; cycle < 100; ++cycle) {
    (void)pool.live.loadModel("fast", 1);
    std::this_thread::sleep_for(std::chrono::microseconds(500));
    (void)pool.live.unloadModel("fast", 1);
  }
  stop = true;
  client.join();
  EXPECT_EQ(sent.load(), answered.load());
  EXPECT_EQ(failed.load(), 0);
  pool.live.inspect([](const DevicePool &devices) {
    EXPECT_EQ(devices.queued(), 0u);
  });
}

TEST(LivePoolTest, ShutdownAnswersWhatIsStillInFlight) {
  Pool pool(1);
  std::atomic<int> answered{0};
  for (int i = 0; i < 20; ++i) {
    Request request;
    request.model = "slow";
    request.priority = 1;
    request.data = input(0);
    pool.live.submit(request, [&](const Response &) { ++answered; });
  }
  pool.live.shutdown();
  EXPECT_EQ(answered.load(), 20);
}

TEST(LivePoolTest, MeasuredExecutionsRefineTheLatencyProfile) {
  // "fast" runs in about 1 ms; tell the pool it takes 20 ms.
  LivePool live(PoolOptions{}, 0);
  addCpuDevices(live, 1);
  ASSERT_TRUE(live.addModel(modelSpec("fast", 20)).isOk());
  live.setLatencyLearning(4);
  live.start();
  for (int i = 0; i < 4; ++i) {
    Response response = submitTo(live, "fast", 1, input(0)).get();
    ASSERT_EQ(response.outcome, Outcome::kCompleted);
    EXPECT_GE(response.data->executionEnd - response.data->executionStart,
              1000);
  }
  live.inspect([](const DevicePool &pool) {
    Micros learned = pool.model(0).profile.unloadedLatency();
    EXPECT_GE(learned, 1000);
    EXPECT_LT(learned, 10'000);
  });
}

TEST(LivePoolTest, AVariantRunsABatchAsOneExecutionOfStackedRows) {
  // "rows" has a 1-row and a 4-row variant; three requests queued behind a
  // slow one run as one execution of the 4-row variant, padded.
  LivePool live(PoolOptions{}, 0);
  addCpuDevices(live, 1);
  ASSERT_TRUE(live.addModel(modelSpec("slow", 5)).isOk());
  ModelSpec rows = modelSpec("rows", 1);
  ASSERT_TRUE(rows.profile.set(4, millisToMicros(1.2)).isOk());
  ASSERT_TRUE(live.addModel(rows).isOk());
  live.start();
  ASSERT_TRUE(live.loadModel("slow", 0).isOk());
  ASSERT_TRUE(live.loadModel("rows", 0).isOk());
  std::this_thread::sleep_for(std::chrono::milliseconds(20));

  auto submit = [&](const std::string &model,
                    std::shared_ptr<InferenceData> x) {
    return submitTo(live, model, 1, std::move(x));
  };
  auto rowInput = [](float base) {
    auto data = input(base);
    data->inputs[0].shape = {1, 4};
    return data;
  };
  auto blocker = submit("slow", input(0));
  std::vector<std::future<Response>> answers;
  for (int i = 0; i < 3; ++i)
    answers.push_back(submit("rows", rowInput(float(10 * i))));
  blocker.get();
  for (int i = 0; i < 3; ++i) {
    Response response = answers[size_t(i)].get();
    ASSERT_EQ(response.outcome, Outcome::kCompleted);
    ASSERT_TRUE(response.data->status.isOk())
        << response.data->status.toString();
    EXPECT_EQ(response.batchSize, 3);
    ASSERT_EQ(response.data->outputs.size(), 1u);
    EXPECT_EQ(response.data->outputs[0].shape, (std::vector<int64_t>{1, 4}));
    EXPECT_EQ(outputAt(response, 0), 20.0f * float(i));
    EXPECT_EQ(outputAt(response, 3), 2 * (10.0f * float(i) + 3));
  }
  ASSERT_TRUE(lastRows4);
  EXPECT_EQ(lastRows4->runs.load(), 1);
}

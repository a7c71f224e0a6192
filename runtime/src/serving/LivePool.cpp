//===- LivePool.cpp - The device pool in wall-clock time ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/LivePool.h"

#include "kiln/runtime/serving/InferenceData.h"

#include <chrono>

namespace kiln::rt::serving {

LivePool::LivePool(PoolOptions options, Micros tickPeriod)
    : tickPeriod_(tickPeriod), timer_(*this) {
  pool_ = std::make_unique<DevicePool>(
      clock_, std::move(options),
      [this](const Response &response) { onResponse(response); }, &timer_);
}

LivePool::~LivePool() { shutdown(); }

int LivePool::addCpuDevice(CpuDeviceOptions options, ExecutableLoader load) {
  // Completions enter the pool under its lock, unless it is shutting down.
  CompletionGate gate = [this](std::function<void()> done) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!stopped_)
      done();
  };
  cpuDevices_.push_back(std::make_unique<CpuDevice>(
      std::move(options), std::move(load), clock_, std::move(gate)));
  std::lock_guard<std::mutex> lock(mutex_);
  return pool_->addDevice(*cpuDevices_.back());
}

Status LivePool::addModel(ModelSpec model) {
  std::lock_guard<std::mutex> lock(mutex_);
  return pool_->addModel(std::move(model));
}

void LivePool::start() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pool_->start();
    started_ = true;
    scheduleTick();
  }
  timerThread_ = std::thread([this] { timer_.run(); });
}

void LivePool::scheduleTick() {
  if (tickPeriod_ <= 0)
    return;
  timer_.callAt(clock_.now() + tickPeriod_, [this] {
    pool_->tick();
    scheduleTick();
  });
}

RequestId LivePool::submit(Request request, ResponseCallback done,
                           Micros timeout) {
  std::lock_guard<std::mutex> lock(mutex_);
  request.id = nextId_++;
  // Stamped under the lock: the deadline counts from the arrival the pool
  // sees, however long the caller waited for the lock.
  request.arrival = clock_.now();
  request.deadline = timeout > 0 ? request.arrival + timeout : kNoDeadline;
  RequestId id = request.id;
  if (stopped_) {
    Response response;
    response.id = id;
    response.model = request.model;
    response.outcome = Outcome::kCancelled;
    response.arrival = response.finish = request.arrival;
    response.data = request.data;
    done(response);
    return id;
  }
  waiting_[id] = std::move(done);
  pool_->submit(std::move(request));
  return id;
}

bool LivePool::cancel(RequestId id) {
  std::lock_guard<std::mutex> lock(mutex_);
  return !stopped_ && pool_->cancel(id);
}

Status LivePool::loadModel(const std::string &model, int device) {
  std::lock_guard<std::mutex> lock(mutex_);
  return pool_->loadModel(model, device);
}

Status LivePool::unloadModel(const std::string &model, int device) {
  std::lock_guard<std::mutex> lock(mutex_);
  return pool_->unloadModel(model, device);
}

Status LivePool::reloadModel(ModelSpec model) {
  std::lock_guard<std::mutex> lock(mutex_);
  return pool_->reloadModel(std::move(model));
}

void LivePool::inspect(
    const std::function<void(const DevicePool &)> &read) const {
  std::lock_guard<std::mutex> lock(mutex_);
  read(*pool_);
}

std::vector<Micros> LivePool::deviceBusyTimes() const {
  std::vector<Micros> times;
  for (const auto &device : cpuDevices_)
    times.push_back(device->busyTime());
  return times;
}

void LivePool::setLatencyLearning(std::size_t window) {
  std::lock_guard<std::mutex> lock(mutex_);
  learningWindow_ = window;
}

void LivePool::learnLatency(const Response &response) {
  if (learningWindow_ == 0 || response.outcome != Outcome::kCompleted ||
      !response.data || !response.data->status.isOk() ||
      response.data->executionEnd <= response.data->executionStart)
    return;
  int model = pool_->modelIndex(response.model);
  if (model < 0 ||
      pool_->model(model).profile.batchSizes() != std::vector<int>{1})
    return; // several variants: a batch's time is not one request's
  std::vector<Micros> &times = executions_[model];
  times.push_back(response.data->executionEnd - response.data->executionStart);
  if (times.size() < learningWindow_)
    return;
  Micros total = 0;
  for (Micros time : times)
    total += time;
  LatencyProfile profile;
  if (profile.set(1, std::max<Micros>(1, total / Micros(times.size()))).isOk())
    (void)pool_->setProfile(model, profile);
  times.clear();
}

void LivePool::onResponse(const Response &response) {
  learnLatency(response);
  auto found = waiting_.find(response.id);
  if (found == waiting_.end())
    return;
  ResponseCallback done = std::move(found->second);
  waiting_.erase(found);
  done(response);
}

void LivePool::shutdown() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopped_)
      return;
    stopped_ = true;
  }
  timer_.stop();
  if (timerThread_.joinable())
    timerThread_.join();
  for (auto &device : cpuDevices_)
    device->stop();
  // Nobody waits forever: what is still in flight is answered cancelled.
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto &[id, done] : waiting_) {
    Response response;
    response.id = id;
    response.outcome = Outcome::kCancelled;
    response.finish = clock_.now();
    done(response);
  }
  waiting_.clear();
}

void LivePool::ThreadTimer::callAt(Micros time, std::function<void()> action) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    agenda_.emplace(time, std::move(action));
  }
  changed_.notify_one();
}

void LivePool::ThreadTimer::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_one();
}

void LivePool::ThreadTimer::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    if (agenda_.empty()) {
      changed_.wait(lock);
      continue;
    }
    Micros due = agenda_.begin()->first;
    Micros now = owner_.clock_.now();
    if (due > now) {
      changed_.wait_for(lock, std::chrono::microseconds(due - now));
      continue;
    }
    std::function<void()> action = std::move(agenda_.begin()->second);
    agenda_.erase(agenda_.begin());
    // Lock order: the pool's lock, then the timer's (callAt runs under the
    // pool's lock), so the action runs with the timer's lock released.
    lock.unlock();
    {
      std::lock_guard<std::mutex> poolLock(owner_.mutex_);
      if (!owner_.stopped_)
        action();
    }
    lock.lock();
  }
}

} // namespace kiln::rt::serving

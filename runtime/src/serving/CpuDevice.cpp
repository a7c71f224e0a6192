//===- CpuDevice.cpp - A set of CPU cores running Kiln artifacts ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/CpuDevice.h"

#include "kiln/runtime/Artifact.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>

namespace kiln::rt::serving {

ExecutableLoader artifactLoader(ArtifactLocator locate, unsigned threads) {
  return [locate = std::move(locate), threads](const std::string &model)
             -> StatusOr<std::shared_ptr<DeviceExecutable>> {
    StatusOr<std::string> path = locate(model);
    if (!path.isOk())
      return path.status();
    StatusOr<Artifact> artifact = readArtifactFile(*path);
    if (!artifact.isOk())
      return artifact.status();
    ExecutableOptions options;
    options.threads = threads;
    StatusOr<std::unique_ptr<DeviceExecutable>> loaded =
        loadExecutable(std::move(*artifact), model, options);
    if (!loaded.isOk())
      return loaded.status();
    return std::shared_ptr<DeviceExecutable>(std::move(*loaded));
  };
}

CpuDevice::CpuDevice(CpuDeviceOptions options, ExecutableLoader load,
                     const Clock &clock, CompletionGate gate)
    : options_(std::move(options)), load_(std::move(load)), clock_(clock),
      gate_(std::move(gate)) {
  worker_ = std::thread([this] { runWorker(); });
  loader_ = std::thread([this] { runLoader(); });
}

CpuDevice::~CpuDevice() { stop(); }

void CpuDevice::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  workAvailable_.notify_all();
  loadAvailable_.notify_all();
  if (worker_.joinable())
    worker_.join();
  if (loader_.joinable())
    loader_.join();
}

void CpuDevice::beginLoad(const ModelSpec &model, bool, Done done) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    loads_.push_back({model.name, std::move(done)});
  }
  loadAvailable_.notify_one();
}

void CpuDevice::unload(const ModelSpec &model) {
  // A running execution keeps its executable alive through the job's
  // shared_ptr; the pool only unloads drained replicas anyway.
  std::lock_guard<std::mutex> lock(mutex_);
  executables_.erase(model.name);
  loadErrors_.erase(model.name);
}

CpuDevice::Job CpuDevice::makeJob(const ModelSpec &model,
                                  const std::vector<Request> &requests,
                                  Done done) {
  Job job;
  auto found = executables_.find(model.name);
  if (found != executables_.end())
    job.executable = found->second;
  else if (auto error = loadErrors_.find(model.name);
           error != loadErrors_.end())
    job.loadError = error->second;
  else
    job.loadError = Status(StatusCode::kFailedPrecondition,
                           "model '" + model.name + "' is not loaded on '" +
                               options_.spec.name + "'");
  for (const Request &request : requests)
    job.requests.push_back(request.data);
  job.requestLatency = predictBatch(model, 1);
  job.done = std::move(done);
  return job;
}

void CpuDevice::beginBatch(const ModelSpec &model,
                           const std::vector<Request> &requests, Stream stream,
                           Done done) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    Job &slot = stream == Stream::kHigh ? high_ : normal_;
    slot = makeJob(model, requests, std::move(done));
    ++batches_;
  }
  workAvailable_.notify_one();
}

Micros CpuDevice::highStreamDelay() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!executing_)
    return 0;
  return std::max<Micros>(0, executionStart_ + executionLatency_ -
                                 clock_.now());
}

Micros CpuDevice::predictBatch(const ModelSpec &model, int requests) const {
  // One execution per request: an artifact holds one batch size here.
  Micros one = model.profile.latencyFor(1);
  Micros latency = model.profile.largestBatch() > 1
                       ? model.profile.latencyFor(requests)
                       : one * std::max(1, requests);
  return Micros(double(latency) / options_.spec.speed);
}

Micros CpuDevice::predictLoad(const ModelSpec &model, bool fromHost) const {
  return fromHost ? model.reloadTime : model.coldLoadTime;
}

Micros CpuDevice::busyTime() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return busyTime_;
}

std::uint64_t CpuDevice::batches() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return batches_;
}

void CpuDevice::pinToCores() {
  if (options_.cores.empty())
    return;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int core : options_.cores)
    if (core >= 0 && core < CPU_SETSIZE)
      CPU_SET(core, &set);
  // Best effort: a core outside the process's affinity leaves it unpinned.
  (void)pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void execute(DeviceExecutable *executable, const Status &loadError,
                    InferenceData *data) {
  if (!data)
    return;
  if (!executable) {
    data->status = loadError;
    return;
  }
  data->status = executable->run(data->inputs, data->outputs);
}

void CpuDevice::runWorker() {
  pinToCores();
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    workAvailable_.wait(lock, [&] {
      return stopping_ || high_.active() || normal_.active();
    });
    if (stopping_)
      return;
    // The high-priority stream goes first at every request boundary.
    Job &job = high_.active() ? high_ : normal_;
    if (job.next < job.requests.size()) {
      std::shared_ptr<InferenceData> data = job.requests[job.next++];
      std::shared_ptr<DeviceExecutable> executable = job.executable;
      Status loadError = job.loadError;
      executing_ = true;
      executionStart_ = clock_.now();
      executionLatency_ = job.requestLatency;
      lock.unlock();
      execute(executable.get(), loadError, data.get());
      Micros end = clock_.now();
      if (data) {
        data->executionStart = executionStart_;
        data->executionEnd = end;
      }
      lock.lock();
      executing_ = false;
      busyTime_ += end - executionStart_;
    }
    // `job` still names the same slot: only this thread finishes jobs,
    // and the pool starts no new batch on a busy stream.
    if (job.next == job.requests.size()) {
      Done done = std::move(job.done);
      job = Job();
      lock.unlock();
      gate_(std::move(done));
      lock.lock();
    }
  }
}

void CpuDevice::runLoader() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    loadAvailable_.wait(lock, [&] { return stopping_ || !loads_.empty(); });
    if (stopping_)
      return;
    LoadJob job = std::move(loads_.front());
    loads_.pop_front();
    lock.unlock();
    StatusOr<std::shared_ptr<DeviceExecutable>> loaded = load_(job.model);
    lock.lock();
    if (loaded.isOk())
      executables_[job.model] = std::move(*loaded);
    else
      loadErrors_[job.model] = loaded.status().withContext(
          "loading model '" + job.model + "' on '" + options_.spec.name + "'");
    lock.unlock();
    gate_(std::move(job.done));
    lock.lock();
  }
}

} // namespace kiln::rt::serving

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
#include <cstddef>

namespace kiln::rt::serving {

ExecutableLoader artifactLoader(ArtifactLocator locate, unsigned threads) {
  return [locate = std::move(locate), threads](
             const std::string &model,
             int batchSize) -> StatusOr<std::shared_ptr<DeviceExecutable>> {
    StatusOr<std::string> path = locate(model, batchSize);
    if (!path.isOk())
      return path.status();
    StatusOr<Artifact> artifact = readArtifactFile(*path);
    if (!artifact.isOk())
      return artifact.status();
    // A variant packed into the file (kilnc --batch-sizes), else the file's
    // own program (a NAME@bN.kiln file, or batch 1).
    Artifact chosen;
    auto packed = std::find_if(
        artifact->batchVariants.begin(), artifact->batchVariants.end(),
        [&](const BatchVariant &v) { return int64_t(v.batch) == batchSize; });
    if (packed != artifact->batchVariants.end()) {
      chosen = *packed->artifact;
    } else {
      chosen = std::move(*artifact);
      chosen.batchVariants.clear();
    }
    ExecutableOptions options;
    options.threads = threads;
    StatusOr<std::unique_ptr<DeviceExecutable>> loaded =
        loadExecutable(std::move(chosen), model, options);
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
    loads_.push_back({model.name, model.profile.batchSizes(), std::move(done)});
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
  if (model.profile.largestBatch() > 1)
    job.variant = model.profile.variantFor(int(requests.size()));
  auto found = executables_.find(model.name);
  if (found != executables_.end() && found->second.count(job.variant))
    job.executable = found->second.at(job.variant);
  else if (auto error = loadErrors_.find(model.name);
           error != loadErrors_.end())
    job.loadError = error->second;
  else
    job.loadError = Status(StatusCode::kFailedPrecondition,
                           "model '" + model.name + "' is not loaded on '" +
                               options_.spec.name + "'");
  for (const Request &request : requests)
    job.requests.push_back(request.data);
  job.stepLatency = predictBatch(model, job.variant);
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

void runStacked(DeviceExecutable &executable, int variant,
                const std::vector<std::shared_ptr<InferenceData>> &requests) {
  const Program &program = executable.program();
  auto fail = [&](Status status) {
    for (const auto &data : requests)
      if (data)
        data->status = status;
  };
  if (requests.empty() || int(requests.size()) > variant)
    return fail(internalError("a batch of " + std::to_string(requests.size()) +
                              " requests for a variant of " +
                              std::to_string(variant)));
  std::vector<HostTensor> stacked;
  for (size_t i = 0; i < program.inputs.size(); ++i) {
    const TensorSpec &spec = program.inputs[i];
    HostTensor tensor{spec.dtype, spec.shape, {}};
    size_t rowBytes =
        size_t(tensor.numElements()) * dtypeSize(spec.dtype) / size_t(variant);
    tensor.data.assign(rowBytes * size_t(variant), 0); // padding rows: zeros
    for (size_t r = 0; r < requests.size(); ++r) {
      const InferenceData *data = requests[r].get();
      if (!data || i >= data->inputs.size() ||
          data->inputs[i].data.size() != rowBytes)
        return fail(invalidArgument("input '" + spec.name +
                                    "': a request's tensor is not one row "
                                    "of the batch"));
      std::copy(data->inputs[i].data.begin(), data->inputs[i].data.end(),
                tensor.data.begin() + std::ptrdiff_t(r * rowBytes));
    }
    stacked.push_back(std::move(tensor));
  }
  std::vector<HostTensor> outputs;
  Status status = executable.run(stacked, outputs);
  if (!status.isOk())
    return fail(status);
  for (size_t r = 0; r < requests.size(); ++r) {
    InferenceData &data = *requests[r];
    data.outputs.clear();
    for (const HostTensor &output : outputs) {
      HostTensor row{output.dtype, output.shape, {}};
      row.shape[0] = 1;
      size_t rowBytes = output.data.size() / size_t(variant);
      row.data.assign(output.data.begin() + std::ptrdiff_t(r * rowBytes),
                      output.data.begin() + std::ptrdiff_t((r + 1) * rowBytes));
      data.outputs.push_back(std::move(row));
    }
    data.status = Status::ok();
  }
}

/// Runs the requests of one step: one request, or (variant > 1) them all.
static void execute(DeviceExecutable *executable, int variant,
                    const Status &loadError,
                    const std::vector<std::shared_ptr<InferenceData>> &step) {
  if (!executable) {
    for (const auto &data : step)
      if (data)
        data->status = loadError;
    return;
  }
  if (variant > 1)
    return runStacked(*executable, variant, step);
  for (const auto &data : step)
    if (data)
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
      // One step: the next request, or the whole batch of a variant.
      size_t count = job.variant > 1 ? job.requests.size() - job.next : 1;
      std::vector<std::shared_ptr<InferenceData>> step(
          job.requests.begin() + std::ptrdiff_t(job.next),
          job.requests.begin() + std::ptrdiff_t(job.next + count));
      job.next += count;
      std::shared_ptr<DeviceExecutable> executable = job.executable;
      Status loadError = job.loadError;
      int variant = job.variant;
      executing_ = true;
      executionStart_ = clock_.now();
      executionLatency_ = job.stepLatency;
      lock.unlock();
      execute(executable.get(), variant, loadError, step);
      Micros end = clock_.now();
      for (const auto &data : step)
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
    std::map<int, std::shared_ptr<DeviceExecutable>> variants;
    Status status;
    for (int variant : job.variants) {
      StatusOr<std::shared_ptr<DeviceExecutable>> loaded =
          load_(job.model, variant);
      if (!loaded.isOk()) {
        status = loaded.status();
        break;
      }
      variants[variant] = std::move(*loaded);
    }
    lock.lock();
    if (status.isOk())
      executables_[job.model] = std::move(variants);
    else
      loadErrors_[job.model] = status.withContext(
          "loading model '" + job.model + "' on '" + options_.spec.name + "'");
    lock.unlock();
    gate_(std::move(job.done));
    lock.lock();
  }
}

} // namespace kiln::rt::serving

//===- Server.cpp - kiln-serve: the Open Inference Protocol over HTTP -----===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Server.h"

#include "FolderWatch.h"

#include "InferenceProtocol.h"
#include "ModelConfig.h"

#include "kiln/runtime/Artifact.h"
#include "kiln/runtime/serving/InferenceData.h"
#include "kiln/runtime/serving/Json.h"

#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <future>
#include <sched.h>
#include <sys/stat.h>

namespace kiln::serve {

using namespace rt::serving;
using rt::Status;
using rt::StatusCode;
using rt::StatusOr;

namespace {

constexpr const char *kJson = "application/json";

void sendError(httplib::Response &response, int status,
               const std::string &message) {
  response.status = status;
  response.set_content(errorJson(message), kJson);
}

int httpStatusOf(const Status &status) {
  switch (status.code()) {
  case StatusCode::kNotFound:
    return 404;
  case StatusCode::kResourceExhausted:
  case StatusCode::kUnavailable:
    return 503;
  case StatusCode::kInternal:
  case StatusCode::kDataLoss:
    return 500;
  default:
    return 400;
  }
}

/// What a rejected request is told: the status and a sentence.
std::pair<int, std::string> rejection(const Response &response) {
  std::string model = ServedName::parse(response.model).describe() + ": ";
  switch (response.reason) {
  case RejectReason::kQueueFull:
    return {503, model + "queue full at priority " +
                     std::to_string(response.priority) + " (retry later)"};
  case RejectReason::kNoCapacity:
    return {503, model + "no device can hold the model now"};
  case RejectReason::kDeadlineInfeasible:
    return {504, model + "cannot finish within its timeout (rejected at "
                         "admission)"};
  case RejectReason::kDeadlineExpired:
    return {504, model + "its timeout expired while it waited"};
  case RejectReason::kInvalidPriority:
    return {400, model + "priority " + std::to_string(response.priority) +
                     " is not a level of this server"};
  case RejectReason::kUnknownModel:
    return {404, model + "unknown model"};
  case RejectReason::kNone:
    break;
  }
  return {500, model + "rejected"};
}

} // namespace

/// Moves the calling thread, and so every thread it starts later (HTTP
/// workers, the pool's timer, device loaders), off the cores the device
/// workers are pinned to, so a device's core runs its executions alone.
/// Nothing changes when that would leave no core.
static void keepOffDeviceCores(const std::vector<std::vector<int>> &cores) {
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
    return;
  cpu_set_t rest = allowed;
  for (const std::vector<int> &device : cores)
    for (int core : device)
      if (core >= 0 && core < CPU_SETSIZE)
        CPU_CLR(core, &rest);
  if (CPU_COUNT(&rest) > 0 && CPU_COUNT(&rest) < CPU_COUNT(&allowed))
    (void)sched_setaffinity(0, sizeof(rest), &rest);
}

Server::Server(ServerOptions options, ModelRepository repository)
    : options_(std::move(options)), repository_(std::move(repository)) {}

Server::~Server() {
  stop();
  if (poller_.joinable())
    poller_.join();
  // Written again at the end: with the profiles as the pool refined them.
  if (pool_ && !options_.simConfig.empty())
    (void)writeSimConfig();
  if (pool_)
    pool_->shutdown();
  if (requestLog_)
    std::fclose(requestLog_);
}

StatusOr<std::unique_ptr<Server>> Server::create(ServerOptions options) {
  if (options.devices < 1 || options.devices > 1024)
    return rt::invalidArgument("--devices must be between 1 and 1024");
  int levels = options.pool.queue.priorityLevels;
  if (options.defaultPriority >= levels)
    return rt::invalidArgument("--default-priority must be below " +
                               std::to_string(levels));
  if (options.defaultPriority < 0)
    options.defaultPriority = levels - 1;
  StatusOr<ModelRepository> repository =
      ModelRepository::open(options.repository);
  if (!repository.isOk())
    return repository.status();
  std::unique_ptr<Server> server(
      new Server(std::move(options), std::move(*repository)));
  const ServerOptions &opts = server->options_;
  server->energy_ = std::make_unique<RaplEnergy>(opts.powercapRoot);
  if (!opts.requestLog.empty()) {
    server->requestLog_ = std::fopen(opts.requestLog.c_str(), "w");
    if (!server->requestLog_)
      return rt::notFound("cannot write the request log '" + opts.requestLog +
                          "'");
    std::fputs("id,model,priority,arrival_us,deadline_us,finish_us,outcome,"
               "reason,device,execution_start_us,execution_end_us\n",
               server->requestLog_);
  }
  std::vector<std::vector<int>> deviceCores(size_t(opts.devices));
  if (opts.pin)
    for (int d = 0; d < opts.devices; ++d)
      for (unsigned t = 0; t < opts.threadsPerDevice; ++t) {
        size_t slot = size_t(d) * opts.threadsPerDevice + t;
        deviceCores[size_t(d)].push_back(
            slot < opts.cores.size() ? opts.cores[slot] : int(slot));
      }
  keepOffDeviceCores(deviceCores);
  server->pool_ =
      std::make_unique<LivePool>(opts.pool, opts.tickPeriod);
  server->pool_->setLatencyLearning(opts.latencyWindow);
  const ModelRepository *repo = &server->repository_;
  ExecutableLoader loader = artifactLoader(
      [repo](const std::string &poolName, int batchSize) {
        ServedName served = ServedName::parse(poolName);
        // No NAME@bN.kiln: the variant is packed into NAME.kiln.
        StatusOr<std::string> file =
            repo->locate(served.model, batchSize, served.version);
        return file.isOk() || batchSize == 1
                   ? file
                   : repo->locate(served.model, 1, served.version);
      },
      opts.threadsPerDevice);
  for (int d = 0; d < opts.devices; ++d) {
    CpuDeviceOptions device;
    device.spec = {"cpu" + std::to_string(d), opts.deviceMemoryBytes, 0, 1.0};
    device.cores = deviceCores[size_t(d)];
    server->pool_->addCpuDevice(device, loader);
  }
  server->pool_->start();
  std::lock_guard<std::mutex> lock(server->mutex_);
  for (const std::string &model : server->repository_.scan()) {
    // A model whose config.pbtxt cannot be read is left out (the
    // repository index says why) until the file is fixed.
    if (!server->readConfig(model).isOk())
      continue;
    for (const std::string &name : server->wantedNames(model)) {
      Status status = server->registerModel(name);
      if (status.isOk() && opts.loadAtStart)
        status = server->loadEverywhere(name);
      if (!status.isOk())
        std::fprintf(stderr, "kiln-serve: %s\n", status.message().c_str());
    }
  }
  if (!opts.simConfig.empty())
    if (Status status = server->writeSimConfig(); !status.isOk())
      return status;
  server->routes();
  if (opts.poll)
    server->poller_ = std::thread([raw = server.get()] { raw->pollLoop(); });
  return server;
}

/// `message` with the repository's folder left out: clients see model
/// files by name, never where the server keeps them.
static std::string withoutFolder(std::string message,
                                 const std::string &folder) {
  std::string prefix = folder + "/";
  for (size_t at; (at = message.find(prefix)) != std::string::npos;)
    message.erase(at, prefix.size());
  return message;
}

/// A batch-size variant must be the model with `batch` rows on axis 0:
/// the same inputs and outputs (names, types), the base with 1 row.
static Status sameInterface(const rt::Program &base, const rt::Program &variant,
                            int batch) {
  for (const auto *tensors : {&base.inputs, &base.outputs})
    for (const rt::TensorSpec &one : *tensors)
      if (one.shape.empty() || one.shape[0] != 1)
        return rt::invalidArgument(
            std::string(tensors == &base.inputs ? "input" : "output") + " '" +
            one.name +
            "' of the base model must have 1 row on axis 0 to be "
            "batched");
  return rt::checkBatchVariant(base, variant, batch);
}

/// Adds a measured variant to the model's profile and footprint.
static void addVariant(ModelSpec &spec, int batch, const ModelSpec &variant) {
  (void)spec.profile.set(batch, variant.profile.unloadedLatency());
  spec.footprint.weightsBytes += variant.footprint.weightsBytes;
  spec.footprint.arenaBytes += variant.footprint.arenaBytes;
  spec.coldLoadTime += variant.coldLoadTime;
  spec.reloadTime += variant.reloadTime;
  spec.stepTime = std::max(spec.stepTime, variant.stepTime);
}

StatusOr<Server::MeasuredModel>
Server::measureModel(const std::string &poolName) {
  ServedName served = ServedName::parse(poolName);
  const std::string &name = served.model;
  int pinned = served.version; // 0: the highest there is
  auto failVariant = [&](const Status &status, const std::string &variant) {
    return status.withContext(served.describe() + ", variant " + variant);
  };
  StatusOr<std::string> path = repository_.locate(name, 1, pinned);
  if (!path.isOk())
    return path.status();
  // Stamped before they are read: a file rewritten meanwhile differs from
  // its stamp, so the next load request reads it again.
  int version = pinned ? pinned : repository_.servedVersion(name);
  std::map<int, FileStamp> files = repository_.versions(name, pinned);
  if (!files.count(1))
    return rt::notFound(served.describe() + ": cannot read '" + *path + "'");
  // One read of each artifact: it is measured and its program kept.
  auto readStart = std::chrono::steady_clock::now();
  StatusOr<rt::Artifact> artifact = rt::readArtifactFile(*path);
  if (!artifact.isOk())
    return artifact.status().withContext(served.describe());
  std::vector<rt::BatchVariant> packed = std::move(artifact->batchVariants);
  artifact->batchVariants.clear();
  rt::Program program;
  // The file's size counts the packed variants' weights too.
  StatusOr<ModelSpec> spec = profileCpuArtifact(
      poolName, std::move(*artifact), uint64_t(files[1].size),
      options_.threadsPerDevice, options_.timingRuns, readStart, &program);
  if (!spec.isOk())
    return spec.status();
  // Batch-size variants: the same interface with N rows on axis 0, packed
  // into the file (kilnc compile --batch-sizes) or in NAME@bN.kiln files.
  for (const rt::BatchVariant &variant : packed) {
    std::string label = "batch " + std::to_string(variant.batch);
    if (Status same = sameInterface(program, variant.artifact->program,
                                    int(variant.batch));
        !same.isOk())
      return failVariant(same, label);
    StatusOr<ModelSpec> measured = profileCpuArtifact(
        poolName, *variant.artifact, 0, options_.threadsPerDevice,
        options_.timingRuns, std::chrono::steady_clock::now());
    if (!measured.isOk())
      return failVariant(measured.status(), label);
    addVariant(*spec, int(variant.batch), *measured);
  }
  for (int batch : repository_.variants(name, pinned)) {
    std::string label = name + "@b" + std::to_string(batch);
    if (spec->profile.hasVariant(batch))
      return failVariant(rt::invalidArgument("batch " + std::to_string(batch) +
                                             " is also packed into " + name +
                                             ".kiln"),
                         label);
    StatusOr<std::string> variantPath = repository_.locate(name, batch, pinned);
    rt::Program variantProgram;
    StatusOr<ModelSpec> variant =
        variantPath.isOk()
            ? profileCpuModel(poolName, *variantPath, options_.threadsPerDevice,
                              options_.timingRuns, &variantProgram)
            : StatusOr<ModelSpec>(variantPath.status());
    if (!variant.isOk())
      return variant.status();
    if (Status same = sameInterface(program, variantProgram, batch);
        !same.isOk())
      return failVariant(same, label);
    addVariant(*spec, batch, *variant);
  }
  MeasuredModel measured;
  measured.program = std::make_shared<const rt::Program>(std::move(program));
  measured.spec = std::move(*spec);
  measured.files = std::move(files);
  measured.version = version;
  return measured;
}

Status Server::registerModel(const std::string &name) {
  ServedModel &model = models_[name];
  auto fail = [&](const Status &status) {
    model.reason = withoutFolder(status.message(), repository_.folder());
    return Status(status.code(), model.reason);
  };
  StatusOr<MeasuredModel> measured = measureModel(name);
  if (!measured.isOk())
    return fail(measured.status());
  Status added = pool_->addModel(measured->spec);
  if (!added.isOk())
    return fail(added);
  model.take(std::move(*measured));
  model.registered = true;
  model.reason = "not loaded";
  return Status::ok();
}

bool Server::fileChanged(const std::string &name) {
  const ServedModel &model = models_[name];
  ServedName served = ServedName::parse(name);
  return (served.version == 0 &&
          repository_.servedVersion(served.model) != model.version) ||
         repository_.versions(served.model, served.version) != model.files;
}

VersionPolicy Server::policyOf(const std::string &model) const {
  if (auto found = options_.modelVersionPolicies.find(model);
      found != options_.modelVersionPolicies.end())
    return found->second;
  if (auto found = configs_.find(model);
      found != configs_.end() && found->second.policy)
    return *found->second.policy;
  return options_.versionPolicy;
}

/// A configuration larger than this is refused unread.
static constexpr off_t kMaxConfigBytes = 1 << 20;

/// How long a changed configuration must have been left alone before it is
/// read: a truncating `printf >` or an editor's save passes through an
/// empty or partial file, which must not be applied (it would unload
/// versions). The folder watch's settle time.
static constexpr std::int64_t kConfigQuietNs = 100'000'000;

static bool modifiedJustNow(const FileStamp &stamp) {
  timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  std::int64_t nowNs = std::int64_t(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
  return nowNs - stamp.modifiedNs < kConfigQuietNs;
}

Status Server::readConfig(const std::string &model, bool whenQuiet) {
  std::optional<ModelRepository::ConfigFile> file = repository_.config(model);
  ReadConfig &config = configs_[model];
  std::optional<FileStamp> stamp;
  if (file)
    stamp = file->stamp;
  if (stamp == config.stamp)
    return config.error;
  // A change (not the first read) that may still be being written: the
  // model keeps its configuration until the file has been quiet. A load
  // request reads it at once: whoever asks says it is ready.
  if (whenQuiet && config.stamp && stamp && modifiedJustNow(*stamp)) {
    configSettling_ = true;
    return config.error;
  }
  config.stamp = stamp;
  config.error = Status::ok();
  if (!file) {
    config.policy.reset();
    return config.error;
  }
  // Messages name the file inside the repository, never where it is.
  std::string source = model + "/config.pbtxt";
  StatusOr<ModelConfig> read = [&]() -> StatusOr<ModelConfig> {
    if (file->stamp.size > kMaxConfigBytes)
      return rt::invalidArgument(source + ": larger than 1 MiB");
    std::ifstream in(file->path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
    if (!in && !in.eof())
      return rt::invalidArgument(source + ": cannot be read");
    return parseModelConfig(text, model, source);
  }();
  if (!read.isOk()) {
    config.error = read.status();
    std::fprintf(stderr, "kiln-serve: %s\n", config.error.message().c_str());
    return config.error;
  }
  config.policy = read->versionPolicy;
  return config.error;
}

std::vector<std::string> Server::wantedNames(const std::string &model) const {
  VersionPolicy policy = policyOf(model);
  std::vector<int> there = repository_.availableVersions(model);
  if (policy.rolling())
    return there.empty() ? std::vector<std::string>{}
                         : std::vector<std::string>{model};
  std::vector<std::string> names;
  for (int version : policy.select(there))
    names.push_back(ServedName{model, version}.poolName());
  return names;
}

std::vector<std::string> Server::knownNames(const std::string &model) const {
  std::vector<std::pair<int, std::string>> known;
  for (const auto &[name, served] : models_)
    if (ServedName parsed = ServedName::parse(name); parsed.model == model)
      known.emplace_back(parsed.version, name);
  std::sort(known.begin(), known.end());
  std::vector<std::string> names;
  for (auto &[version, name] : known)
    names.push_back(std::move(name));
  return names;
}

std::string Server::resolve(const httplib::Request &request,
                            httplib::Response &response) {
  std::string model = request.matches[1].str();
  bool asked = request.matches.size() >= 3 && request.matches[2].matched;
  std::string version = asked ? request.matches[2].str() : "";
  std::lock_guard<std::mutex> lock(mutex_);
  if (policyOf(model).rolling()) {
    if (!asked)
      return model;
    auto found = models_.find(model);
    int served = found != models_.end() && found->second.registered
                     ? found->second.version
                     : repository_.servedVersion(model);
    if (served > 0 && version == std::to_string(served))
      return model;
    sendError(response, 404,
              "model '" + model + "' has no version '" + version + "'" +
                  (served > 0
                       ? " (version " + std::to_string(served) + " is served)"
                       : ""));
    return "";
  }
  std::vector<std::string> known = knownNames(model);
  if (!asked) {
    // The highest ready version, else the highest known (which says why
    // it is not ready); an unknown model is answered as such.
    for (auto name = known.rbegin(); name != known.rend(); ++name)
      if (models_[*name].ready)
        return *name;
    return known.empty() ? model : known.back();
  }
  std::string wanted = model + "/" + version;
  if (std::count(known.begin(), known.end(), wanted))
    return wanted;
  std::string served;
  for (const std::string &name : known)
    if (models_[name].registered)
      served += (served.empty() ? "" : ", ") +
                std::to_string(ServedName::parse(name).version);
  sendError(response, 404,
            "model '" + model + "' has no version '" + version + "'" +
                (served.empty() ? "" : " (versions served: " + served + ")"));
  return "";
}

Status Server::reloadModel(const std::string &name) {
  auto fail = [&](const Status &status) {
    return Status(status.code(),
                  withoutFolder(status.message(), repository_.folder()));
  };
  StatusOr<MeasuredModel> measured = measureModel(name);
  if (!measured.isOk())
    return fail(measured.status());
  Status reloaded = pool_->reloadModel(measured->spec);
  if (!reloaded.isOk())
    return fail(reloaded);
  models_[name].take(std::move(*measured));
  return Status::ok();
}

Status Server::loadEverywhere(const std::string &name) {
  ServedModel &model = models_[name];
  int loaded = 0;
  Status last;
  for (int d = 0; d < options_.devices; ++d) {
    Status status = pool_->loadModel(name, d);
    if (status.isOk() || status.code() == StatusCode::kFailedPrecondition)
      ++loaded; // FAILED_PRECONDITION: a replica is already there
    else
      last = status;
  }
  if (loaded == 0) {
    model.ready = false;
    model.reason = last.message();
    return last;
  }
  model.ready = true;
  model.reason.clear();
  return Status::ok();
}

void Server::unloadEverywhere(const std::string &name) {
  ServedModel &model = models_[name];
  model.ready = false;
  model.reason = "unloaded";
  for (int d = 0; d < options_.devices; ++d)
    (void)pool_->unloadModel(name, d); // absent replicas: nothing to do
}

void Server::routes() {
  http_ = std::make_unique<httplib::Server>();
  http_->set_payload_max_length(options_.maxBodyBytes);
  int threads = options_.httpThreads;
  http_->new_task_queue = [threads] {
    return new httplib::ThreadPool(size_t(threads));
  };
  http_->set_exception_handler(
      [](const httplib::Request &, httplib::Response &response,
         std::exception_ptr) { sendError(response, 500, "internal error"); });
  http_->set_error_handler(
      [](const httplib::Request &request, httplib::Response &response) {
        if (!response.body.empty())
          return;
        if (response.status == 404)
          sendError(response, 404, "no such endpoint: " + request.path);
        else if (response.status == 413)
          sendError(response, 413, "request body too large");
        else if (response.status == 400)
          sendError(response, 400,
                    "malformed HTTP request (a POST needs a Content-Length, "
                    "0 for an empty body)");
        else
          sendError(response, response.status, "HTTP error");
      });

  http_->Get("/v2/health/live",
             [](const httplib::Request &, httplib::Response &response) {
               response.set_content("{\"live\":true}", kJson);
             });
  http_->Get("/v2/health/ready",
             [](const httplib::Request &, httplib::Response &response) {
               response.set_content("{\"ready\":true}", kJson);
             });
  http_->Get("/v2", [](const httplib::Request &, httplib::Response &response) {
    response.set_content(
        "{\"name\":\"kiln-serve\",\"version\":\"0.1.0\",\"extensions\":["
        "\"binary_tensor_data\",\"model_repository\",\"metrics\","
        "\"statistics\"]}",
        kJson);
  });
  // Model paths, with or without /versions/<v> (the version served).
  const std::string model = R"(/v2/models/([^/]+)(?:/versions/([^/]+))?)";
  // Before `model`, which "stats" would match as a model name.
  http_->Get("/v2/models/stats",
             [this](const httplib::Request &, httplib::Response &response) {
               statistics(response, "", "");
             });
  http_->Get(model + "/stats", [this](const httplib::Request &request,
                                      httplib::Response &response) {
    // Without /versions/V: every version of the model.
    if (!request.matches[2].matched)
      return statistics(response, request.matches[1], "");
    if (std::string name = resolve(request, response); !name.empty())
      statistics(response, request.matches[1], name);
  });
  http_->Get(model, [this](const httplib::Request &request,
                           httplib::Response &response) {
    if (std::string name = resolve(request, response); !name.empty())
      modelMetadata(response, name);
  });
  http_->Get(model + "/ready", [this](const httplib::Request &request,
                                      httplib::Response &response) {
    if (std::string name = resolve(request, response); !name.empty())
      modelReady(response, name);
  });
  http_->Post(model + "/infer", [this](const httplib::Request &request,
                                       httplib::Response &response) {
    if (std::string name = resolve(request, response); !name.empty())
      infer(request, response, name);
  });
  http_->Post("/v2/repository/index",
              [this](const httplib::Request &request,
                     httplib::Response &response) {
                repositoryIndex(request, response);
              });
  http_->Post(R"(/v2/repository/models/([^/]+)/load)",
              [this](const httplib::Request &request,
                     httplib::Response &response) {
                repositoryLoad(response, request.matches[1]);
              });
  http_->Post(R"(/v2/repository/models/([^/]+)/unload)",
              [this](const httplib::Request &request,
                     httplib::Response &response) {
                repositoryUnload(response, request.matches[1]);
              });
  http_->Get("/metrics",
             [this](const httplib::Request &, httplib::Response &response) {
               metrics(response);
             });
}

StatusOr<int> Server::bind() {
  int port = options_.port == 0
                 ? http_->bind_to_any_port(options_.host)
                 : (http_->bind_to_port(options_.host, options_.port)
                        ? options_.port
                        : -1);
  if (port < 0)
    return Status(StatusCode::kUnavailable,
                  "cannot listen on " + options_.host + ":" +
                      std::to_string(options_.port));
  return port;
}

void Server::serve() { http_->listen_after_bind(); }

void Server::stop() {
  {
    std::lock_guard<std::mutex> lock(pollMutex_);
    stopping_ = true;
  }
  if (http_)
    http_->stop();
}

void Server::pollLoop() {
  using namespace std::chrono;
  // A change in the folder is looked at at once; the period is the
  // fallback (and all there is without inotify). Stopping is noticed
  // within one slice.
  constexpr milliseconds kSlice(100);
  FolderWatch watch(repository_.folder());
  auto period =
      duration_cast<milliseconds>(duration<double>(options_.pollSeconds));
  auto next = steady_clock::now() + period;
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(pollMutex_);
      if (stopping_)
        return;
    }
    auto left = duration_cast<milliseconds>(next - steady_clock::now());
    bool changed =
        watch.waitForChange(std::clamp(left, milliseconds(0), kSlice));
    if (!changed && steady_clock::now() < next)
      continue;
    // Watched before the look: a file that lands in a new folder after
    // the look is then reported, one before it is seen by the look.
    watch.watchFolders();
    pollRepository();
    constexpr milliseconds kSettle(150);
    next = steady_clock::now() +
           (configSettling_.exchange(false) ? kSettle : period);
  }
}

/// Why a model a poll found gone is not ready (and so reloaded when back).
static const char kRemoved[] = "removed from the repository";

std::string Server::unwantedReason(const std::string &name) const {
  ServedName served = ServedName::parse(name);
  if (!repository_.locate(served.model, 1, served.version).isOk())
    return kRemoved;
  // Still there: its policy (a config.pbtxt may have changed it) no
  // longer serves it this way.
  std::string policy = policyOf(served.model).str();
  return served.version > 0 ? "not a version its policy (" + policy + ") serves"
                            : "its version policy is now " + policy;
}

void Server::pollRepository() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> models = repository_.scan();
  for (const auto &[name, served] : models_)
    if (std::string model = ServedName::parse(name).model;
        !std::count(models.begin(), models.end(), model))
      models.push_back(model);
  for (const std::string &model : models) {
    // A config.pbtxt that cannot be read changes nothing: the model stays
    // as it is served until the file is fixed.
    if (!readConfig(model, /*whenQuiet=*/true).isOk())
      continue;
    // Make before break: the versions wanted now are up before the ones
    // no longer wanted go.
    std::vector<std::string> wanted = wantedNames(model);
    for (const std::string &name : wanted)
      pollWanted(name);
    for (const std::string &name : knownNames(model)) {
      if (std::count(wanted.begin(), wanted.end(), name))
        continue;
      ServedModel &served = models_[name];
      if (served.ready) {
        unloadEverywhere(name);
        served.retired = true;
        served.reason = unwantedReason(name);
      }
      served.tried.clear();
    }
  }
}

void Server::pollWanted(const std::string &name) {
  auto report = [&](const Status &status) {
    if (!status.isOk())
      std::fprintf(stderr, "kiln-serve: %s\n", status.message().c_str());
  };
  ServedModel &model = models_[name];
  ServedName served = ServedName::parse(name);
  std::map<int, FileStamp> files =
      repository_.versions(served.model, served.version);
  if (!model.registered) {
    if (files == model.tried)
      return; // These files failed already; wait for new ones.
    model.tried = files;
    Status status = registerModel(name);
    if (status.isOk())
      status = loadEverywhere(name);
    report(status);
    return;
  }
  if (fileChanged(name) && files != model.tried) {
    model.tried = files;
    Status status = reloadModel(name);
    report(status);
    if (!status.isOk())
      return; // The loaded version keeps serving.
  }
  if (!model.ready && model.retired) {
    model.retired = false;
    report(loadEverywhere(name));
  }
}

void Server::modelMetadata(httplib::Response &response,
                           const std::string &name) {
  std::lock_guard<std::mutex> lock(mutex_);
  ServedName served = ServedName::parse(name);
  auto found = models_.find(name);
  if (found == models_.end() || !found->second.registered)
    return sendError(response, 404, "unknown " + served.describe());
  // Every version served: the metadata is the one asked for (or the
  // highest ready one's).
  std::vector<std::string> versions;
  for (const std::string &known : knownNames(served.model))
    if (models_[known].ready || known == name)
      versions.push_back(std::to_string(models_[known].version));
  response.set_content(
      modelMetadataJson(served.model, *found->second.program, versions), kJson);
}

void Server::statistics(httplib::Response &response, const std::string &model,
                        const std::string &poolName) {
  std::vector<std::string> names;
  std::map<std::string, std::string> versions;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!poolName.empty())
      names.push_back(poolName);
    else if (!model.empty())
      names = knownNames(model);
    else
      for (const auto &[known, served] : models_)
        names.push_back(known);
    if (!model.empty() && names.empty())
      return sendError(response, 404, "unknown model '" + model + "'");
    for (const std::string &known : names)
      versions[known] = std::to_string(models_[known].version);
  }
  response.set_content(statistics_.render(names, versions), kJson);
}

const Server::ServedModel *Server::readyModel(httplib::Response &response,
                                              const std::string &name) {
  auto found = models_.find(name);
  if (found == models_.end()) {
    sendError(response, 404, "unknown " + ServedName::parse(name).describe());
    return nullptr;
  }
  if (!found->second.ready) {
    sendError(response, 400,
              ServedName::parse(name).describe() +
                  " is not ready: " + found->second.reason);
    return nullptr;
  }
  return &found->second;
}

void Server::modelReady(httplib::Response &response, const std::string &name) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!readyModel(response, name))
    return;
  response.set_content(
      "{\"name\":" + json::quote(ServedName::parse(name).model) +
          ",\"ready\":true}",
      kJson);
}

void Server::infer(const httplib::Request &http, httplib::Response &response,
                   const std::string &name) {
  std::shared_ptr<const rt::Program> program;
  const std::string described = ServedName::parse(name).describe();
  int version = 1; // Of `program`: a reload may change the model meanwhile.
  Micros unloaded = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const ServedModel *model = readyModel(response, name);
    if (!model)
      return;
    program = model->program;
    version = model->version;
    unloaded = model->spec.profile.unloadedLatency();
  }
  std::optional<size_t> jsonLength;
  if (http.has_header("Inference-Header-Content-Length")) {
    std::string text = http.get_header_value("Inference-Header-Content-Length");
    char *end = nullptr;
    unsigned long long value = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || text[0] == '-')
      return sendError(response, 400,
                       "Inference-Header-Content-Length is not a length");
    jsonLength = size_t(value);
  }
  StatusOr<InferRequest> parsed =
      parseInferRequest(http.body, jsonLength, *program);
  if (!parsed.isOk())
    return sendError(response, 400,
                     described + ": " + parsed.status().message());
  InferRequest &inferRequest = *parsed;
  int levels = options_.pool.queue.priorityLevels;
  int priority = inferRequest.priority.value_or(options_.defaultPriority);
  if (priority >= levels)
    return sendError(response, 400,
                     "parameters.priority " + std::to_string(priority) +
                         " is not a level (0 is the highest, " +
                         std::to_string(levels - 1) + " the lowest)");

  Request request;
  request.model = name;
  request.priority = priority;
  Micros timeout = 0;
  if (inferRequest.timeoutMicros)
    timeout = *inferRequest.timeoutMicros;
  else if (options_.sloMultiple > 0)
    timeout = Micros(options_.sloMultiple * double(unloaded));
  request.data = std::make_shared<InferenceData>();
  request.data->inputs = std::move(inferRequest.inputs);

  // Shared: the pool's thread may still be inside set_value when this
  // thread wakes up and returns.
  auto promise = std::make_shared<std::promise<Response>>();
  std::future<Response> answer = promise->get_future();
  pool_->submit(
      std::move(request),
      [this, promise](const Response &done) {
        bool failed = done.outcome == Outcome::kCompleted && done.data &&
                      !done.data->status.isOk();
        metrics_.record(done, failed);
        statistics_.record(
            done, failed,
            std::uint64_t(
                std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count()));
        logResponse(done);
        promise->set_value(done);
      },
      timeout);
  Response done = answer.get();
  if (done.outcome == Outcome::kCancelled)
    return sendError(response, 503, described + ": cancelled");
  if (done.outcome == Outcome::kRejected) {
    auto [status, message] = rejection(done);
    if (status == 503)
      response.set_header("Retry-After", "1");
    return sendError(response, status, message);
  }
  if (!done.data->status.isOk())
    return sendError(response, httpStatusOf(done.data->status),
                     described + ": " + done.data->status.message());
  StatusOr<InferResponseBody> body =
      encodeInferResponse(ServedName::parse(name).model, inferRequest, *program,
                          done.data->outputs, std::to_string(version));
  if (!body.isOk())
    return sendError(response, 400, described + ": " + body.status().message());
  if (body->jsonLength) {
    response.set_header("Inference-Header-Content-Length",
                        std::to_string(*body->jsonLength));
    response.set_content(std::move(body->body), "application/octet-stream");
  } else {
    response.set_content(std::move(body->body), kJson);
  }
}

/// One entry of the repository index.
static std::string indexEntry(const std::string &model, int version, bool ready,
                              const std::string &reason) {
  return "{\"name\":" + json::quote(model) + ",\"version\":\"" +
         std::to_string(std::max(version, 1)) + "\",\"state\":\"" +
         (ready ? "READY" : "UNAVAILABLE") +
         "\",\"reason\":" + json::quote(reason) + "}";
}

void Server::repositoryIndex(const httplib::Request &request,
                             httplib::Response &response) {
  bool onlyReady = false;
  if (!request.body.empty()) {
    StatusOr<json::Value> body = json::parse(request.body);
    if (!body.isOk() || !body->isObject())
      return sendError(response, 400,
                       "the index request must be a JSON object");
    if (const json::Value *ready = body->find("ready"))
      onlyReady = ready->isBool() && ready->asBool();
  }
  std::lock_guard<std::mutex> lock(mutex_);
  // By pool name: a model whose config.pbtxt cannot be read sorts where
  // its rolling name would.
  std::map<std::string, std::string> entries;
  for (const std::string &model : repository_.scan()) {
    Status config = readConfig(model);
    if (config.isOk()) {
      // Models that appeared in the folder since the last look.
      for (const std::string &name : wantedNames(model))
        if (!models_.count(name))
          models_[name].reason = "not loaded";
    } else if (knownNames(model).empty() && !onlyReady) {
      entries[model] = indexEntry(model, repository_.servedVersion(model),
                                  false, config.message());
    }
  }
  for (const auto &[name, model] : models_) {
    if (onlyReady && !model.ready)
      continue;
    ServedName served = ServedName::parse(name);
    // A model whose policy went from one version rolling to several (or
    // back) is listed as its policy serves it now: the other form's
    // entries, taken down, would list a version twice.
    if (!model.ready &&
        (served.version == 0) != policyOf(served.model).rolling())
      continue;
    int version = model.registered ? model.version
                  : served.version ? served.version
                                   : repository_.servedVersion(name);
    entries[name] =
        indexEntry(served.model, version, model.ready, model.reason);
  }
  std::string out = "[";
  for (const auto &[name, entry] : entries)
    out += (out.size() > 1 ? "," : "") + entry;
  response.set_content(out + "]", kJson);
}

/// What the repository API's load and unload say in poll mode.
static const char kPolled[] =
    "the repository is polled (--model-control-mode poll): add, replace or "
    "remove the model's files instead";

void Server::repositoryLoad(httplib::Response &response,
                            const std::string &model) {
  if (options_.poll)
    return sendError(response, 400, kPolled);
  std::lock_guard<std::mutex> lock(mutex_);
  if (!ModelRepository::isModelName(model))
    return sendError(response, 400, "'" + model + "' is not a model name");
  if (Status config = readConfig(model); !config.isOk())
    return sendError(response, 400, config.message());
  VersionPolicy policy = policyOf(model);
  // A rolling model not in the folder: registering it says why.
  std::vector<std::string> wanted =
      policy.rolling() ? std::vector<std::string>{model} : wantedNames(model);
  if (wanted.empty()) {
    std::vector<int> there = repository_.availableVersions(model);
    if (there.empty()) {
      Status status = repository_.locate(model).status();
      return sendError(response, httpStatusOf(status),
                       withoutFolder(status.message(), repository_.folder()));
    }
    std::string listed;
    for (int version : there)
      listed += (listed.empty() ? "" : ", ") + std::to_string(version);
    return sendError(response, 404,
                     "model '" + model + "' has no version its policy (" +
                         policy.str() + ") serves (versions there: " + listed +
                         ")");
  }
  // Make before break: the versions wanted are up before the others go.
  for (const std::string &name : wanted) {
    auto found = models_.find(name);
    if (found == models_.end() || !found->second.registered) {
      // A model added to the folder after the start joins the pool now.
      Status status = registerModel(name);
      if (!status.isOk()) {
        if (status.code() == StatusCode::kNotFound)
          models_.erase(name);
        return sendError(response, httpStatusOf(status), status.message());
      }
    } else if (fileChanged(name)) {
      // A new version of the file: the replicas reload in place; requests
      // meanwhile wait for the new version. A bad new file leaves the old
      // version serving.
      Status status = reloadModel(name);
      if (!status.isOk())
        return sendError(response, httpStatusOf(status), status.message());
    }
    Status status = loadEverywhere(name);
    if (!status.isOk())
      return sendError(response, httpStatusOf(status), status.message());
  }
  for (const std::string &name : knownNames(model))
    if (!std::count(wanted.begin(), wanted.end(), name) &&
        models_[name].ready) {
      unloadEverywhere(name);
      models_[name].reason = unwantedReason(name);
    }
  response.set_content("{}", kJson);
}

void Server::repositoryUnload(httplib::Response &response,
                              const std::string &model) {
  if (options_.poll)
    return sendError(response, 400, kPolled);
  std::lock_guard<std::mutex> lock(mutex_);
  bool unloaded = false;
  for (const std::string &name : knownNames(model))
    if (models_[name].registered) {
      unloadEverywhere(name);
      unloaded = true;
    }
  if (!unloaded)
    return sendError(response, 404, "unknown model '" + model + "'");
  response.set_content("{}", kJson);
}

void Server::logResponse(const Response &response) {
  if (!requestLog_)
    return;
  // Callbacks run under the pool's lock: lines never interleave.
  long long deadline =
      response.deadline == kNoDeadline ? -1 : (long long)response.deadline;
  long long start = response.data ? response.data->executionStart : 0;
  long long end = response.data ? response.data->executionEnd : 0;
  std::fprintf(requestLog_, "%llu,%s,%d,%lld,%lld,%lld,%s,%s,%d,%lld,%lld\n",
               (unsigned long long)response.id, response.model.c_str(),
               response.priority, (long long)response.arrival, deadline,
               (long long)response.finish, outcomeName(response.outcome),
               rejectReasonName(response.reason), response.device, start, end);
}

Status Server::writeSimConfig() const {
  auto mib = [](std::uint64_t bytes) {
    return json::number(double(bytes) / double(1 << 20));
  };
  auto ms = [](Micros micros) { return json::number(microsToMillis(micros)); };
  const PoolOptions &pool = options_.pool;
  int levels = pool.queue.priorityLevels;
  std::string out = "{\n  \"policy\": \"" +
                    std::string(policyKindName(pool.policy)) +
                    "\",\n  \"tick_ms\": " + ms(options_.tickPeriod) +
                    ",\n  \"priorities\": [";
  for (int level = 0; level < levels; ++level)
    out +=
        std::string(level ? ", " : "") + "{\"name\": \"p" +
        std::to_string(level) + "\", \"share\": " + json::number(1.0 / levels) +
        ", \"slo_x\": " +
        json::number(options_.sloMultiple >= 1 ? options_.sloMultiple : 1e6) +
        "}";
  out += "],\n  \"devices\": [{\"name\": \"cpu\", \"count\": " +
         std::to_string(options_.devices) +
         ", \"memory_mib\": " + mib(options_.deviceMemoryBytes) +
         "}],\n  \"models\": [";
  bool first = true;
  for (const auto &[name, model] : models_) {
    if (!model.registered)
      continue;
    // The pool's profile: what it measured at load, refined under load.
    ModelSpec spec = model.spec;
    pool_->inspect([&, name = name](const DevicePool &pool) {
      if (int index = pool.modelIndex(name); index >= 0)
        spec.profile = pool.model(index).profile;
    });
    out += std::string(first ? "" : ",") +
           "\n    {\"name\": " + json::quote(name) +
           ", \"weights_mib\": " + mib(spec.footprint.weightsBytes) +
           ", \"arena_mib\": " + mib(spec.footprint.arenaBytes) +
           ", \"load_ms\": " + ms(spec.coldLoadTime) +
           ", \"reload_ms\": " + ms(spec.reloadTime) +
           ", \"step_ms\": " + ms(spec.stepTime) + ", \"latency_ms\": {";
    bool firstBatch = true;
    for (int batch : spec.profile.batchSizes()) {
      out += std::string(firstBatch ? "" : ", ") + "\"" +
             std::to_string(batch) +
             "\": " + ms(spec.profile.latencyFor(batch));
      firstBatch = false;
    }
    out += "}}";
    first = false;
  }
  out += "\n  ],\n  \"pool\": {\"queue_capacity\": " +
         std::to_string(pool.queue.capacityPerLevel) +
         ", \"aging_ms\": " + ms(pool.queue.agingStep) +
         ", \"batching\": " + (pool.batching ? "true" : "false") +
         ", \"deadline_admission\": " +
         (pool.deadlineAdmission ? "true" : "false") +
         ", \"priority_stream\": " + (pool.priorityStream ? "true" : "false") +
         ", \"batch_window_ms\": " + ms(pool.batchWindow) +
         ", \"low_priority_batch_cap\": " +
         json::number(pool.lowPriorityBatchCap) + "}\n}\n";
  std::FILE *file = std::fopen(options_.simConfig.c_str(), "w");
  if (!file)
    return rt::notFound("cannot write the simulator config '" +
                        options_.simConfig + "'");
  std::fputs(out.c_str(), file);
  std::fclose(file);
  return Status::ok();
}

void Server::metrics(httplib::Response &response) {
  PoolSnapshot snapshot;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto &[name, model] : models_)
      snapshot.modelsReady[name] = model.ready;
  }
  std::vector<Micros> busy = pool_->deviceBusyTimes();
  pool_->inspect([&](const DevicePool &pool) {
    snapshot.queued = pool.queued();
    snapshot.running = pool.running();
    const PoolCounters &counters = pool.counters();
    snapshot.batches = counters.batches;
    snapshot.batchedRequests = counters.batchedRequests;
    snapshot.loads = counters.loads;
    snapshot.unloads = counters.unloads;
    for (int d = 0; d < pool.deviceCount(); ++d) {
      PoolSnapshot::DeviceFigures device;
      device.name = pool.device(d).spec().name;
      device.busySeconds = d < int(busy.size()) ? double(busy[d]) / 1e6 : 0;
      device.reservedBytes = pool.ledger(d).reservedBytes();
      device.capacityBytes = pool.ledger(d).capacityBytes();
      snapshot.devices.push_back(device);
    }
  });
  snapshot.uptimeSeconds = double(pool_->clock().now()) / 1e6;
  snapshot.cpuEnergyJoules = energy_->joules();
  response.set_content(metrics_.render(snapshot),
                       "text/plain; version=0.0.4");
}

} // namespace kiln::serve

//===- Server.h - kiln-serve: the Open Inference Protocol over HTTP -*- C++ -*-//
//
// SPDX-License-Identifier: Apache-2.0
//
// Serves every NAME.kiln of a model repository from a LivePool of CPU
// devices, speaking KServe v2 / the Open Inference Protocol over HTTP/REST
// (cpp-httplib): health, server and model metadata, infer (JSON tensors and
// the binary tensor extension), the repository extension (index, load,
// unload) and /metrics for Prometheus.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_SERVE_SERVER_H
#define KILN_TOOLS_KILN_SERVE_SERVER_H

#include "Metrics.h"
#include "ModelRepository.h"
#include "Statistics.h"
#include "VersionPolicy.h"

#include "kiln/runtime/Artifact.h"
#include "kiln/runtime/serving/LivePool.h"
#include "kiln/runtime/serving/RaplEnergy.h"

#include <atomic>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace httplib {
class Server;
struct Request;
struct Response;
} // namespace httplib

namespace kiln::serve {

struct ServerOptions {
  std::string repository;
  std::string host = "127.0.0.1";
  /// 0: any free port (bind() says which).
  int port = 8000;
  /// CPU devices, each a worker pinned to its own cores when `pin`:
  /// device d gets cores[d*T .. d*T+T-1] of `cores` (empty: 0, 1, 2, ...).
  int devices = 1;
  unsigned threadsPerDevice = 1;
  bool pin = false;
  std::vector<int> cores;
  /// Memory each device offers to models (its ledger's capacity).
  std::uint64_t deviceMemoryBytes = 4ull << 30;
  rt::serving::PoolOptions pool;
  rt::serving::Micros tickPeriod = 100'000;
  /// Level of requests that do not say (-1: the lowest level).
  int defaultPriority = -1;
  /// Deadline of requests without a timeout, as a multiple of the model's
  /// unloaded latency; 0: none.
  double sloMultiple = 0;
  std::size_t maxBodyBytes = 64u << 20;
  int httpThreads = 16;
  /// Timed executions per model when it is registered.
  int timingRuns = 5;
  /// Executions per refinement of a model's latency from what it measures
  /// while serving (LivePool::setLatencyLearning); 0: keep the profile.
  std::size_t latencyWindow = 128;
  /// Load every model at start (Triton's "none" model-control mode); else
  /// only through the repository API ("explicit").
  bool loadAtStart = true;
  /// Triton's "poll" mode: every `pollSeconds`, and as soon as inotify
  /// reports a change in the folder (FolderWatch.h), the folder is read
  /// again; new models are loaded, changed ones reloaded, removed ones
  /// unloaded, and the repository API's load and unload are refused.
  bool poll = false;
  double pollSeconds = 15;
  /// Which versions of a model in folders NAME/V/ are served
  /// (VersionPolicy.h): `modelVersionPolicies`' entry for the model, else
  /// `versionPolicy`.
  VersionPolicy versionPolicy;
  std::map<std::string, VersionPolicy> modelVersionPolicies;
  /// One CSV line per answered request (empty: none), for offline
  /// analysis and the simulated-vs-real check.
  std::string requestLog;
  /// A kiln-sim config of this server (devices, measured models, pool
  /// options), written once the models are registered (empty: none).
  std::string simConfig;
  /// Where the CPU's energy counters are (RAPL through powercap).
  std::string powercapRoot = "/sys/class/powercap";
};

/// Thread-safe.
class Server {
public:
  /// Opens the repository, registers (measures) its models and starts the
  /// pool. A model that cannot be registered stays UNAVAILABLE with its
  /// reason; only a bad repository or bad options fail.
  static rt::StatusOr<std::unique_ptr<Server>> create(ServerOptions options);
  ~Server();

  /// Binds the listening socket; returns the port.
  rt::StatusOr<int> bind();
  /// Serves until stop() (from another thread or a signal handler's
  /// helper thread).
  void serve();
  void stop();

private:
  /// A model's files, read and measured.
  struct MeasuredModel {
    std::shared_ptr<const rt::Program> program;
    rt::serving::ModelSpec spec;
    std::map<int, FileStamp> files;
    int version = 1; ///< ModelRepository::servedVersion.
  };
  /// One pool model: a rolling model NAME or one version NAME/V of a model
  /// served under another policy (ServedName).
  struct ServedModel {
    /// Shared with the requests in flight: a program can be large.
    std::shared_ptr<const rt::Program> program;
    rt::serving::ModelSpec spec;
    std::map<int, FileStamp>
        files;               ///< As measured (ModelRepository::versions).
    int version = 1;         ///< The version served.
    bool registered = false; ///< Known to the pool.
    /// Files a poll last tried to register or reload: not tried again
    /// until they change.
    std::map<int, FileStamp> tried;
    bool ready = false;
    std::string reason; ///< Why it is not ready.
    /// Unloaded by a poll because its files went or its policy no longer
    /// serves it: loaded again when it is back.
    bool retired = false;
    /// Serves `measured` from now on (its program, spec and files).
    void take(MeasuredModel measured) {
      program = std::move(measured.program);
      spec = std::move(measured.spec);
      files = std::move(measured.files);
      version = measured.version;
    }
  };

  explicit Server(ServerOptions options, ModelRepository repository);
  void routes();
  /// Reads and measures pool model `name`'s files (NAME.kiln or the
  /// version's model.kiln, its batch variants); changes nothing.
  rt::StatusOr<MeasuredModel> measureModel(const std::string &name);
  /// Measures `name` and adds it to the pool. Needs the lock.
  rt::Status registerModel(const std::string &name);
  /// Whether NAME.kiln or one of its batch-size variant files is no longer
  /// what `name` was measured from (replaced, rewritten, added, removed).
  /// Needs the lock.
  bool fileChanged(const std::string &name);
  /// Measures `name` again and hands the new version to the pool, which
  /// reloads its replicas in place; on failure the old version stays.
  /// Needs the lock.
  rt::Status reloadModel(const std::string &name);
  /// Loads a registered model on every device it fits. Needs the lock.
  rt::Status loadEverywhere(const std::string &name);
  void unloadEverywhere(const std::string &name);

  /// The policy in effect for `model`: its --model-version-policy, else
  /// its config.pbtxt's version_policy as last read well, else
  /// --version-policy. Needs the lock.
  VersionPolicy policyOf(const std::string &model) const;
  /// Reads `model`'s config.pbtxt again if it changed (or went). Returns
  /// the error of the file as it is now; a bad file leaves the policy it
  /// last read well in effect. Logs a new error once. Needs the lock.
  /// `whenQuiet` (the poll loop, which nobody told the file is ready):
  /// a change made in the last 100 ms is left for a later poll.
  rt::Status readConfig(const std::string &model, bool whenQuiet = false);
  /// The pool models `model` is to be served as now: NAME for a rolling
  /// model in the folder, NAME/V for each version its policy selects; none
  /// when the folder has none of them.
  std::vector<std::string> wantedNames(const std::string &model) const;
  /// Why pool model `name`, no longer wanted, is taken down. Needs the
  /// lock.
  std::string unwantedReason(const std::string &name) const;
  /// The pool models of `model` the server knows, by ascending version.
  /// Needs the lock.
  std::vector<std::string> knownNames(const std::string &model) const;
  /// The pool model a request's /v2/models/NAME[/versions/V] means: the
  /// version asked for, else the highest ready one. Answers 404 and
  /// returns "" for a version that is not served. Takes the lock.
  std::string resolve(const httplib::Request &request,
                      httplib::Response &response);
  /// The model if it is ready to serve; otherwise answers `response` with
  /// why (404 unknown, 400 not ready) and returns null. Needs the lock.
  const ServedModel *readyModel(httplib::Response &response,
                                const std::string &name);
  void infer(const httplib::Request &request, httplib::Response &response,
             const std::string &model);
  void modelMetadata(httplib::Response &response, const std::string &model);
  void modelReady(httplib::Response &response, const std::string &model);
  void repositoryIndex(const httplib::Request &request,
                       httplib::Response &response);
  void repositoryLoad(httplib::Response &response, const std::string &model);
  void repositoryUnload(httplib::Response &response, const std::string &model);
  void metrics(httplib::Response &response);
  /// The statistics extension: every model's (`model` empty), every
  /// version's of `model` (`poolName` empty) or one pool model's.
  void statistics(httplib::Response &response, const std::string &model,
                  const std::string &poolName);
  /// Appends one line to the request log (under the pool's lock).
  void logResponse(const rt::serving::Response &response);
  rt::Status writeSimConfig() const;
  /// One look at the folder in poll mode (see ServerOptions::poll).
  void pollRepository();
  /// Registers, reloads or loads again one wanted pool model. Needs the
  /// lock.
  void pollWanted(const std::string &name);
  void pollLoop();

  ServerOptions options_;
  ModelRepository repository_;
  std::unique_ptr<rt::serving::LivePool> pool_;
  std::unique_ptr<httplib::Server> http_;
  Metrics metrics_;
  Statistics statistics_;
  std::mutex mutex_; ///< Guards models_; taken before the pool's lock.
  std::map<std::string, ServedModel> models_;
  /// A model's config.pbtxt as last read (ModelConfig.h); guarded by
  /// mutex_.
  struct ReadConfig {
    std::optional<FileStamp> stamp;      ///< Of the file read; none: no file.
    rt::Status error;                    ///< Of that file.
    std::optional<VersionPolicy> policy; ///< From the last good file.
  };
  std::map<std::string, ReadConfig> configs_;
  /// A changed config.pbtxt was too fresh to read (it may be mid-write):
  /// the poll loop looks again soon instead of after its period.
  std::atomic<bool> configSettling_{false};
  std::FILE *requestLog_ = nullptr;
  std::unique_ptr<rt::serving::RaplEnergy> energy_;
  std::thread poller_;
  std::mutex pollMutex_;
  bool stopping_ = false; ///< Guarded by pollMutex_.
};

} // namespace kiln::serve

#endif // KILN_TOOLS_KILN_SERVE_SERVER_H

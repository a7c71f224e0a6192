//===- SimConfig.cpp - The simulator's JSON config ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Every error names the JSON path of the field at fault, and unknown keys
// are errors: a misspelt option must not silently fall back to a default.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/Simulator.h"

#include "kiln/runtime/serving/Json.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

namespace kiln::rt::serving {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

/// Reads the members of one JSON object at `path`, remembering which keys
/// were asked for so that the rest can be reported as unknown.
class ObjectReader {
public:
  ObjectReader(const json::Value &value, std::string path)
      : value_(value), path_(std::move(path)) {}

  Status expectObject() const {
    return value_.isObject() ? Status::ok() : error(path_, "must be an object");
  }
  static Status error(const std::string &path, const std::string &what) {
    return invalidArgument(path + ": " + what);
  }
  std::string pathOf(const std::string &key) const { return path_ + "." + key; }
  const json::Value *get(const std::string &key) {
    known_.insert(key);
    return value_.find(key);
  }

  /// A number in [min, max]; left unchanged when absent and optional.
  Status number(const std::string &key, double &out, double min, double max,
                bool required = false) {
    const json::Value *v = get(key);
    if (!v)
      return required ? error(pathOf(key), "is required") : Status::ok();
    if (!v->isNumber())
      return error(pathOf(key), "must be a number");
    if (v->asNumber() < min || v->asNumber() > max)
      return error(pathOf(key), "must be in [" + json::number(min) + ", " +
                                    json::number(max) + "], got " +
                                    json::number(v->asNumber()));
    out = v->asNumber();
    return Status::ok();
  }
  Status integer(const std::string &key, double &out, double min, double max,
                 bool required = false) {
    double value = out;
    KILN_RETURN_IF_ERROR(number(key, value, min, max, required));
    if (value != std::floor(value))
      return error(pathOf(key), "must be an integer");
    out = value;
    return Status::ok();
  }
  Status millis(const std::string &key, Micros &out, double min, double max,
                bool required = false) {
    double value = microsToMillis(out);
    KILN_RETURN_IF_ERROR(number(key, value, min, max, required));
    out = millisToMicros(value);
    return Status::ok();
  }
  Status string(const std::string &key, std::string &out,
                bool required = false) {
    const json::Value *v = get(key);
    if (!v)
      return required ? error(pathOf(key), "is required") : Status::ok();
    if (!v->isString() || v->asString().empty())
      return error(pathOf(key), "must be a non-empty string");
    out = v->asString();
    return Status::ok();
  }
  Status boolean(const std::string &key, bool &out) {
    const json::Value *v = get(key);
    if (!v)
      return Status::ok();
    if (!v->isBool())
      return error(pathOf(key), "must be true or false");
    out = v->asBool();
    return Status::ok();
  }
  Status noUnknownKeys() const {
    for (const auto &[key, value] : value_.members())
      if (!known_.count(key))
        return error(path_, "unknown key \"" + key + "\"");
    return Status::ok();
  }

private:
  const json::Value &value_;
  std::string path_;
  std::set<std::string> known_;
};

Status readDevices(const json::Value &list, const std::string &path,
                   SimConfig &config) {
  if (!list.isArray() || list.items().empty())
    return ObjectReader::error(path, "must be a non-empty array");
  for (std::size_t i = 0; i < list.items().size(); ++i) {
    ObjectReader device(list.items()[i], path + "[" + std::to_string(i) + "]");
    KILN_RETURN_IF_ERROR(device.expectObject());
    DeviceSpec spec;
    double count = 1, memoryMiB = 0, reserveMiB = 0;
    KILN_RETURN_IF_ERROR(device.string("name", spec.name, true));
    KILN_RETURN_IF_ERROR(device.integer("count", count, 1, 1024));
    KILN_RETURN_IF_ERROR(device.number("memory_mib", memoryMiB, 1, 1e9, true));
    KILN_RETURN_IF_ERROR(device.number("reserve_mib", reserveMiB, 0, 1e9));
    KILN_RETURN_IF_ERROR(device.number("speed", spec.speed, 1e-3, 1e3));
    KILN_RETURN_IF_ERROR(device.noUnknownKeys());
    if (reserveMiB >= memoryMiB)
      return ObjectReader::error(device.pathOf("reserve_mib"),
                                 "must be less than memory_mib");
    spec.memoryBytes = std::uint64_t(memoryMiB * kMiB);
    spec.contextReserveBytes = std::uint64_t(reserveMiB * kMiB);
    std::string base = spec.name;
    for (int n = 0; n < int(count); ++n) {
      if (count > 1)
        spec.name = base + std::to_string(n);
      config.devices.push_back(spec);
    }
  }
  return Status::ok();
}

Status readLatencies(const json::Value &table, const std::string &path,
                     LatencyProfile &profile) {
  if (!table.isObject() || table.members().empty())
    return ObjectReader::error(
        path, "must map batch sizes to milliseconds, e.g. {\"1\": 2.0}");
  for (const auto &[key, value] : table.members()) {
    std::string where = path + "[" + json::quote(key) + "]";
    char *end = nullptr;
    long batch = std::strtol(key.c_str(), &end, 10);
    if (key.empty() || *end != '\0' || batch <= 0 || batch > 65536)
      return ObjectReader::error(where,
                                 "batch size must be a positive integer");
    if (!value.isNumber() || value.asNumber() <= 0)
      return ObjectReader::error(where, "must be a positive number");
    KILN_RETURN_IF_ERROR(
        profile.set(int(batch), millisToMicros(value.asNumber())));
  }
  if (!profile.hasVariant(1))
    return ObjectReader::error(path, "needs batch size 1 (the unloaded latency "
                                     "SLOs are stated in)");
  return Status::ok();
}

Status readModels(const json::Value &list, const std::string &path,
                  SimConfig &config) {
  if (!list.isArray() || list.items().empty())
    return ObjectReader::error(path, "must be a non-empty array");
  std::set<std::string> names;
  for (std::size_t i = 0; i < list.items().size(); ++i) {
    ObjectReader model(list.items()[i], path + "[" + std::to_string(i) + "]");
    KILN_RETURN_IF_ERROR(model.expectObject());
    SimModel sim;
    double weights = 0, arena = 0, workspace = 0;
    KILN_RETURN_IF_ERROR(model.string("name", sim.spec.name, true));
    if (!names.insert(sim.spec.name).second)
      return ObjectReader::error(model.pathOf("name"),
                                 "duplicate model \"" + sim.spec.name + "\"");
    KILN_RETURN_IF_ERROR(model.number("rate_share", sim.rateShare, 0, 1e9));
    KILN_RETURN_IF_ERROR(model.number("weights_mib", weights, 0, 1e9, true));
    KILN_RETURN_IF_ERROR(model.number("arena_mib", arena, 0, 1e9));
    KILN_RETURN_IF_ERROR(model.number("workspace_mib", workspace, 0, 1e9));
    KILN_RETURN_IF_ERROR(
        model.millis("load_ms", sim.spec.coldLoadTime, 0, 1e9, true));
    sim.spec.reloadTime = sim.spec.coldLoadTime;
    KILN_RETURN_IF_ERROR(
        model.millis("reload_ms", sim.spec.reloadTime, 0, 1e9));
    KILN_RETURN_IF_ERROR(model.millis("step_ms", sim.spec.stepTime, 0, 1e9));
    const json::Value *latency = model.get("latency_ms");
    if (!latency)
      return ObjectReader::error(model.pathOf("latency_ms"), "is required");
    KILN_RETURN_IF_ERROR(
        readLatencies(*latency, model.pathOf("latency_ms"), sim.spec.profile));
    KILN_RETURN_IF_ERROR(model.noUnknownKeys());
    sim.spec.footprint.weightsBytes = std::uint64_t(weights * kMiB);
    sim.spec.footprint.arenaBytes = std::uint64_t(arena * kMiB);
    sim.spec.footprint.workspaceBytes = std::uint64_t(workspace * kMiB);
    config.models.push_back(std::move(sim));
  }
  return Status::ok();
}

Status readPriorities(const json::Value &list, const std::string &path,
                      SimConfig &config) {
  if (!list.isArray() || list.items().empty())
    return ObjectReader::error(path, "must be a non-empty array");
  for (std::size_t i = 0; i < list.items().size(); ++i) {
    ObjectReader level(list.items()[i], path + "[" + std::to_string(i) + "]");
    KILN_RETURN_IF_ERROR(level.expectObject());
    PrioritySpec spec;
    spec.name = "p" + std::to_string(i);
    KILN_RETURN_IF_ERROR(level.string("name", spec.name));
    KILN_RETURN_IF_ERROR(level.number("share", spec.share, 0, 1e9, true));
    KILN_RETURN_IF_ERROR(
        level.number("slo_x", spec.sloMultiplier, 1, 1e6, true));
    KILN_RETURN_IF_ERROR(level.noUnknownKeys());
    config.priorities.push_back(spec);
  }
  return Status::ok();
}

Status readArrivals(const json::Value &value, const std::string &path,
                    const std::string &baseDir, SimConfig &config) {
  ObjectReader arrivals(value, path);
  KILN_RETURN_IF_ERROR(arrivals.expectObject());
  std::string process;
  KILN_RETURN_IF_ERROR(arrivals.string("process", process, true));
  if (process == "poisson") {
    config.arrivals = ArrivalSource::kPoisson;
  } else if (process == "gamma") {
    config.arrivals = ArrivalSource::kGamma;
    KILN_RETURN_IF_ERROR(arrivals.number("cv", config.cv, 0.05, 100, true));
  } else if (process == "trace") {
    config.arrivals = ArrivalSource::kTrace;
    KILN_RETURN_IF_ERROR(arrivals.string("path", config.tracePath, true));
    if (config.tracePath[0] != '/' && !baseDir.empty())
      config.tracePath = baseDir + "/" + config.tracePath;
  } else {
    return ObjectReader::error(arrivals.pathOf("process"),
                               "must be \"poisson\", \"gamma\" or \"trace\", "
                               "got \"" +
                                   process + "\"");
  }
  return arrivals.noUnknownKeys();
}

Status readPool(const json::Value &value, const std::string &path,
                SimConfig &config) {
  ObjectReader pool(value, path);
  KILN_RETURN_IF_ERROR(pool.expectObject());
  PoolOptions &options = config.pool;
  double capacity = double(options.queue.capacityPerLevel);
  double maxReplicas = config.maxReplicas;
  KILN_RETURN_IF_ERROR(pool.integer("queue_capacity", capacity, 1, 1e7));
  KILN_RETURN_IF_ERROR(
      pool.millis("aging_ms", options.queue.agingStep, 0, 1e9));
  KILN_RETURN_IF_ERROR(pool.boolean("batching", options.batching));
  KILN_RETURN_IF_ERROR(
      pool.boolean("deadline_admission", options.deadlineAdmission));
  KILN_RETURN_IF_ERROR(pool.boolean("priority_stream", options.priorityStream));
  KILN_RETURN_IF_ERROR(pool.number("low_priority_batch_cap",
                                   options.lowPriorityBatchCap, 1, 1e6));
  KILN_RETURN_IF_ERROR(
      pool.millis("rate_window_ms", options.rateWindow, 1, 1e9));
  KILN_RETURN_IF_ERROR(
      pool.number("hot_utilisation", options.hotUtilisation, 0, 1e3));
  KILN_RETURN_IF_ERROR(pool.number("min_gain", options.minGain, 0, 1e3));
  KILN_RETURN_IF_ERROR(
      pool.millis("batch_window_ms", options.batchWindow, 0, 1e6));
  KILN_RETURN_IF_ERROR(pool.millis("cooldown_ms", options.cooldown, 0, 1e9));
  KILN_RETURN_IF_ERROR(
      pool.millis("idle_eviction_ms", options.idleEviction, 0, 1e9));
  KILN_RETURN_IF_ERROR(pool.integer("max_replicas", maxReplicas, 0, 1024));
  KILN_RETURN_IF_ERROR(pool.noUnknownKeys());
  options.queue.capacityPerLevel = std::size_t(capacity);
  config.maxReplicas = int(maxReplicas);
  return Status::ok();
}

Status readPhases(const json::Value &list, const std::string &path,
                  SimConfig &config) {
  if (!list.isArray())
    return ObjectReader::error(path, "must be an array");
  std::vector<double> shares;
  for (const SimModel &model : config.models)
    shares.push_back(model.rateShare);
  Micros previous = 0;
  for (std::size_t i = 0; i < list.items().size(); ++i) {
    ObjectReader phase(list.items()[i], path + "[" + std::to_string(i) + "]");
    KILN_RETURN_IF_ERROR(phase.expectObject());
    double atS = 0;
    KILN_RETURN_IF_ERROR(phase.number("at_s", atS, 0, 1e6, true));
    Micros start = millisToMicros(atS * 1000);
    if (start <= previous || start >= config.duration)
      return ObjectReader::error(phase.pathOf("at_s"),
                                 "must increase and lie inside duration_s");
    previous = start;
    const json::Value *table = phase.get("rate_share");
    if (!table || !table->isObject())
      return ObjectReader::error(phase.pathOf("rate_share"),
                                 "must map model names to shares");
    // Models not named keep the share they had.
    for (const auto &member : table->members()) {
      const std::string &name = member.first;
      const json::Value &value = member.second;
      std::string where =
          phase.pathOf("rate_share") + "[" + json::quote(name) + "]";
      auto model =
          std::find_if(config.models.begin(), config.models.end(),
                       [&](const SimModel &m) { return m.spec.name == name; });
      if (model == config.models.end())
        return ObjectReader::error(where, "no model named \"" + name + "\"");
      if (!value.isNumber() || value.asNumber() < 0)
        return ObjectReader::error(where, "must be a non-negative number");
      shares[model - config.models.begin()] = value.asNumber();
    }
    KILN_RETURN_IF_ERROR(phase.noUnknownKeys());
    config.phases.push_back({start, shares});
  }
  return Status::ok();
}

Status applyOverride(json::Value &root, const std::string &edit) {
  auto equals = edit.find('=');
  if (equals == std::string::npos || equals == 0)
    return invalidArgument("override '" + edit + "' is not PATH=VALUE");
  std::string path = edit.substr(0, equals);
  std::string text = edit.substr(equals + 1);
  StatusOr<json::Value> value = json::parse(text);
  // A bare word is a string: `policy=fifo` needs no quotes.
  json::Value parsed = value.isOk() ? *value : json::Value::string(text);
  json::Value *node = &root;
  std::size_t start = 0;
  while (true) {
    auto dot = path.find('.', start);
    std::string key = path.substr(start, dot - start);
    if (key.empty() || !node->isObject())
      return invalidArgument("override '" + edit +
                             "': path must name object members");
    if (dot == std::string::npos) {
      node->set(key, std::move(parsed));
      return Status::ok();
    }
    if (!node->find(key))
      node->set(key, json::Value::object({}));
    node = node->find(key);
    start = dot + 1;
  }
}

} // namespace

StatusOr<SimConfig> parseSimConfig(const std::string &text,
                                   const std::string &baseDir,
                                   const std::vector<std::string> &overrides) {
  StatusOr<json::Value> document = json::parse(text);
  if (!document.isOk())
    return document.status();
  for (const std::string &edit : overrides)
    KILN_RETURN_IF_ERROR(applyOverride(*document, edit));
  SimConfig config;
  ObjectReader root(*document, "$");
  KILN_RETURN_IF_ERROR(root.expectObject());

  double seed = 1, durationS = 60;
  KILN_RETURN_IF_ERROR(root.integer("seed", seed, 0, 9007199254740991.0));
  config.seed = std::uint64_t(seed);
  KILN_RETURN_IF_ERROR(root.number("duration_s", durationS, 0.001, 1e6));
  config.duration = millisToMicros(durationS * 1000);
  KILN_RETURN_IF_ERROR(root.millis("tick_ms", config.tickInterval, 1, 1e7));
  KILN_RETURN_IF_ERROR(root.number("load", config.load, 0, 100));
  std::string policy = policyKindName(config.pool.policy);
  KILN_RETURN_IF_ERROR(root.string("policy", policy));
  if (std::optional<PolicyKind> kind = parsePolicyKind(policy))
    config.pool.policy = *kind;
  else
    return ObjectReader::error(root.pathOf("policy"),
                               "must be \"kiln\", \"fifo\", \"round-robin\", "
                               "\"jsq\" or \"triton\", "
                               "got \"" +
                                   policy + "\"");

  const json::Value *devices = root.get("devices");
  if (!devices)
    return ObjectReader::error(root.pathOf("devices"), "is required");
  KILN_RETURN_IF_ERROR(readDevices(*devices, root.pathOf("devices"), config));
  const json::Value *models = root.get("models");
  if (!models)
    return ObjectReader::error(root.pathOf("models"), "is required");
  KILN_RETURN_IF_ERROR(readModels(*models, root.pathOf("models"), config));
  if (const json::Value *priorities = root.get("priorities"))
    KILN_RETURN_IF_ERROR(
        readPriorities(*priorities, root.pathOf("priorities"), config));
  else
    config.priorities.push_back(PrioritySpec{"default", 1, 10});
  if (const json::Value *arrivals = root.get("arrivals"))
    KILN_RETURN_IF_ERROR(
        readArrivals(*arrivals, root.pathOf("arrivals"), baseDir, config));
  KILN_RETURN_IF_ERROR(
      root.millis("timeline_ms", config.timelineInterval, 0, 1e9));
  if (const json::Value *phases = root.get("phases")) {
    if (config.arrivals == ArrivalSource::kTrace)
      return ObjectReader::error(root.pathOf("phases"),
                                 "does not apply to a trace");
    KILN_RETURN_IF_ERROR(readPhases(*phases, root.pathOf("phases"), config));
  }
  if (const json::Value *pool = root.get("pool"))
    KILN_RETURN_IF_ERROR(readPool(*pool, root.pathOf("pool"), config));
  KILN_RETURN_IF_ERROR(root.noUnknownKeys());
  config.pool.queue.priorityLevels = int(config.priorities.size());
  return config;
}

StatusOr<SimConfig> readSimConfig(const std::string &path,
                                  const std::vector<std::string> &overrides) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    return notFound("cannot open config '" + path + "'");
  std::stringstream text;
  text << file.rdbuf();
  auto slash = path.find_last_of('/');
  std::string baseDir =
      slash == std::string::npos ? "." : path.substr(0, slash);
  StatusOr<SimConfig> config = parseSimConfig(text.str(), baseDir, overrides);
  if (!config.isOk())
    return config.status().withContext(path);
  return config;
}

} // namespace kiln::rt::serving

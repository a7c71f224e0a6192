//===- Report.cpp - What a serving run achieved ---------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/Report.h"

#include "kiln/runtime/serving/Json.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

namespace kiln::rt::serving {

void MetricsCollector::record(const Response &response) {
  ++responses_;
  if (timelineInterval_ > 0 && response.arrival >= timelineStart_) {
    std::size_t window =
        std::size_t((response.arrival - timelineStart_) / timelineInterval_);
    if (windows_.size() <= window)
      windows_.resize(window + 1);
    if (response.outcome != Outcome::kCancelled) {
      ++windows_[window].first;
      windows_[window].second += response.metDeadline();
    }
  }
  Samples &s = samples_[{response.model, response.priority}];
  ++s.arrivals;
  switch (response.outcome) {
  case Outcome::kCompleted: {
    ++s.completed;
    if (response.metDeadline())
      ++s.metSlo;
    s.latencies.push_back(response.latency());
    auto it = unloaded_.find(response.model);
    if (it != unloaded_.end() && it->second > 0)
      s.normalised.push_back(double(response.latency()) / double(it->second));
    break;
  }
  case Outcome::kRejected:
    ++s.rejections[rejectReasonName(response.reason)];
    break;
  case Outcome::kCancelled:
    ++s.cancelled;
    break;
  }
}

double percentile(std::vector<double> values, double p) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  std::size_t rank = std::size_t(std::ceil(p * double(values.size())));
  rank = std::clamp<std::size_t>(rank, 1, values.size());
  return values[rank - 1];
}

GroupReport
MetricsCollector::summarise(const std::string &model, int priority,
                            const std::vector<const Samples *> &parts) {
  GroupReport report;
  report.model = model;
  report.priority = priority;
  std::vector<double> latencies, normalised;
  for (const Samples *s : parts) {
    report.arrivals += s->arrivals;
    report.completed += s->completed;
    report.metSlo += s->metSlo;
    report.cancelled += s->cancelled;
    for (const auto &[reason, count] : s->rejections)
      report.rejections[reason] += count;
    for (Micros latency : s->latencies)
      latencies.push_back(microsToMillis(latency));
    normalised.insert(normalised.end(), s->normalised.begin(),
                      s->normalised.end());
  }
  // Cancellations are the client's choice, not a miss of ours.
  std::uint64_t counted = report.arrivals - report.cancelled;
  report.sloAttainment = counted ? double(report.metSlo) / double(counted) : 1;
  report.p50Ms = percentile(latencies, 0.50);
  report.p99Ms = percentile(latencies, 0.99);
  report.maxMs = latencies.empty()
                     ? 0
                     : *std::max_element(latencies.begin(), latencies.end());
  report.p99OverUnloaded = percentile(normalised, 0.99);
  return report;
}

std::vector<TimelinePoint> MetricsCollector::timeline() const {
  std::vector<TimelinePoint> points;
  for (std::size_t i = 0; i < windows_.size(); ++i)
    points.push_back({microsToMillis(Micros(i) * timelineInterval_),
                      windows_[i].first, windows_[i].second});
  return points;
}

GroupReport MetricsCollector::overall() const {
  std::vector<const Samples *> parts;
  for (const auto &[key, s] : samples_)
    parts.push_back(&s);
  return summarise("*", -1, parts);
}

std::vector<GroupReport> MetricsCollector::byPriority() const {
  std::set<int> priorities;
  for (const auto &[key, s] : samples_)
    priorities.insert(key.second);
  std::vector<GroupReport> reports;
  for (int priority : priorities) {
    std::vector<const Samples *> parts;
    for (const auto &[key, s] : samples_)
      if (key.second == priority)
        parts.push_back(&s);
    reports.push_back(summarise("*", priority, parts));
  }
  return reports;
}

std::vector<GroupReport> MetricsCollector::byModelAndPriority() const {
  std::vector<GroupReport> reports;
  for (const auto &[key, s] : samples_)
    reports.push_back(summarise(key.first, key.second, {&s}));
  return reports;
}

namespace {

void writeGroup(std::ostringstream &out, const GroupReport &g,
                const std::string &indent) {
  out << "{\n";
  out << indent << "  \"model\": " << json::quote(g.model) << ",\n";
  out << indent << "  \"priority\": " << g.priority << ",\n";
  out << indent << "  \"arrivals\": " << g.arrivals << ",\n";
  out << indent << "  \"completed\": " << g.completed << ",\n";
  out << indent << "  \"met_slo\": " << g.metSlo << ",\n";
  out << indent << "  \"cancelled\": " << g.cancelled << ",\n";
  out << indent << "  \"slo_attainment\": " << json::number(g.sloAttainment)
      << ",\n";
  out << indent << "  \"p50_ms\": " << json::number(g.p50Ms) << ",\n";
  out << indent << "  \"p99_ms\": " << json::number(g.p99Ms) << ",\n";
  out << indent << "  \"max_ms\": " << json::number(g.maxMs) << ",\n";
  out << indent
      << "  \"p99_over_unloaded\": " << json::number(g.p99OverUnloaded)
      << ",\n";
  out << indent << "  \"rejections\": {";
  bool first = true;
  for (const auto &[reason, count] : g.rejections) {
    out << (first ? "" : ", ") << json::quote(reason) << ": " << count;
    first = false;
  }
  out << "}\n" << indent << "}";
}

void writeGroups(std::ostringstream &out, const std::vector<GroupReport> &gs) {
  out << "[";
  for (std::size_t i = 0; i < gs.size(); ++i) {
    out << (i ? ", " : "\n    ");
    writeGroup(out, gs[i], "    ");
  }
  out << (gs.empty() ? "]" : "\n  ]");
}

} // namespace

std::string reportToJson(const Report &report) {
  std::ostringstream out;
  out << "{\n";
  out << "  \"policy\": " << json::quote(report.policy) << ",\n";
  out << "  \"offered_load\": " << json::number(report.offeredLoad) << ",\n";
  out << "  \"measured_load\": " << json::number(report.measuredLoad) << ",\n";
  out << "  \"duration_ms\": " << json::number(report.durationMs) << ",\n";
  out << "  \"seed\": " << report.seed << ",\n";
  out << "  \"overall\": ";
  writeGroup(out, report.overall, "  ");
  out << ",\n  \"by_priority\": ";
  writeGroups(out, report.byPriority);
  out << ",\n  \"by_model_and_priority\": ";
  writeGroups(out, report.byModelAndPriority);
  out << ",\n  \"devices\": [";
  for (std::size_t i = 0; i < report.devices.size(); ++i) {
    const DeviceReport &d = report.devices[i];
    out << (i ? ",\n    " : "\n    ") << "{\"name\": " << json::quote(d.name)
        << ", \"utilisation\": " << json::number(d.utilisation)
        << ", \"batches\": " << d.batches
        << ", \"reserved_bytes\": " << d.reservedBytes
        << ", \"capacity_bytes\": " << d.capacityBytes << "}";
  }
  out << (report.devices.empty() ? "]" : "\n  ]");
  if (!report.timeline.empty()) {
    out << ",\n  \"timeline\": [";
    for (std::size_t i = 0; i < report.timeline.size(); ++i) {
      const TimelinePoint &p = report.timeline[i];
      double attainment =
          p.arrivals ? double(p.metSlo) / double(p.arrivals) : 1;
      out << (i ? ",\n    " : "\n    ")
          << "{\"start_ms\": " << json::number(p.startMs)
          << ", \"arrivals\": " << p.arrivals << ", \"met_slo\": " << p.metSlo
          << ", \"slo_attainment\": " << json::number(attainment) << "}";
    }
    out << "\n  ]";
  }
  out << ",\n  \"counters\": {";
  bool first = true;
  for (const auto &[name, value] : report.counters) {
    out << (first ? "" : ", ") << json::quote(name) << ": " << value;
    first = false;
  }
  out << "}\n}\n";
  return out.str();
}

} // namespace kiln::rt::serving

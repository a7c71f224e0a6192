//===- ProfileReport.cpp - Step timings as tables, traces, rooflines ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ProfileReport.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace kiln::tools {

namespace {
double median(std::vector<double> values) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle]
                           : (values[middle - 1] + values[middle]) / 2;
}

double mean(const std::vector<double> &values) {
  double sum = 0;
  for (double value : values)
    sum += value;
  return values.empty() ? 0 : sum / double(values.size());
}

uint64_t bindingBytes(const rt::Step &step) {
  uint64_t bytes = 0;
  for (const rt::KernelArg &arg : step.args)
    bytes += arg.bytes * ((arg.access != rt::KernelArg::Access::kWrite) +
                          (arg.access != rt::KernelArg::Access::kRead));
  return bytes;
}

std::string format(const char *pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

std::string jsonString(const std::string &text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", c);
      out += escape;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

std::string xmlText(const std::string &text) {
  std::string out;
  for (char c : text)
    out += c == '<'   ? "&lt;"
           : c == '>' ? "&gt;"
           : c == '&' ? "&amp;"
                      : std::string(1, c);
  return out;
}

std::string stepName(const rt::Step &step, uint32_t index) {
  return step.kernel.empty() ? "step #" + std::to_string(index) : step.kernel;
}
} // namespace

ProfileSummary summarize(const rt::DeviceProgram &program,
                         const std::vector<rt::ProfileSlice> &slices,
                         const rt::MachinePeaks &peaks) {
  ProfileSummary summary;
  summary.peaks = peaks;
  // A step's own time is what the device measured when it did (CUDA
  // events), else the host's slice.
  std::vector<std::vector<double>> hostTimes(program.steps.size()),
      deviceTimes(program.steps.size());
  std::vector<double> runs;
  for (const rt::ProfileSlice &slice : slices) {
    double ms = double(slice.end - slice.begin) / 1e6;
    if (slice.step == rt::kRunSlice)
      runs.push_back(ms);
    else if (slice.step < program.steps.size())
      (slice.device ? deviceTimes : hostTimes)[slice.step].push_back(ms);
  }
  summary.runs = unsigned(runs.size());
  summary.medianRunMs = median(runs);
  summary.meanRunMs = mean(runs);
  for (uint32_t i = 0; i < program.steps.size(); ++i) {
    const rt::Step &step = program.steps[i];
    StepProfile profile;
    profile.step = i;
    profile.kernel = stepName(step, i);
    profile.source = step.source;
    profile.flops = step.flops;
    profile.bytes = bindingBytes(step);
    const std::vector<double> &times =
        deviceTimes[i].empty() ? hostTimes[i] : deviceTimes[i];
    profile.medianMs = median(times);
    profile.meanMs = mean(times);
    summary.stepSumMs += profile.medianMs;
    summary.stepMeanSumMs += profile.meanMs;
    if (profile.medianMs > 0) {
      double seconds = profile.medianMs / 1e3;
      profile.gflops = double(profile.flops) / seconds / 1e9;
      profile.gbytesPerSecond = double(profile.bytes) / seconds / 1e9;
    }
    double attainable = peaks.gflops;
    if (profile.bytes > 0 && profile.flops > 0)
      attainable =
          std::min(peaks.gflops, double(profile.flops) / double(profile.bytes) *
                                     peaks.gbytesPerSecond);
    profile.roofFraction =
        profile.flops > 0 && attainable > 0
            ? profile.gflops / attainable
            : (peaks.gbytesPerSecond > 0
                   ? profile.gbytesPerSecond / peaks.gbytesPerSecond
                   : 0);
    summary.steps.push_back(std::move(profile));
  }
  std::sort(summary.steps.begin(), summary.steps.end(),
            [](const StepProfile &a, const StepProfile &b) {
              return a.medianMs != b.medianMs ? a.medianMs > b.medianMs
                                              : a.step < b.step;
            });
  return summary;
}

std::string formatProfileTable(const ProfileSummary &summary, size_t top) {
  std::string text;
  char line[512];
  if (summary.peaks.gflops <= 0) {
    text += "roofline: not known for this device (" + summary.peaks.vectors +
            "); % roof is 0\n";
  } else {
    std::snprintf(line, sizeof line,
                  "roofline: %.1f GFLOP/s fp32 FMA (%s), %.1f GB/s, %u "
                  "thread%s%s\n",
                  summary.peaks.gflops, summary.peaks.vectors.c_str(),
                  summary.peaks.gbytesPerSecond, summary.peaks.threads,
                  summary.peaks.threads == 1 ? "" : "s",
                  summary.peaks.cached ? "" : ", measured now");
    text += line;
  }
  std::snprintf(line, sizeof line, "%5s %-24s %10s %6s %9s %9s %7s  %s\n",
                "step", "kernel", "median ms", "%", "GFLOP/s", "GB/s", "% roof",
                "source");
  text += line;
  for (size_t i = 0; i < summary.steps.size() && i < top; ++i) {
    const StepProfile &step = summary.steps[i];
    double share =
        summary.stepSumMs > 0 ? 100 * step.medianMs / summary.stepSumMs : 0;
    std::snprintf(line, sizeof line,
                  "%5u %-24s %10.4f %6.1f %9.2f %9.2f %7.1f  %s\n", step.step,
                  step.kernel.c_str(), step.medianMs, share, step.gflops,
                  step.gbytesPerSecond, 100 * step.roofFraction,
                  step.source.empty() ? "-" : step.source.c_str());
    text += line;
  }
  if (summary.steps.size() > top)
    text +=
        "  ... " + std::to_string(summary.steps.size() - top) + " more steps\n";
  // Means add up (a run's steps are the mean run's); the gap is what
  // runs outside steps: argument checks, the arena, hand-overs.
  double coverage =
      summary.meanRunMs > 0 ? summary.stepMeanSumMs / summary.meanRunMs : 0;
  std::snprintf(line, sizeof line,
                "%zu steps over %u runs: a run takes %.4f ms (median %.4f); "
                "its steps %.4f ms, %.1f%% of it (means)\n",
                summary.steps.size(), summary.runs, summary.meanRunMs,
                summary.medianRunMs, summary.stepMeanSumMs, 100 * coverage);
  text += line;
  return text;
}

std::string formatTrace(const rt::DeviceProgram &program,
                        const std::vector<rt::ProfileSlice> &slices) {
  // Process 1 is the host (runs), process 2 the steps on the host clock
  // (one track per thread that ran them), process 3 what a GPU measured
  // with events.
  bool cuda = program.kind == rt::DeviceProgram::Kind::kCuda;
  std::string json = "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n";
  json += "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"args\": "
          "{\"name\": \"host\"}},\n";
  json += std::string("{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 2, "
                      "\"args\": {\"name\": ") +
          (cuda ? "\"cuda steps (host clock: launch and wait)\"" : "\"cpu device\"") +
          "}}";
  if (std::any_of(slices.begin(), slices.end(),
                  [](const rt::ProfileSlice &slice) { return slice.device; }))
    json += ",\n{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 3, "
            "\"args\": {\"name\": \"cuda device (events)\"}}";
  std::map<uint32_t, bool> threads;
  for (const rt::ProfileSlice &slice : slices) {
    bool run = slice.step == rt::kRunSlice;
    json += ",\n{\"name\": ";
    std::string args;
    if (run) {
      json += jsonString("run " + std::to_string(slice.run));
    } else {
      if (!slice.device)
        threads[slice.thread] = true;
      const rt::Step *step = slice.step < program.steps.size()
                                 ? &program.steps[slice.step]
                                 : nullptr;
      json += jsonString(step ? stepName(*step, slice.step) : "step");
      args = ", \"args\": {\"step\": " + std::to_string(slice.step) +
             ", \"run\": " + std::to_string(slice.run);
      if (step) {
        args += ", \"source\": " + jsonString(step->source) +
                ", \"flops\": " + std::to_string(step->flops) +
                ", \"bytes\": " + std::to_string(bindingBytes(*step));
      }
      args += "}";
    }
    json +=
        ", \"cat\": " + jsonString(run ? "run" : "step") +
        ", \"ph\": \"X\", \"pid\": " + (run ? "1" : slice.device ? "3" : "2") +
        ", \"tid\": " + std::to_string(slice.thread) +
        ", \"ts\": " + format("%.3f", double(slice.begin) / 1e3) +
        ", \"dur\": " + format("%.3f", double(slice.end - slice.begin) / 1e3) +
        args + "}";
  }
  for (const auto &[thread, used] : threads)
    json += ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 2, "
            "\"tid\": " +
            std::to_string(thread) + ", \"args\": {\"name\": " +
            jsonString("thread " + std::to_string(thread)) + "}}";
  return json + "\n]}\n";
}

std::string formatRooflineSvg(const ProfileSummary &summary) {
  const double width = 760, height = 500, left = 70, right = 20, top = 40,
               bottom = 60;
  const double plotW = width - left - right, plotH = height - top - bottom;
  double peakF = std::max(summary.peaks.gflops, 1e-3);
  double peakB = std::max(summary.peaks.gbytesPerSecond, 1e-3);
  // Axes: intensity 2^-6 .. 2^10 FLOP/byte, GFLOP/s 10^-4 .. 2x peak.
  const double xMin = std::log10(1.0 / 64), xMax = std::log10(1024.0);
  const double yMax = std::log10(peakF * 2), yMin = yMax - 5;
  auto px = [&](double intensity) {
    double v = std::clamp(std::log10(intensity), xMin, xMax);
    return left + (v - xMin) / (xMax - xMin) * plotW;
  };
  auto py = [&](double gflops) {
    double v = std::clamp(std::log10(std::max(gflops, 1e-12)), yMin, yMax);
    return top + (yMax - v) / (yMax - yMin) * plotH;
  };
  std::string svg;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
                "height=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
                "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
                width, height);
  svg += buf;
  std::snprintf(buf, sizeof buf,
                "<text x=\"%.0f\" y=\"22\" font-size=\"15\">Roofline: %.1f "
                "GFLOP/s, %.1f GB/s, %u thread%s; %zu steps</text>\n",
                left, peakF, peakB, summary.peaks.threads,
                summary.peaks.threads == 1 ? "" : "s", summary.steps.size());
  svg += buf;
  std::snprintf(buf, sizeof buf,
                "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" "
                "fill=\"none\" stroke=\"#888\"/>\n",
                left, top, plotW, plotH);
  svg += buf;
  for (int e = -6; e <= 10; e += 2) {
    double x = px(std::pow(2.0, e));
    std::snprintf(buf, sizeof buf,
                  "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">2^%d"
                  "</text>\n",
                  x, top + plotH + 18, e);
    svg += buf;
  }
  for (int e = int(std::ceil(yMin)); e <= int(std::floor(yMax)); ++e) {
    double y = py(std::pow(10.0, e));
    std::snprintf(buf, sizeof buf,
                  "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">1e%d</text>"
                  "\n",
                  left - 6, y + 4, e);
    svg += buf;
  }
  std::snprintf(buf, sizeof buf,
                "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">"
                "arithmetic intensity (FLOP per byte of bindings)</text>\n"
                "<text transform=\"translate(18 %.0f) rotate(-90)\" "
                "text-anchor=\"middle\">GFLOP/s</text>\n",
                left + plotW / 2, height - 18, top + plotH / 2);
  svg += buf;
  // The roofs: bandwidth up to the ridge, then the FMA peak.
  double ridge = peakF / peakB;
  double lowX = std::pow(10.0, xMin), highX = std::pow(10.0, xMax);
  std::snprintf(buf, sizeof buf,
                "<polyline fill=\"none\" stroke=\"#c33\" stroke-width=\"2\" "
                "points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>\n",
                px(lowX), py(lowX * peakB), px(ridge), py(peakF), px(highX),
                py(peakF));
  svg += buf;
  size_t labelled = 0;
  for (const StepProfile &step : summary.steps) {
    if (step.flops == 0 || step.bytes == 0 || step.medianMs <= 0)
      continue;
    double intensity = double(step.flops) / double(step.bytes);
    double share =
        summary.stepSumMs > 0 ? step.medianMs / summary.stepSumMs : 0;
    std::snprintf(buf, sizeof buf,
                  "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"#36c\" "
                  "fill-opacity=\"0.6\"><title>%s: %.4f ms, %.2f GFLOP/s"
                  "</title></circle>\n",
                  px(intensity), py(step.gflops), 3 + 12 * std::sqrt(share),
                  xmlText(step.kernel).c_str(), step.medianMs, step.gflops);
    svg += buf;
    if (labelled++ < 6) {
      std::snprintf(buf, sizeof buf,
                    "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">%s</text>\n",
                    px(intensity) + 8, py(step.gflops) - 6,
                    xmlText(step.kernel).c_str());
      svg += buf;
    }
  }
  return svg + "</svg>\n";
}

} // namespace kiln::tools

//===- PlanReport.cpp - Memory plans for people and tools -----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/MemoryPlanning/PlanReport.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <sstream>

namespace kiln::plan {

namespace {

std::string format(const char *fmt, double a, double b = 0, double c = 0) {
  char buffer[128];
  std::snprintf(buffer, sizeof(buffer), fmt, a, b, c);
  return buffer;
}

double ratio(uint64_t a, uint64_t b) { return b == 0 ? 0.0 : double(a) / b; }

std::string escapeXml(const std::string &text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      // Control characters are not allowed in XML 1.0 text.
      if (static_cast<unsigned char>(c) >= 0x20 || c == '\t')
        out += c;
    }
  }
  return out;
}

/// A stable colour per label, so that a node keeps its colour across runs.
std::string colourOf(const std::string &label) {
  uint32_t hash = 2166136261u; // FNV-1a
  for (char c : label)
    hash = (hash ^ uint8_t(c)) * 16777619u;
  return "hsl(" + std::to_string(hash % 360) + ",60%,70%)";
}

/// The naive-allocation figure, or "unknown" (older artifacts, plans of
/// functions that did not come from a graph).
std::string unplannedText(const rt::MemoryPlan &plan) {
  return plan.unplannedBytes ? std::to_string(*plan.unplannedBytes) : "unknown";
}

/// A JSON number with 4 decimals, or null.
std::string jsonRatio(uint64_t a, std::optional<uint64_t> b) {
  return b ? format("%.4f", ratio(a, *b)) : "null";
}

} // namespace

std::string bufferLabel(const rt::PlannedBuffer &buffer) {
  return buffer.location.empty() ? buffer.producer : buffer.location;
}

std::string formatPlanSummary(const rt::MemoryPlan &plan,
                              size_t largestBuffers) {
  std::ostringstream os;
  size_t inPlace = std::count_if(
      plan.buffers.begin(), plan.buffers.end(), [](const rt::PlannedBuffer &b) {
        return b.inPlaceOf != rt::PlannedBuffer::kNotInPlace;
      });
  os << "memory plan: " << plan.buffers.size() << " buffer(s) (" << inPlace
     << " in place) over " << plan.steps << " step(s), " << plan.kernels
     << " kernel(s)\n";
  os << "  peak " << plan.peakBytes << " bytes, lower bound "
     << plan.lowerBoundBytes << ", unplanned " << unplannedText(plan)
     << ", unplanned kernel buffers " << plan.unplannedKernelBuffersBytes
     << format(" (peak/lower bound %.3f",
               ratio(plan.peakBytes, plan.lowerBoundBytes));
  if (plan.unplannedBytes)
    os << format(", peak/unplanned %.3f",
                 ratio(plan.peakBytes, *plan.unplannedBytes));
  os << format(", peak/kernel buffers %.3f)\n",
               ratio(plan.peakBytes, plan.unplannedKernelBuffersBytes));
  std::vector<size_t> order(plan.buffers.size());
  std::iota(order.begin(), order.end(), 0);
  // (std::stable_sort trips a libstdc++ deprecation under -Werror.)
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return plan.buffers[a].size != plan.buffers[b].size
               ? plan.buffers[a].size > plan.buffers[b].size
               : a < b;
  });
  order.resize(std::min(order.size(), largestBuffers));
  for (size_t i : order) {
    const rt::PlannedBuffer &b = plan.buffers[i];
    os << "  buffer #" << i << ": " << b.size << " bytes at " << b.offset
       << ", steps " << b.firstStep << ".." << b.lastStep << ", " << b.producer;
    if (!b.location.empty())
      os << " at " << b.location;
    if (b.inPlaceOf != rt::PlannedBuffer::kNotInPlace)
      os << " (in place of #" << b.inPlaceOf << ")";
    os << "\n";
  }
  return os.str();
}

std::string formatStatsJson(const rt::MemoryPlan &plan, uint64_t arenaBytes) {
  size_t inPlace = std::count_if(
      plan.buffers.begin(), plan.buffers.end(), [](const rt::PlannedBuffer &b) {
        return b.inPlaceOf != rt::PlannedBuffer::kNotInPlace;
      });
  std::ostringstream os;
  os << "{\n"
     << "  \"kernels\": " << plan.kernels << ",\n"
     << "  \"steps\": " << plan.steps << ",\n"
     << "  \"buffers\": " << plan.buffers.size() << ",\n"
     << "  \"in_place_buffers\": " << inPlace << ",\n"
     << "  \"peak_bytes\": " << plan.peakBytes << ",\n"
     << "  \"lower_bound_bytes\": " << plan.lowerBoundBytes << ",\n"
     << "  \"unplanned_bytes\": "
     << (plan.unplannedBytes ? std::to_string(*plan.unplannedBytes) : "null")
     << ",\n"
     << "  \"unplanned_kernel_buffers_bytes\": "
     << plan.unplannedKernelBuffersBytes << ",\n"
     << "  \"arena_bytes\": " << arenaBytes << ",\n"
     << format("  \"peak_over_lower_bound\": %.4f,\n",
               ratio(plan.peakBytes, plan.lowerBoundBytes))
     << "  \"peak_over_unplanned\": "
     << jsonRatio(plan.peakBytes, plan.unplannedBytes) << ",\n"
     << "  \"peak_over_unplanned_kernel_buffers\": "
     << jsonRatio(plan.peakBytes, plan.unplannedKernelBuffersBytes) << "\n"
     << "}\n";
  return os.str();
}

std::string renderPlanSvg(const rt::MemoryPlan &plan,
                          const std::string &title) {
  // Plot area and margins in SVG user units.
  const double width = 960, height = 540, left = 90, right = 20, top = 40,
               bottom = 50;
  const double plotW = width - left - right, plotH = height - top - bottom;
  double steps = std::max<uint32_t>(plan.steps, 1);
  double bytes = double(std::max<uint64_t>(plan.peakBytes, 1));
  double sx = plotW / steps, sy = plotH / bytes;
  double base = top + plotH; // y of offset 0

  std::ostringstream os;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width
     << "\" height=\"" << height << "\" viewBox=\"0 0 " << width << " "
     << height << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  os << "<title>" << escapeXml(title) << "</title>\n";
  os << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  os << "<text x=\"" << left << "\" y=\"20\" font-size=\"14\">"
     << escapeXml(title) << ": peak " << plan.peakBytes
     << " bytes, lower bound " << plan.lowerBoundBytes << ", unplanned "
     << unplannedText(plan) << ", unplanned kernel buffers "
     << plan.unplannedKernelBuffersBytes << "</text>\n";
  // Axes.
  os << "<g class=\"axes\" stroke=\"black\">\n"
     << "<line x1=\"" << left << "\" y1=\"" << base << "\" x2=\""
     << left + plotW << "\" y2=\"" << base << "\"/>\n"
     << "<line x1=\"" << left << "\" y1=\"" << top << "\" x2=\"" << left
     << "\" y2=\"" << base << "\"/>\n</g>\n";
  os << "<text x=\"" << left + plotW / 2 << "\" y=\"" << height - 12
     << "\" text-anchor=\"middle\">execution step</text>\n";
  os << "<text x=\"14\" y=\"" << top + plotH / 2
     << "\" text-anchor=\"middle\" transform=\"rotate(-90 14 "
     << top + plotH / 2 << ")\">arena offset (bytes)</text>\n";
  for (int i = 0; i <= 4; ++i) {
    double value = bytes * i / 4, y = base - value * sy;
    os << "<text x=\"" << left - 6 << "\" y=\"" << y + 4
       << "\" text-anchor=\"end\">" << uint64_t(value) << "</text>\n";
    double step = steps * i / 4, x = left + step * sx;
    os << "<text x=\"" << x << "\" y=\"" << base + 16
       << "\" text-anchor=\"middle\">" << uint64_t(step) << "</text>\n";
  }
  // Buffers, each with a tooltip giving all its details.
  os << "<g class=\"buffers\" stroke=\"#333\" stroke-width=\"0.5\">\n";
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    const rt::PlannedBuffer &b = plan.buffers[i];
    std::string label = bufferLabel(b);
    double x = left + b.firstStep * sx;
    double w = (b.lastStep - b.firstStep + 1) * sx;
    double h = std::max(b.size * sy, 0.5);
    double y = base - (b.offset * sy) - h;
    os << "<g class=\"buffer\"><rect x=\"" << x << "\" y=\"" << y
       << "\" width=\"" << w << "\" height=\"" << h << "\" fill=\""
       << colourOf(label) << "\"><title>#" << i << " " << escapeXml(b.producer);
    if (!b.location.empty())
      os << " at " << escapeXml(b.location);
    os << ": " << b.size << " bytes at offset " << b.offset << ", steps "
       << b.firstStep << ".." << b.lastStep;
    if (b.inPlaceOf != rt::PlannedBuffer::kNotInPlace)
      os << ", in place of #" << b.inPlaceOf;
    os << "</title></rect>";
    // Only label rectangles big enough to hold some text.
    if (h >= 12 && w >= 40) {
      size_t chars = size_t(w / 6.5);
      std::string shown = label;
      if (label.size() > chars) {
        // Keep the end: ONNX node names end with the op ("/layer1/Conv").
        size_t start = label.size() - (chars ? chars - 1 : 0);
        // Never split a UTF-8 sequence.
        while (start < label.size() && (uint8_t(label[start]) & 0xC0) == 0x80)
          ++start;
        shown = "~" + label.substr(start);
      }
      os << "<text x=\"" << x + 3 << "\" y=\"" << y + h / 2 + 4
         << "\" stroke=\"none\">" << escapeXml(shown) << "</text>";
    }
    os << "</g>\n";
  }
  os << "</g>\n";
  // The lower bound, for comparison with the peak (the top of the plot).
  double lb = base - plan.lowerBoundBytes * sy;
  os << "<line class=\"lower-bound\" x1=\"" << left << "\" y1=\"" << lb
     << "\" x2=\"" << left + plotW << "\" y2=\"" << lb
     << "\" stroke=\"red\" stroke-dasharray=\"6,4\"/>\n"
     << "<text x=\"" << left + 4 << "\" y=\"" << lb - 4
     << "\" fill=\"red\">lower bound " << plan.lowerBoundBytes << "</text>\n";
  os << "</svg>\n";
  return os.str();
}

} // namespace kiln::plan

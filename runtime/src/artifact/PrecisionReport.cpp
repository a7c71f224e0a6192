//===- PrecisionReport.cpp - The accuracy budget's section ----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Kind 9: budget, predictions, the three top-1 figures, then per layer its
// name, precision (0 fp32, 1 int8) and solo drop. Doubles are stored as
// their IEEE-754 bits, little-endian.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/PrecisionReport.h"

#include "ByteIO.h"

#include <cmath>
#include <cstring>

namespace kiln::rt {

namespace {

void writeDouble(ByteWriter &w, double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  w.u64(bits);
}

double readDouble(ByteReader &r) {
  uint64_t bits = r.u64();
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

bool isPercent(double value) {
  return std::isfinite(value) && value >= 0 && value <= 100;
}

} // namespace

std::vector<uint8_t> encodePrecisionReport(const PrecisionReport &report) {
  ByteWriter w;
  writeDouble(w, report.budget);
  w.u32(report.predictions);
  writeDouble(w, report.fp32Top1);
  writeDouble(w, report.allInt8Top1);
  writeDouble(w, report.finalTop1);
  w.u32(uint32_t(report.layers.size()));
  for (const PrecisionReport::Layer &layer : report.layers) {
    w.string(layer.name);
    w.u32(layer.int8 ? 1 : 0);
    writeDouble(w, layer.soloDrop);
  }
  return std::move(w.bytes());
}

StatusOr<PrecisionReport> decodePrecisionReport(const uint8_t *bytes,
                                                size_t size,
                                                const std::string &name) {
  auto corrupt = [&](const std::string &what) {
    return dataLoss(name + ": corrupt precision report section: " + what);
  };
  ByteReader r(bytes, size);
  PrecisionReport report;
  report.budget = readDouble(r);
  report.predictions = r.u32();
  report.fp32Top1 = readDouble(r);
  report.allInt8Top1 = readDouble(r);
  report.finalTop1 = readDouble(r);
  uint32_t count = r.u32();
  // A layer takes at least 16 bytes: a count beyond that is damage.
  if (!r.ok() || count > size / 16)
    return corrupt("truncated header or bad layer count");
  if (!isPercent(report.budget) || !isPercent(report.fp32Top1) ||
      !isPercent(report.allInt8Top1) || !isPercent(report.finalTop1))
    return corrupt("a top-1 figure or the budget is not a percentage");
  for (uint32_t i = 0; i < count; ++i) {
    PrecisionReport::Layer layer;
    layer.name = r.string(4096);
    uint32_t precision = r.u32();
    layer.soloDrop = readDouble(r);
    if (!r.ok())
      return corrupt("truncated layer #" + std::to_string(i));
    if (precision > 1 || !std::isfinite(layer.soloDrop) ||
        std::fabs(layer.soloDrop) > 100)
      return corrupt("bad layer #" + std::to_string(i));
    layer.int8 = precision == 1;
    report.layers.push_back(std::move(layer));
  }
  if (r.remaining() != 0)
    return corrupt("trailing bytes");
  return report;
}

} // namespace kiln::rt

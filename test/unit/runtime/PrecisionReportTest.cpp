//===- PrecisionReportTest.cpp - The accuracy budget's artifact section ---===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The report round-trips inside an artifact, is absent unless written, and
// every truncation or out-of-range field of the section is refused.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/PrecisionReport.h"
#include "kiln/runtime/Artifact.h"

#include <gtest/gtest.h>

#include <limits>

using namespace kiln::rt;

namespace {

PrecisionReport sampleReport() {
  PrecisionReport report;
  report.budget = 0.5;
  report.predictions = 200;
  report.fp32Top1 = 91.5;
  report.allInt8Top1 = 88.0;
  report.finalTop1 = 91.25;
  report.layers = {{"/conv1/Conv", false, 2.75}, {"fc", true, 0.0}};
  return report;
}

Artifact sampleArtifact() {
  Artifact artifact;
  artifact.target = "cpu x86_64-pc-linux-gnu test";
  artifact.program.inputs = {{"x", DType::kF32, {1, 4}}};
  artifact.program.outputs = {{"y", DType::kF32, {1, 2}}};
  DeviceProgram device;
  Step step;
  step.kernel = "_kiln_packed_main";
  device.steps.push_back(step);
  artifact.program.devices.push_back(device);
  artifact.cpuKernels = {0x7f, 'E', 'L', 'F', 1, 2, 3, 4};
  return artifact;
}

TEST(PrecisionReportTest, RoundTripsInsideAnArtifact) {
  Artifact artifact = sampleArtifact();
  artifact.precisionReport = sampleReport();
  std::vector<uint8_t> bytes = encodeArtifact(artifact);
  StatusOr<Artifact> decoded = decodeArtifact(bytes.data(), bytes.size(), "a");
  ASSERT_TRUE(decoded.isOk()) << decoded.status().toString();
  ASSERT_TRUE(decoded->precisionReport.has_value());
  const PrecisionReport &report = *decoded->precisionReport;
  EXPECT_EQ(report.budget, 0.5);
  EXPECT_EQ(report.predictions, 200u);
  EXPECT_EQ(report.fp32Top1, 91.5);
  EXPECT_EQ(report.allInt8Top1, 88.0);
  EXPECT_EQ(report.finalTop1, 91.25);
  ASSERT_EQ(report.layers.size(), 2u);
  EXPECT_EQ(report.layers[0].name, "/conv1/Conv");
  EXPECT_FALSE(report.layers[0].int8);
  EXPECT_EQ(report.layers[0].soloDrop, 2.75);
  EXPECT_TRUE(report.layers[1].int8);
}

TEST(PrecisionReportTest, AbsentUnlessWritten) {
  std::vector<uint8_t> bytes = encodeArtifact(sampleArtifact());
  StatusOr<Artifact> decoded = decodeArtifact(bytes.data(), bytes.size(), "a");
  ASSERT_TRUE(decoded.isOk());
  EXPECT_FALSE(decoded->precisionReport.has_value());
}

TEST(PrecisionReportTest, RefusesEveryTruncation) {
  std::vector<uint8_t> bytes = encodePrecisionReport(sampleReport());
  for (size_t size = 0; size < bytes.size(); ++size) {
    StatusOr<PrecisionReport> decoded =
        decodePrecisionReport(bytes.data(), size, "model.kiln");
    ASSERT_FALSE(decoded.isOk()) << "truncated to " << size;
    EXPECT_NE(decoded.status().message().find(
                  "model.kiln: corrupt precision report section"),
              std::string::npos);
  }
  bytes.push_back(0);
  EXPECT_NE(decodePrecisionReport(bytes.data(), bytes.size(), "m")
                .status()
                .message()
                .find("trailing bytes"),
            std::string::npos);
}

TEST(PrecisionReportTest, RefusesOutOfRangeFields) {
  PrecisionReport report = sampleReport();
  report.fp32Top1 = 101;
  std::vector<uint8_t> bytes = encodePrecisionReport(report);
  EXPECT_FALSE(decodePrecisionReport(bytes.data(), bytes.size(), "m").isOk());
  report = sampleReport();
  report.layers[1].soloDrop = std::numeric_limits<double>::quiet_NaN();
  bytes = encodePrecisionReport(report);
  EXPECT_FALSE(decodePrecisionReport(bytes.data(), bytes.size(), "m").isOk());
  // A precision code other than 0 (fp32) or 1 (int8): the u32 after the
  // first layer's name.
  bytes = encodePrecisionReport(sampleReport());
  size_t code = 8 + 4 + 3 * 8 + 4 + 4 + std::string("/conv1/Conv").size();
  bytes[code] = 2;
  EXPECT_FALSE(decodePrecisionReport(bytes.data(), bytes.size(), "m").isOk());
}

} // namespace

//===- PlanReportTest.cpp - Memory plan summary, JSON and SVG -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/MemoryPlanning/PlanReport.h"

#include <gtest/gtest.h>

using namespace kiln;

namespace {

rt::MemoryPlan samplePlan() {
  rt::MemoryPlan plan;
  plan.peakBytes = 128;
  plan.lowerBoundBytes = 96;
  plan.unplannedBytes = 320;
  plan.unplannedKernelBuffersBytes = 160;
  plan.steps = 4;
  plan.kernels = 3;
  plan.buffers.push_back({0, 64, 0, 1, rt::PlannedBuffer::kNotInPlace,
                          "linalg.generic", "node<&>\"1\""});
  plan.buffers.push_back(
      {64, 32, 1, 3, rt::PlannedBuffer::kNotInPlace, "linalg.fill", ""});
  plan.buffers.push_back({0, 64, 1, 2, 0, "linalg.generic", "relu"});
  return plan;
}

size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1))
    ++n;
  return n;
}

TEST(PlanReportTest, StatsJsonHasTheRequiredFields) {
  std::string json = plan::formatStatsJson(samplePlan(), 128);
  EXPECT_NE(json.find("\"kernels\": 3"), std::string::npos);
  EXPECT_NE(json.find("\"peak_bytes\": 128"), std::string::npos);
  EXPECT_NE(json.find("\"lower_bound_bytes\": 96"), std::string::npos);
  EXPECT_NE(json.find("\"unplanned_bytes\": 320"), std::string::npos);
  EXPECT_NE(json.find("\"unplanned_kernel_buffers_bytes\": 160"),
            std::string::npos);
  EXPECT_NE(json.find("\"peak_over_unplanned\": 0.4000"), std::string::npos);
  EXPECT_NE(json.find("\"peak_over_unplanned_kernel_buffers\": 0.8000"),
            std::string::npos);
  EXPECT_NE(json.find("\"in_place_buffers\": 1"), std::string::npos);
  EXPECT_EQ(json.front(), '{');
}

TEST(PlanReportTest, SvgDrawsOneEscapedRectanglePerBuffer) {
  std::string svg = plan::renderPlanSvg(samplePlan(), "m.kiln");
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_EQ(count(svg, "<g class=\"buffer\">"), 3u);
  EXPECT_EQ(count(svg, "<rect x="), 3u);
  EXPECT_NE(svg.find("node&lt;&amp;&gt;&quot;1&quot;"), std::string::npos);
  EXPECT_EQ(svg.find("node<&>"), std::string::npos);
  EXPECT_NE(svg.find("in place of #0"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

TEST(PlanReportTest, SummaryNamesTheLargestBuffers) {
  std::string text = plan::formatPlanSummary(samplePlan(), 2);
  EXPECT_NE(text.find("3 buffer(s) (1 in place)"), std::string::npos);
  EXPECT_NE(text.find("peak 128 bytes, lower bound 96, unplanned 320, "
                      "unplanned kernel buffers 160 (peak/lower bound 1.333, "
                      "peak/unplanned 0.400, peak/kernel buffers 0.800)"),
            std::string::npos);
  EXPECT_EQ(count(text, "buffer #"), 2u);
}

TEST(PlanReportTest, EmptyPlansRender) {
  rt::MemoryPlan empty;
  EXPECT_NE(plan::renderPlanSvg(empty, "e").find("</svg>"), std::string::npos);
  std::string json = plan::formatStatsJson(empty, 0);
  EXPECT_NE(json.find("\"peak_bytes\": 0"), std::string::npos);
  // Without the graph's figure (older artifacts) it is null, not 0.
  EXPECT_NE(json.find("\"unplanned_bytes\": null"), std::string::npos);
  EXPECT_NE(json.find("\"peak_over_unplanned\": null"), std::string::npos);
  EXPECT_NE(plan::formatPlanSummary(empty).find("unplanned unknown"),
            std::string::npos);
}

} // namespace

//===- StepCodecTest.cpp - Steps of format 3 round-trip and are checked ---===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/Artifact.h"

#include <gtest/gtest.h>

using namespace kiln::rt;

namespace {

/// A CPU program of every step kind: dispatch, fill, copy, collective,
/// barrier, with dependencies.
Artifact everyStepKind() {
  Artifact artifact;
  artifact.target = "cpu test";
  artifact.program.inputs = {{"x", DType::kF32, {4}}};
  artifact.program.outputs = {{"y", DType::kF32, {4}}};
  DeviceProgram device;
  device.arenaBytes = 64;
  Step dispatch;
  dispatch.kernel = "main_d0";
  dispatch.grid[0] = 8;
  dispatch.args = {
      {KernelArg::Base::kInput, 0, 0, 16, KernelArg::Access::kRead},
      {KernelArg::Base::kArena, 0, 0, 16, KernelArg::Access::kWrite}};
  dispatch.source = "fusion#0 (elementwise): Log_3+Add_4";
  dispatch.results = {
      {{KernelArg::Base::kArena, 0, 0, 8, KernelArg::Access::kWrite},
       DType::kF32},
      {{KernelArg::Base::kArena, 0, 8, 8, KernelArg::Access::kWrite},
       DType::kBF16}};
  dispatch.flops = 1234567890123;
  Step fill;
  fill.kind = Step::Kind::kFill;
  fill.pattern = 0x3f800000; // 1.0f
  fill.patternBytes = 4;
  fill.args = {{KernelArg::Base::kArena, 0, 16, 16, KernelArg::Access::kWrite}};
  Step copy;
  copy.kind = Step::Kind::kCopy;
  copy.args = {{KernelArg::Base::kArena, 0, 0, 16, KernelArg::Access::kRead},
               {KernelArg::Base::kOutput, 0, 0, 16, KernelArg::Access::kWrite}};
  copy.after = {0, 1};
  Step collective;
  collective.kind = Step::Kind::kCollective;
  collective.collective = Step::CollectiveKind::kAllReduce;
  collective.reduction = 1;
  collective.ranks = 2;
  collective.element = DType::kF32;
  collective.args = {
      {KernelArg::Base::kArena, 0, 16, 16, KernelArg::Access::kRead},
      {KernelArg::Base::kArena, 0, 32, 16, KernelArg::Access::kWrite}};
  collective.after = {1};
  Step barrier;
  barrier.kind = Step::Kind::kBarrier;
  barrier.after = {2, 3};
  device.steps = {dispatch, fill, copy, collective, barrier};
  artifact.program.devices.push_back(device);
  artifact.cpuKernels = {0x7f, 'E', 'L', 'F', 2, 1};
  return artifact;
}

StatusOr<Artifact> roundTrip(const Artifact &artifact) {
  std::vector<uint8_t> bytes = encodeArtifact(artifact);
  return decodeArtifact(bytes.data(), bytes.size(), "steps.kiln");
}

void expectRejected(void (*damage)(Artifact &), const std::string &what) {
  Artifact artifact = everyStepKind();
  damage(artifact);
  StatusOr<Artifact> result = roundTrip(artifact);
  ASSERT_FALSE(result.isOk()) << "accepted; expected: " << what;
  EXPECT_EQ(result.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(result.status().message().find(what), std::string::npos)
      << result.status().message();
}

Step &step(Artifact &a, size_t i) { return a.program.devices[0].steps[i]; }

TEST(StepCodecTest, RoundTripsEveryKind) {
  StatusOr<Artifact> decoded = roundTrip(everyStepKind());
  ASSERT_TRUE(decoded.isOk()) << decoded.status().toString();
  const std::vector<Step> &steps = decoded->program.devices[0].steps;
  ASSERT_EQ(steps.size(), 5u);
  EXPECT_EQ(steps[0].kind, Step::Kind::kDispatch);
  EXPECT_EQ(steps[0].workgroups(), 8u);
  EXPECT_EQ(steps[0].args[0].access, KernelArg::Access::kRead);
  EXPECT_EQ(steps[0].args[1].access, KernelArg::Access::kWrite);
  EXPECT_EQ(steps[0].source, "fusion#0 (elementwise): Log_3+Add_4");
  ASSERT_EQ(steps[0].results.size(), 2u);
  EXPECT_EQ(steps[0].results[1].range.offset, 8u);
  EXPECT_EQ(steps[0].results[1].element, DType::kBF16);
  EXPECT_EQ(steps[0].flops, 1234567890123u);
  EXPECT_TRUE(steps[1].source.empty());
  EXPECT_TRUE(steps[1].results.empty());
  EXPECT_EQ(steps[1].pattern, 0x3f800000u);
  EXPECT_EQ(steps[1].patternBytes, 4u);
  EXPECT_EQ(steps[2].after, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(steps[3].collective, Step::CollectiveKind::kAllReduce);
  EXPECT_EQ(steps[3].ranks, 2u);
  EXPECT_EQ(steps[4].kind, Step::Kind::kBarrier);
  EXPECT_EQ(steps[4].after, (std::vector<uint32_t>{2, 3}));
}

TEST(StepCodecTest, RejectsDependenciesOnLaterSteps) {
  // A dependency on itself or a later step could encode a cycle.
  expectRejected([](Artifact &a) { step(a, 2).after = {2}; },
                 "step #2 of device #0 waits for a step that is not before "
                 "it");
  expectRejected([](Artifact &a) { step(a, 0).after = {4}; },
                 "waits for a step that is not before it");
}

TEST(StepCodecTest, RejectsBadBindings) {
  expectRejected(
      [](Artifact &a) { step(a, 0).args[0].access = KernelArg::Access(7); },
      "unknown access 7 of argument #0 of step #0");
  expectRejected(
      [](Artifact &a) {
        step(a, 0).args[0].access = KernelArg::Access::kReadWrite;
      },
      "argument #0 of step #0 of device #0 writes an input");
  expectRejected([](Artifact &a) { step(a, 1).args[0].offset = 56; },
                 "bytes 56+16 outside the buffer in argument #0 of step #1");
}

TEST(StepCodecTest, RejectsStepsOfTheWrongShape) {
  expectRejected([](Artifact &a) { step(a, 0).kind = Step::Kind(9); },
                 "bad kind 9 of step #0");
  expectRejected(
      [](Artifact &a) { step(a, 0).kind = Step::Kind::kLaunchKernel; },
      "bad kind 2 of step #0 of device #0 for its device");
  expectRejected([](Artifact &a) { step(a, 0).kernel.clear(); },
                 "step #0 of device #0 names no kernel");
  expectRejected([](Artifact &a) { step(a, 0).grid[1] = 2; },
                 "a CPU dispatch with a CUDA launch shape in step #0");
  expectRejected([](Artifact &a) { step(a, 1).patternBytes = 3; },
                 "bad fill in step #1");
  expectRejected([](Artifact &a) { step(a, 2).args[1].bytes = 8; },
                 "a copy needs a source and a written target of the same "
                 "size in step #2");
  expectRejected([](Artifact &a) { step(a, 3).ranks = 0; },
                 "bad collective in step #3");
  expectRejected(
      [](Artifact &a) {
        step(a, 4).args = {
            {KernelArg::Base::kArena, 0, 0, 4, KernelArg::Access::kRead}};
      },
      "a barrier with bindings in step #4");
}

TEST(StepCodecTest, RejectsBadResults) {
  // Debug information is validated like everything else: a checker reads
  // the bytes it names.
  expectRejected(
      [](Artifact &a) { step(a, 0).results[0].range.offset = 60; },
      "bytes 60+8 outside the buffer in result #0 of step #0");
  expectRejected(
      [](Artifact &a) { step(a, 0).results[0].element = DType(99); },
      "bad element type of result #0 of step #0");
  expectRejected([](Artifact &a) { step(a, 0).results[1].range.bytes = 7; },
                 "bad element type of result #1 of step #0");
  expectRejected(
      [](Artifact &a) {
        step(a, 0).results[0].range = {KernelArg::Base::kOutput, 0, 0, 8,
                                       KernelArg::Access::kWrite};
      },
      "result #0 of step #0 of device #0 is not inside a buffer the step "
      "writes");
}

} // namespace

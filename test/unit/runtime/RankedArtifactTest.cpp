//===- RankedArtifactTest.cpp - Every rank's program in one file ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Round trips, every truncation point and single-byte corruption, and files
// that are well formed but wrong: no ranks, ranks with other interfaces,
// bytes after the last rank.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/RankedArtifact.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

using namespace kiln::rt;

namespace {

Artifact rankArtifact(int rank) {
  Artifact artifact;
  artifact.target = "cpu x86_64-pc-linux-gnu test";
  artifact.program.inputs = {{"x", DType::kF32, {4, 8}}};
  artifact.program.outputs = {{"y", DType::kF32, {4, 8}}};
  DeviceProgram device;
  Step step;
  step.kind = Step::Kind::kCollective;
  step.collective = Step::CollectiveKind::kAllReduce;
  step.reduction = 1;
  step.ranks = 2;
  step.args = {
      {KernelArg::Base::kInput, 0, 0, 128, KernelArg::Access::kRead},
      {KernelArg::Base::kOutput, 0, 0, 128, KernelArg::Access::kWrite}};
  device.steps.push_back(step);
  artifact.program.devices.push_back(device);
  artifact.cpuKernels = {0x7f, 'E', 'L', 'F', uint8_t(rank)};
  return artifact;
}

RankedArtifact twoRanks() {
  RankedArtifact ranked;
  ranked.strategy = "tensor";
  ranked.ranks = {rankArtifact(0), rankArtifact(1)};
  return ranked;
}

Artifact stage(std::vector<TensorSpec> inputs,
               std::vector<TensorSpec> outputs) {
  Artifact artifact;
  artifact.target = "cpu x86_64-pc-linux-gnu test";
  artifact.program.inputs = std::move(inputs);
  artifact.program.outputs = std::move(outputs);
  artifact.program.devices.emplace_back();
  artifact.cpuKernels = {0x7f, 'E', 'L', 'F'};
  return artifact;
}

/// Stage 0 sends a [2,16] value; stage 1 takes the model's input and it,
/// on micro-batches of 2 rows of 6.
RankedArtifact twoStages() {
  RankedArtifact ranked;
  ranked.strategy = "pipeline";
  ranked.microBatches = 3;
  TensorSpec x{"x", DType::kF32, {2, 8}};
  TensorSpec sent{"pipeline.c0.0", DType::kF32, {2, 16}};
  ranked.ranks = {stage({x}, {sent}),
                  stage({x, sent}, {{"y", DType::kF16, {2, 4}}})};
  return ranked;
}

StatusOr<RankedArtifact> decode(const std::vector<uint8_t> &bytes) {
  return decodeRankedArtifact(bytes.data(), bytes.size(), "m.kiln");
}

/// Recomputes the trailing checksum after an edit.
void reseal(std::vector<uint8_t> &bytes) {
  bytes.resize(bytes.size() - 4);
  uint32_t crc = crc32(bytes.data(), bytes.size());
  for (int i = 0; i < 4; ++i)
    bytes.push_back(uint8_t(crc >> (8 * i)));
}

TEST(RankedArtifactTest, RoundTrips) {
  std::vector<uint8_t> bytes = encodeRankedArtifact(twoRanks());
  ASSERT_TRUE(isRankedArtifact(bytes.data(), bytes.size()));
  StatusOr<RankedArtifact> decoded = decode(bytes);
  ASSERT_TRUE(decoded.isOk()) << decoded.status().message();
  EXPECT_EQ(decoded->strategy, "tensor");
  ASSERT_EQ(decoded->ranks.size(), 2u);
  for (int rank = 0; rank < 2; ++rank) {
    EXPECT_EQ(decoded->ranks[rank].cpuKernels.back(), uint8_t(rank));
    const Step &step = decoded->ranks[rank].program.devices[0].steps[0];
    EXPECT_EQ(step.kind, Step::Kind::kCollective);
    EXPECT_EQ(step.ranks, 2u);
  }
}

TEST(RankedArtifactTest, EveryTruncationIsAnError) {
  std::vector<uint8_t> bytes = encodeRankedArtifact(twoRanks());
  for (size_t size = 0; size < bytes.size(); ++size) {
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + size);
    StatusOr<RankedArtifact> decoded = decode(cut);
    EXPECT_FALSE(decoded.isOk()) << "accepted " << size << " bytes";
  }
}

TEST(RankedArtifactTest, EveryCorruptedByteIsAnError) {
  std::vector<uint8_t> bytes = encodeRankedArtifact(twoRanks());
  for (size_t at = 0; at < bytes.size(); ++at) {
    std::vector<uint8_t> flipped = bytes;
    flipped[at] ^= 0x5A;
    StatusOr<RankedArtifact> decoded = decode(flipped);
    EXPECT_FALSE(decoded.isOk()) << "accepted a flip at byte " << at;
  }
}

TEST(RankedArtifactTest, RejectsNoRanks) {
  RankedArtifact empty;
  std::vector<uint8_t> bytes = encodeRankedArtifact(empty);
  StatusOr<RankedArtifact> decoded = decode(bytes);
  ASSERT_FALSE(decoded.isOk());
  EXPECT_NE(decoded.status().message().find("0 ranks"), std::string::npos)
      << decoded.status().message();
}

TEST(RankedArtifactTest, RejectsRanksWithAnotherInterface) {
  RankedArtifact ranked = twoRanks();
  ranked.ranks[1].program.outputs[0].name = "z";
  StatusOr<RankedArtifact> decoded = decode(encodeRankedArtifact(ranked));
  ASSERT_FALSE(decoded.isOk());
  EXPECT_NE(decoded.status().message().find(
                "m.kiln (rank 1): its inputs or outputs differ from rank 0's"),
            std::string::npos)
      << decoded.status().message();
}

TEST(RankedArtifactTest, RejectsTrailingBytes) {
  std::vector<uint8_t> bytes = encodeRankedArtifact(twoRanks());
  bytes.insert(bytes.end() - 4, {1, 2, 3});
  reseal(bytes);
  StatusOr<RankedArtifact> decoded = decode(bytes);
  ASSERT_FALSE(decoded.isOk());
  EXPECT_NE(decoded.status().message().find("3 unexpected bytes"),
            std::string::npos)
      << decoded.status().message();
}

TEST(RankedArtifactTest, RejectsANewerVersion) {
  std::vector<uint8_t> bytes = encodeRankedArtifact(twoRanks());
  bytes[8] = 4;
  reseal(bytes);
  StatusOr<RankedArtifact> decoded = decode(bytes);
  ASSERT_FALSE(decoded.isOk());
  EXPECT_EQ(decoded.status().code(), StatusCode::kUnimplemented);
}

TEST(RankedArtifactTest, PipelineRoundTripsWithItsMicroBatches) {
  std::vector<uint8_t> bytes = encodeRankedArtifact(twoStages());
  EXPECT_EQ(bytes[8], 2) << "pipelines are version 2";
  StatusOr<RankedArtifact> decoded = decode(bytes);
  ASSERT_TRUE(decoded.isOk()) << decoded.status().message();
  EXPECT_TRUE(decoded->isPipeline());
  EXPECT_EQ(decoded->microBatches, 3u);
  ModelInterface model = modelInterface(*decoded);
  ASSERT_EQ(model.inputs.size(), 1u);
  EXPECT_EQ(model.inputs[0].shape, (std::vector<int64_t>{6, 8}));
  ASSERT_EQ(model.outputs.size(), 1u);
  EXPECT_EQ(model.outputs[0].name, "y");
  EXPECT_EQ(model.outputs[0].shape, (std::vector<int64_t>{6, 4}));
  // Tensor and data parallelism stay version 1, for older runtimes.
  EXPECT_EQ(encodeRankedArtifact(twoRanks())[8], 1);
}

/// Two stages of two tensor ranks each (pipeline x tensor).
RankedArtifact twoByTwo() {
  RankedArtifact ranked = twoStages();
  ranked.strategy = "pipeline,tensor";
  ranked.stageRanks = 2;
  ranked.ranks = {ranked.ranks[0], ranked.ranks[0], ranked.ranks[1],
                  ranked.ranks[1]};
  return ranked;
}

TEST(RankedArtifactTest, PipelineOfTensorStagesRoundTrips) {
  std::vector<uint8_t> bytes = encodeRankedArtifact(twoByTwo());
  EXPECT_EQ(bytes[8], 3) << "pipeline x tensor is version 3";
  StatusOr<RankedArtifact> decoded = decode(bytes);
  ASSERT_TRUE(decoded.isOk()) << decoded.status().message();
  EXPECT_TRUE(decoded->isPipeline());
  EXPECT_EQ(decoded->stageRanks, 2u);
  EXPECT_EQ(decoded->stages(), 2u);
  EXPECT_EQ(decoded->worldSize(), 4u);
  ModelInterface model = modelInterface(*decoded);
  ASSERT_EQ(model.outputs.size(), 1u);
  EXPECT_EQ(model.outputs[0].name, "y");
  EXPECT_EQ(model.outputs[0].shape, (std::vector<int64_t>{6, 4}));
  for (size_t size = 0; size < bytes.size(); ++size)
    EXPECT_FALSE(decodeRankedArtifact(bytes.data(), size, "m.kiln").isOk())
        << size;
}

TEST(RankedArtifactTest, RejectsTensorRanksOfAStageThatDiffer) {
  RankedArtifact ranked = twoByTwo();
  ranked.ranks[3].program.outputs[0].shape = {2, 5};
  StatusOr<RankedArtifact> decoded = decode(encodeRankedArtifact(ranked));
  ASSERT_FALSE(decoded.isOk());
  EXPECT_EQ(decoded.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(decoded.status().message().find(
                "m.kiln (rank 3): its inputs or outputs differ from those of "
                "stage 1's tensor rank 0"),
            std::string::npos)
      << decoded.status().message();
  // Stage 1's tensor rank 1 still chains from stage 0's tensor rank 1.
  ranked = twoByTwo();
  ranked.ranks[1].program.outputs[0].shape = {2, 15};
  EXPECT_FALSE(decode(encodeRankedArtifact(ranked)).isOk());
}

TEST(RankedArtifactTest, RejectsStageRanksThatDoNotDivideTheRanks) {
  for (uint32_t width : {0u, 3u}) {
    RankedArtifact ranked = twoByTwo();
    ranked.stageRanks = width;
    StatusOr<RankedArtifact> decoded = decode(encodeRankedArtifact(ranked));
    ASSERT_FALSE(decoded.isOk()) << width;
    EXPECT_EQ(decoded.status().code(), StatusCode::kDataLoss);
    EXPECT_NE(decoded.status().message().find("ranks per stage of 4 ranks"),
              std::string::npos)
        << decoded.status().message();
  }
}

TEST(RankedArtifactTest, EveryPipelineTruncationIsAnError) {
  std::vector<uint8_t> bytes = encodeRankedArtifact(twoStages());
  for (size_t size = 0; size < bytes.size(); ++size)
    EXPECT_FALSE(decodeRankedArtifact(bytes.data(), size, "m.kiln").isOk())
        << size;
}

TEST(RankedArtifactTest, RejectsStagesThatDoNotChain) {
  RankedArtifact ranked = twoStages();
  ranked.ranks[1].program.inputs[1].shape = {2, 15};
  StatusOr<RankedArtifact> decoded = decode(encodeRankedArtifact(ranked));
  ASSERT_FALSE(decoded.isOk());
  EXPECT_EQ(decoded.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(decoded.status().message().find(
                "m.kiln (stage 1): input 1 is 'pipeline.c0.0' f32 [2,15], "
                "expected 'pipeline.c0.0' f32 [2,16]"),
            std::string::npos)
      << decoded.status().message();

  ranked = twoStages();
  ranked.ranks[1].program.inputs.pop_back();
  decoded = decode(encodeRankedArtifact(ranked));
  ASSERT_FALSE(decoded.isOk());
  EXPECT_NE(decoded.status().message().find(
                "m.kiln (stage 1) takes 1 inputs; the model's 1 and the 1 "
                "stage 0 sends make 2"),
            std::string::npos)
      << decoded.status().message();
}

TEST(RankedArtifactTest, RejectsBadMicroBatchesAndUnbatchedInputs) {
  RankedArtifact ranked = twoStages();
  ranked.microBatches = 0;
  StatusOr<RankedArtifact> decoded = decode(encodeRankedArtifact(ranked));
  ASSERT_FALSE(decoded.isOk());
  EXPECT_NE(decoded.status().message().find("0 micro-batches"),
            std::string::npos)
      << decoded.status().message();

  ranked = twoStages();
  for (Artifact &stage : ranked.ranks)
    stage.program.inputs[0].shape = {};
  decoded = decode(encodeRankedArtifact(ranked));
  ASSERT_FALSE(decoded.isOk());
  EXPECT_NE(decoded.status().message().find(
                "model input 'x' f32 [] has no batch dimension"),
            std::string::npos)
      << decoded.status().message();
}

TEST(RankedArtifactTest, ReplicasRoundTripAndScaleTheInterface) {
  RankedArtifact ranked = twoRanks();
  ranked.strategy = "data,tensor";
  ranked.replicas = 3;
  std::vector<uint8_t> bytes = encodeRankedArtifact(ranked);
  EXPECT_EQ(bytes[8], 2) << "replicas need version 2";
  StatusOr<RankedArtifact> decoded = decode(bytes);
  ASSERT_TRUE(decoded.isOk()) << decoded.status().message();
  EXPECT_EQ(decoded->replicas, 3u);
  EXPECT_EQ(decoded->worldSize(), 6u);
  EXPECT_EQ(modelInterface(*decoded).inputs[0].shape,
            (std::vector<int64_t>{12, 8}));
  EXPECT_EQ(replicaInterface(*decoded).inputs[0].shape,
            (std::vector<int64_t>{4, 8}));

  // Replicas of a pipeline: the batch is replicas x micro-batches slices.
  RankedArtifact stages = twoStages();
  stages.strategy = "data,pipeline";
  stages.replicas = 2;
  decoded = decode(encodeRankedArtifact(stages));
  ASSERT_TRUE(decoded.isOk()) << decoded.status().message();
  EXPECT_EQ(modelInterface(*decoded).outputs[0].shape,
            (std::vector<int64_t>{12, 4}));
  EXPECT_EQ(replicaInterface(*decoded).outputs[0].shape,
            (std::vector<int64_t>{6, 4}));
}

TEST(RankedArtifactTest, RejectsTooManyOrNoReplicas) {
  RankedArtifact ranked = twoRanks();
  ranked.strategy = "data,tensor";
  for (uint32_t replicas : {0u, kMaxRanks}) {
    ranked.replicas = replicas;
    StatusOr<RankedArtifact> decoded = decode(encodeRankedArtifact(ranked));
    ASSERT_FALSE(decoded.isOk()) << replicas;
    EXPECT_NE(decoded.status().message().find("replicas of 2 ranks"),
              std::string::npos)
        << decoded.status().message();
  }
}

TEST(RankedArtifactTest, RejectsAStrategyThatDoesNotMatchTheVersion) {
  std::vector<uint8_t> bytes = encodeRankedArtifact(twoRanks());
  bytes[8] = 2;
  reseal(bytes);
  StatusOr<RankedArtifact> decoded = decode(bytes);
  ASSERT_FALSE(decoded.isOk());
  EXPECT_EQ(decoded.status().code(), StatusCode::kDataLoss);
}

TEST(RankedArtifactTest, ReadsAPlainArtifactAsOneRank) {
  std::string path = ::testing::TempDir() + "/plain.kiln";
  ASSERT_TRUE(writeArtifactFile(path, rankArtifact(7)).isOk());
  StatusOr<RankedArtifact> read = readRankedArtifactFile(path);
  ASSERT_TRUE(read.isOk()) << read.status().message();
  ASSERT_EQ(read->ranks.size(), 1u);
  EXPECT_EQ(read->ranks[0].cpuKernels.back(), 7);
  std::remove(path.c_str());
}

TEST(RankedArtifactTest, FileRoundTrip) {
  std::string path = ::testing::TempDir() + "/ranked.kiln";
  ASSERT_TRUE(writeRankedArtifactFile(path, twoRanks()).isOk());
  StatusOr<RankedArtifact> read = readRankedArtifactFile(path);
  ASSERT_TRUE(read.isOk()) << read.status().message();
  EXPECT_EQ(read->ranks.size(), 2u);
  std::remove(path.c_str());
}

} // namespace

//===- BatchVariantsTest.cpp - Batch variants packed in an artifact -------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Section kind 10 round-trips; the reader refuses every truncation of it,
// a variant that is not the base model at its batch, batches out of order,
// another target, and a variant holding variants (the recursion bound).
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/BatchVariants.h"
#include "kiln/runtime/Artifact.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace kiln::rt;

namespace {

Artifact modelWithRows(int64_t rows) {
  Artifact artifact;
  artifact.target = "cpu x86_64-pc-linux-gnu test";
  artifact.program.inputs = {{"x", DType::kF32, {rows, 4}},
                             {"z", DType::kI64, {rows}}};
  artifact.program.outputs = {{"y", DType::kF32, {rows, 2}}};
  DeviceProgram device;
  Step step;
  step.kernel = "_kiln_packed_main";
  device.steps.push_back(step);
  artifact.program.devices.push_back(device);
  artifact.cpuKernels = {0x7f, 'E', 'L', 'F', uint8_t(rows), 2, 3, 4};
  return artifact;
}

BatchVariant variant(const Artifact &artifact, uint32_t batch) {
  return {batch, std::make_shared<const Artifact>(artifact)};
}

Artifact packed() {
  Artifact base = modelWithRows(1);
  base.batchVariants = {variant(modelWithRows(4), 4),
                        variant(modelWithRows(16), 16)};
  return base;
}

std::string decodeError(const Artifact &artifact) {
  std::vector<uint8_t> bytes = encodeArtifact(artifact);
  StatusOr<Artifact> decoded =
      decodeArtifact(bytes.data(), bytes.size(), "m.kiln");
  return decoded.isOk() ? "" : decoded.status().message();
}

TEST(BatchVariantsTest, RoundTripsInsideAnArtifact) {
  std::vector<uint8_t> bytes = encodeArtifact(packed());
  StatusOr<Artifact> decoded = decodeArtifact(bytes.data(), bytes.size(), "m");
  ASSERT_TRUE(decoded.isOk()) << decoded.status().toString();
  ASSERT_EQ(decoded->batchVariants.size(), 2u);
  EXPECT_EQ(decoded->batchVariants[0].batch, 4u);
  EXPECT_EQ(decoded->batchVariants[1].batch, 16u);
  const Artifact &sixteen = *decoded->batchVariants[1].artifact;
  EXPECT_EQ(sixteen.program.inputs[0].shape, (std::vector<int64_t>{16, 4}));
  EXPECT_EQ(sixteen.cpuKernels[4], 16);
  EXPECT_TRUE(sixteen.batchVariants.empty());

  EXPECT_EQ(artifactForBatch(*decoded, 1), &*decoded);
  EXPECT_EQ(artifactForBatch(*decoded, 16), &sixteen);
  EXPECT_EQ(artifactForBatch(*decoded, 2), nullptr);
  EXPECT_EQ(*programBatch(sixteen.program), 16);
}

TEST(BatchVariantsTest, AbsentUnlessWritten) {
  std::vector<uint8_t> bytes = encodeArtifact(modelWithRows(1));
  StatusOr<Artifact> decoded = decodeArtifact(bytes.data(), bytes.size(), "m");
  ASSERT_TRUE(decoded.isOk());
  EXPECT_TRUE(decoded->batchVariants.empty());
}

TEST(BatchVariantsTest, RefusesEveryTruncationOfTheSection) {
  Artifact base = modelWithRows(1);
  std::vector<uint8_t> bytes = encodeBatchVariants(packed().batchVariants);
  for (size_t size = 0; size < bytes.size(); ++size) {
    StatusOr<std::vector<BatchVariant>> decoded = decodeBatchVariants(
        bytes.data(), size, base.program, base.target, "m.kiln");
    ASSERT_FALSE(decoded.isOk()) << "truncated to " << size;
    EXPECT_NE(decoded.status().message().find("m.kiln"), std::string::npos);
  }
  bytes.push_back(0);
  EXPECT_NE(decodeBatchVariants(bytes.data(), bytes.size(), base.program,
                                base.target, "m")
                .status()
                .message()
                .find("trailing bytes"),
            std::string::npos);
}

TEST(BatchVariantsTest, RefusesAVariantThatIsNotTheModelAtItsBatch) {
  Artifact base = modelWithRows(1);
  base.batchVariants = {variant(modelWithRows(3), 4)};
  EXPECT_NE(decodeError(base).find("variant #0: input 'x' is not 'x' with 4 "
                                   "rows"),
            std::string::npos)
      << decodeError(base);

  Artifact renamed = modelWithRows(4);
  renamed.program.outputs[0].name = "w";
  base.batchVariants = {variant(renamed, 4)};
  EXPECT_NE(decodeError(base).find("output 'w' is not 'y' with 4 rows"),
            std::string::npos);

  Artifact retyped = modelWithRows(4);
  retyped.program.inputs[1].dtype = DType::kI32;
  base.batchVariants = {variant(retyped, 4)};
  EXPECT_NE(decodeError(base).find("input 'z' is not 'z'"), std::string::npos);

  Artifact fewer = modelWithRows(4);
  fewer.program.inputs.pop_back();
  base.batchVariants = {variant(fewer, 4)};
  EXPECT_NE(decodeError(base).find("different number of inputs"),
            std::string::npos);
}

TEST(BatchVariantsTest, RefusesBatchesOutOfOrderOrNotAboveTheBase) {
  Artifact base = modelWithRows(4);
  base.batchVariants = {variant(modelWithRows(2), 2)};
  EXPECT_NE(decodeError(base).find("has batch 2, not above 4"),
            std::string::npos)
      << decodeError(base);
  base = modelWithRows(1);
  base.batchVariants = {variant(modelWithRows(8), 8),
                        variant(modelWithRows(8), 8)};
  EXPECT_NE(decodeError(base).find("has batch 8, not above 8"),
            std::string::npos);
}

TEST(BatchVariantsTest, RefusesAnotherTargetAndNestedVariants) {
  Artifact base = modelWithRows(1);
  Artifact other = modelWithRows(4);
  other.target = "cpu x86_64-pc-linux-gnu other";
  base.batchVariants = {variant(other, 4)};
  EXPECT_NE(decodeError(base).find("is for target"), std::string::npos);

  Artifact nested = modelWithRows(4);
  nested.batchVariants = {variant(modelWithRows(8), 8)};
  base.batchVariants = {variant(nested, 4)};
  EXPECT_NE(decodeError(base).find("a batch variant holds batch variants"),
            std::string::npos)
      << decodeError(base);
}

TEST(BatchVariantsTest, RefusesVariantsOfAModelWithoutABatchAxis) {
  Artifact base = modelWithRows(1);
  base.program.outputs.push_back({"loss", DType::kF32, {}});
  Artifact four = modelWithRows(4);
  four.program.outputs.push_back({"loss", DType::kF32, {}});
  base.batchVariants = {variant(four, 4)};
  EXPECT_NE(decodeError(base).find("output 'loss' is a scalar"),
            std::string::npos)
      << decodeError(base);
  EXPECT_FALSE(programBatch(base.program).isOk());

  Program mixed = modelWithRows(2).program;
  mixed.inputs[1].shape = {3};
  EXPECT_NE(programBatch(mixed).status().message().find(
                "input 'z' has 3 rows on axis 0, input 'x' has 2"),
            std::string::npos);
}

TEST(BatchVariantsTest, ADamagedVariantIsRefusedWithItsBatch) {
  std::vector<uint8_t> bytes = encodeArtifact(packed());
  // One bit of the batch-16 variant's kernels.
  const uint8_t elf16[] = {0x7f, 'E', 'L', 'F', 16};
  auto at = std::search(bytes.begin(), bytes.end(), std::begin(elf16),
                        std::end(elf16));
  ASSERT_NE(at, bytes.end());
  *(at + 5) ^= 1;
  // The section's CRC catches it; inside the section alone, the variant's
  // own checks do, naming its batch.
  StatusOr<Artifact> decoded = decodeArtifact(bytes.data(), bytes.size(), "m");
  ASSERT_FALSE(decoded.isOk());
  EXPECT_NE(decoded.status().message().find("checksum mismatch"),
            std::string::npos);
  Artifact base = modelWithRows(1);
  std::vector<uint8_t> section = encodeBatchVariants(packed().batchVariants);
  auto inner = std::search(section.begin(), section.end(), std::begin(elf16),
                           std::end(elf16));
  ASSERT_NE(inner, section.end());
  *(inner + 5) ^= 1;
  StatusOr<std::vector<BatchVariant>> variants = decodeBatchVariants(
      section.data(), section.size(), base.program, base.target, "m");
  ASSERT_FALSE(variants.isOk());
  EXPECT_NE(variants.status().message().find("m (batch 16)"), std::string::npos)
      << variants.status().message();
}

} // namespace

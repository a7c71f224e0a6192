//===- ArtifactTest.cpp - The .kiln container under hostile input ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Round trips, then every truncation point and every single-bit flip of a
// small artifact, then structurally wrong files with valid checksums (built
// here from the format description, independently of the encoder).
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/Artifact.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

using namespace kiln::rt;

namespace {

Artifact sampleArtifact() {
  Artifact artifact;
  artifact.target = "cpu x86_64-pc-linux-gnu test";
  artifact.program.inputs = {{"x", DType::kF32, {2, 3}},
                             {"ids", DType::kI64, {4}}};
  artifact.program.outputs = {{"y", DType::kF16, {}}};
  DeviceProgram device;
  Step step;
  step.kernel = "_kiln_packed_main";
  device.steps.push_back(step);
  artifact.program.devices.push_back(device);
  artifact.cpuKernels = {0x7f, 'E', 'L', 'F', 1, 2, 3, 4, 5, 6, 7, 8};
  return artifact;
}

/// The sample with an arena and a two-buffer memory plan.
Artifact sampleWithPlan() {
  Artifact artifact = sampleArtifact();
  artifact.program.devices[0].arenaBytes = 128;
  MemoryPlan plan;
  plan.peakBytes = 128;
  plan.lowerBoundBytes = 96;
  plan.unplannedBytes = 320;
  plan.unplannedKernelBuffersBytes = 160;
  plan.steps = 3;
  plan.kernels = 2;
  plan.buffers.push_back({0, 64, 0, 1, PlannedBuffer::kNotInPlace,
                          "linalg.generic", "\"gemm\""});
  plan.buffers.push_back({64, 32, 1, 2, PlannedBuffer::kNotInPlace,
                          "linalg.fill", ""});
  plan.buffers.push_back({0, 64, 1, 2, 0, "linalg.generic", "relu"});
  artifact.memoryPlans.push_back(plan);
  return artifact;
}

StatusOr<Artifact> decode(const std::vector<uint8_t> &bytes) {
  return decodeArtifact(bytes.data(), bytes.size(), "test.kiln");
}

void put32(std::vector<uint8_t> &b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    b[at + i] = uint8_t(v >> (8 * i));
}
void put64(std::vector<uint8_t> &b, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    b[at + i] = uint8_t(v >> (8 * i));
}

/// A container built from the format description: header, table, sections
/// at 16-byte alignment, all checksums valid.
std::vector<uint8_t>
buildContainer(const std::vector<std::pair<uint32_t, std::vector<uint8_t>>>
                   &sections,
               uint32_t version = kArtifactFormatVersion) {
  size_t tableEnd = 64 + 32 * sections.size();
  std::vector<uint8_t> file((tableEnd + 15) / 16 * 16, 0);
  std::vector<std::tuple<uint32_t, uint64_t, uint64_t>> entries;
  for (auto &[kind, bytes] : sections) {
    size_t offset = file.size();
    file.insert(file.end(), bytes.begin(), bytes.end());
    file.resize((file.size() + 15) / 16 * 16, 0);
    entries.emplace_back(kind, offset, bytes.size());
  }
  std::memcpy(file.data(), "KILNART\0", 8);
  put32(file, 8, version);
  put32(file, 12, 64);
  put32(file, 16, uint32_t(sections.size()));
  put64(file, 24, file.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    auto [kind, offset, size] = entries[i];
    size_t at = 64 + 32 * i;
    put32(file, at, kind);
    put64(file, at + 8, offset);
    put64(file, at + 16, size);
    put32(file, at + 24, crc32(file.data() + offset, size));
  }
  put32(file, 36, crc32(file.data() + 64, 32 * sections.size()));
  put32(file, 32, 0);
  put32(file, 32, crc32(file.data(), 64));
  return file;
}

/// Sets the flags of section `index` of a built container and refreshes the
/// checksums that cover them.
void setSectionFlags(std::vector<uint8_t> &file, size_t index,
                     uint32_t flags) {
  uint32_t count = file[16];
  put32(file, 64 + 32 * index + 4, flags);
  put32(file, 36, crc32(file.data() + 64, 32 * count));
  put32(file, 32, 0);
  put32(file, 32, crc32(file.data(), 64));
}

std::vector<uint8_t> bytesOf(const std::string &s) {
  return std::vector<uint8_t>(s.begin(), s.end());
}

/// A program section: `inputs` tensors as given, no outputs, one CPU device
/// with one step.
std::vector<uint8_t> programWithInputCount(uint32_t count) {
  std::vector<uint8_t> p(4, 0);
  put32(p, 0, count);
  return p; // Truncated right after the count: decoding must stop cleanly.
}

TEST(ArtifactTest, Crc32IsZlibs) {
  auto of = [](const std::string &text) {
    return crc32(reinterpret_cast<const uint8_t *>(text.data()), text.size());
  };
  EXPECT_EQ(of(""), 0u);
  EXPECT_EQ(of("123456789"), 0xCBF43926u);
  EXPECT_EQ(of("The quick brown fox jumps over the lazy dog"), 0x414FA339u);
  // Every length and alignment around the eight-byte steps agrees with the
  // bytewise definition.
  std::vector<uint8_t> bytes(40);
  for (size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = uint8_t(i * 37 + 11);
  for (size_t start = 0; start < 8; ++start)
    for (size_t size = 0; start + size <= bytes.size(); ++size) {
      uint32_t c = 0xFFFFFFFFu;
      for (size_t i = start; i < start + size; ++i) {
        c ^= bytes[i];
        for (int k = 0; k < 8; ++k)
          c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      }
      EXPECT_EQ(crc32(bytes.data() + start, size), c ^ 0xFFFFFFFFu)
          << "start " << start << " size " << size;
    }
}

TEST(ArtifactTest, RoundTrips) {
  Artifact original = sampleArtifact();
  std::vector<uint8_t> bytes = encodeArtifact(original);
  StatusOr<Artifact> decoded = decode(bytes);
  ASSERT_TRUE(decoded.isOk()) << decoded.status().toString();
  EXPECT_EQ(decoded->target, original.target);
  ASSERT_EQ(decoded->program.inputs.size(), 2u);
  EXPECT_EQ(decoded->program.inputs[1].name, "ids");
  EXPECT_EQ(decoded->program.inputs[1].dtype, DType::kI64);
  EXPECT_EQ(decoded->program.inputs[0].shape, (std::vector<int64_t>{2, 3}));
  EXPECT_TRUE(decoded->program.outputs[0].shape.empty());
  EXPECT_EQ(decoded->program.devices[0].steps[0].kernel, "_kiln_packed_main");
  EXPECT_EQ(decoded->cpuKernels, original.cpuKernels);
}

TEST(ArtifactTest, RoundTripsRunTimeLengths) {
  Artifact original = sampleArtifact();
  TensorSpec bounded{"indices", DType::kI64, {2, 9}};
  bounded.lengthAxis = 1;
  bounded.lengthOutput = 2;
  original.program.outputs.push_back(bounded);
  original.program.outputs.push_back({"indices:length", DType::kI64, {}});
  StatusOr<Artifact> decoded = decode(encodeArtifact(original));
  ASSERT_TRUE(decoded.isOk()) << decoded.status().toString();
  const std::vector<TensorSpec> &outputs = decoded->program.outputs;
  ASSERT_EQ(outputs.size(), 3u);
  EXPECT_FALSE(outputs[0].hasRuntimeLength());
  EXPECT_EQ(outputs[1].lengthAxis, 1);
  EXPECT_EQ(outputs[1].lengthOutput, 2u);
  EXPECT_FALSE(outputs[2].hasRuntimeLength());
}

TEST(ArtifactTest, RefusesRunTimeLengthsThatCannotHold) {
  // An axis past the rank, a length output that is not an i64 scalar (or is
  // the output itself, or does not exist), a length on an input.
  struct Case {
    int32_t axis;
    uint32_t lengthOutput;
    bool onInput;
    const char *message;
  };
  for (const Case &c : {Case{2, 2, false, "bad run-time length of output #1"},
                        Case{-2, 2, false, "bad run-time length of output #1"},
                        Case{-1, 2, false, "bad run-time length of output #1"},
                        Case{1, 0, false, "output 'indices' has no i64 scalar"},
                        Case{1, 1, false, "output 'indices' has no i64 scalar"},
                        Case{1, 7, false, "output 'indices' has no i64 scalar"},
                        Case{0, 0, true, "input 'x' has a run-time length"}}) {
    Artifact artifact = sampleArtifact();
    TensorSpec bounded{"indices", DType::kI64, {2, 9}};
    if (c.onInput) {
      artifact.program.inputs[0].lengthAxis = c.axis;
    } else {
      bounded.lengthAxis = c.axis;
      bounded.lengthOutput = c.lengthOutput;
    }
    artifact.program.outputs.push_back(bounded);
    artifact.program.outputs.push_back({"indices:length", DType::kI64, {}});
    StatusOr<Artifact> decoded = decode(encodeArtifact(artifact));
    ASSERT_FALSE(decoded.isOk()) << c.message;
    EXPECT_EQ(decoded.status().code(), StatusCode::kDataLoss);
    EXPECT_NE(decoded.status().message().find(c.message), std::string::npos)
        << decoded.status().message();
  }
}

TEST(ArtifactTest, MatchesTheIndependentBuilder) {
  // The encoder and the format description agree byte for byte on the
  // header and table layout: a container built by hand decodes.
  Artifact original = sampleArtifact();
  std::vector<uint8_t> encoded = encodeArtifact(original);
  StatusOr<Artifact> decoded = decode(encoded);
  ASSERT_TRUE(decoded.isOk());
  // Re-wrap the encoded program section with the test's own builder.
  uint64_t programOffset = 0, programSize = 0;
  for (int i = 0; i < 3; ++i) {
    size_t at = 64 + 32 * i;
    uint32_t kind = encoded[at];
    if (kind == 2) {
      std::memcpy(&programOffset, &encoded[at + 8], 8);
      std::memcpy(&programSize, &encoded[at + 16], 8);
    }
  }
  std::vector<uint8_t> program(encoded.begin() + programOffset,
                               encoded.begin() + programOffset + programSize);
  std::vector<uint8_t> rebuilt =
      buildContainer({{1, bytesOf(original.target)},
                      {2, program},
                      {3, original.cpuKernels}});
  StatusOr<Artifact> again = decode(rebuilt);
  ASSERT_TRUE(again.isOk()) << again.status().toString();
  EXPECT_EQ(again->program.devices[0].steps[0].kernel, "_kiln_packed_main");
}

TEST(ArtifactTest, RoundTripsTheMemoryPlan) {
  Artifact original = sampleWithPlan();
  StatusOr<Artifact> decoded = decode(encodeArtifact(original));
  ASSERT_TRUE(decoded.isOk()) << decoded.status().toString();
  ASSERT_EQ(decoded->memoryPlans.size(), 1u);
  const MemoryPlan &plan = decoded->memoryPlans[0];
  EXPECT_EQ(plan.peakBytes, 128u);
  EXPECT_EQ(plan.lowerBoundBytes, 96u);
  EXPECT_EQ(plan.unplannedBytes, std::optional<uint64_t>(320));
  EXPECT_EQ(plan.unplannedKernelBuffersBytes, 160u);
  EXPECT_EQ(plan.kernels, 2u);
  ASSERT_EQ(plan.buffers.size(), 3u);
  EXPECT_EQ(plan.buffers[1].offset, 64u);
  EXPECT_EQ(plan.buffers[0].location, "\"gemm\"");
  EXPECT_EQ(plan.buffers[2].inPlaceOf, 0u);
  EXPECT_EQ(plan.buffers[1].inPlaceOf, PlannedBuffer::kNotInPlace);
  // Artifacts without a plan (all written before it existed) still read.
  EXPECT_TRUE(decode(encodeArtifact(sampleArtifact()))->memoryPlans.empty());
}

TEST(ArtifactTest, TheUnplannedBaselineIsOptional) {
  // A plan without the graph's figure writes no kind 7 section and reads
  // back without it; kind 4 alone is what older writers produced.
  Artifact without = sampleWithPlan();
  without.memoryPlans[0].unplannedBytes.reset();
  std::vector<uint8_t> bytes = encodeArtifact(without);
  EXPECT_EQ(bytes[16], 4u); // target, program, kernels, plan
  StatusOr<Artifact> decoded = decode(bytes);
  ASSERT_TRUE(decoded.isOk()) << decoded.status().toString();
  EXPECT_FALSE(decoded->memoryPlans[0].unplannedBytes.has_value());
  EXPECT_EQ(decoded->memoryPlans[0].unplannedKernelBuffersBytes, 160u);
  EXPECT_EQ(encodeArtifact(sampleWithPlan())[16], 5u);
}

TEST(ArtifactTest, RejectsABaselineWithoutItsPlan) {
  Artifact sample = sampleArtifact();
  std::vector<uint8_t> program;
  {
    std::vector<uint8_t> encoded = encodeArtifact(sample);
    uint64_t offset = 0, size = 0;
    std::memcpy(&offset, &encoded[64 + 32 + 8], 8);
    std::memcpy(&size, &encoded[64 + 32 + 16], 8);
    program.assign(encoded.begin() + offset, encoded.begin() + offset + size);
  }
  std::vector<uint8_t> baseline(12, 0);
  put32(baseline, 0, 1); // one entry, for device 0, which has no plan
  std::vector<uint8_t> file = buildContainer({{1, bytesOf(sample.target)},
                                              {2, program},
                                              {3, sample.cpuKernels},
                                              {7, baseline}});
  setSectionFlags(file, 3, kSectionOptional);
  StatusOr<Artifact> result = decode(file);
  ASSERT_FALSE(result.isOk());
  EXPECT_NE(result.status().message().find("baseline"), std::string::npos);
}

TEST(ArtifactTest, ValidatesTheMemoryPlanAgainstTheProgram) {
  auto rejects = [](Artifact artifact) {
    StatusOr<Artifact> result = decode(encodeArtifact(artifact));
    return !result.isOk() &&
           result.status().message().find("memory plan") != std::string::npos;
  };
  Artifact outside = sampleWithPlan();
  outside.memoryPlans[0].buffers[1].offset = 100; // 100 + 32 > 128
  EXPECT_TRUE(rejects(outside));
  Artifact wrap = sampleWithPlan();
  wrap.memoryPlans[0].buffers[1].offset = ~uint64_t(0) - 8;
  EXPECT_TRUE(rejects(wrap));
  Artifact device = sampleWithPlan();
  device.memoryPlans[0].device = 1;
  EXPECT_TRUE(rejects(device));
  Artifact twice = sampleWithPlan();
  twice.memoryPlans.push_back(twice.memoryPlans[0]);
  EXPECT_TRUE(rejects(twice));
  Artifact steps = sampleWithPlan();
  steps.memoryPlans[0].buffers[0].lastStep = 3;
  EXPECT_TRUE(rejects(steps));
  Artifact self = sampleWithPlan();
  self.memoryPlans[0].buffers[2].inPlaceOf = 2;
  EXPECT_TRUE(rejects(self));
  Artifact peak = sampleWithPlan();
  peak.memoryPlans[0].peakBytes = 129;
  EXPECT_TRUE(rejects(peak));
}

TEST(ArtifactTest, SkipsOnlyOptionalUnknownSections) {
  std::vector<uint8_t> program;
  {
    std::vector<uint8_t> encoded = encodeArtifact(sampleArtifact());
    uint64_t offset = 0, size = 0;
    std::memcpy(&offset, &encoded[64 + 32 + 8], 8);
    std::memcpy(&size, &encoded[64 + 32 + 16], 8);
    program.assign(encoded.begin() + offset, encoded.begin() + offset + size);
  }
  Artifact sample = sampleArtifact();
  auto withUnknown = [&](uint32_t flags) {
    std::vector<uint8_t> file = buildContainer({{1, bytesOf(sample.target)},
                                                {2, program},
                                                {3, sample.cpuKernels},
                                                {99, {1, 2, 3}}});
    setSectionFlags(file, 3, flags);
    return decode(file);
  };
  EXPECT_TRUE(withUnknown(kSectionOptional).isOk());
  EXPECT_EQ(withUnknown(0).status().code(), StatusCode::kUnimplemented);
  EXPECT_EQ(withUnknown(2).status().code(), StatusCode::kDataLoss);
}

TEST(ArtifactTest, RejectsEveryTruncation) {
  std::vector<uint8_t> bytes = encodeArtifact(sampleWithPlan());
  for (size_t length = 0; length < bytes.size(); ++length) {
    std::vector<uint8_t> truncated(bytes.begin(), bytes.begin() + length);
    EXPECT_FALSE(decode(truncated).isOk()) << "length " << length;
  }
}

TEST(ArtifactTest, RejectsEverySingleBitFlip) {
  std::vector<uint8_t> bytes = encodeArtifact(sampleWithPlan());
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::vector<uint8_t> flipped = bytes;
      flipped[i] ^= uint8_t(1 << bit);
      StatusOr<Artifact> result = decode(flipped);
      // Padding bytes are not covered by checksums; a flip there is harmless
      // only if the decoded artifact is still the same.
      if (result.isOk()) {
        EXPECT_EQ(result->cpuKernels, sampleArtifact().cpuKernels)
            << "byte " << i << " bit " << bit;
        EXPECT_EQ(result->memoryPlans.size(), 1u);
        EXPECT_EQ(result->target, sampleArtifact().target);
      }
    }
  }
}

TEST(ArtifactTest, NamesTheProblem) {
  std::vector<uint8_t> bytes = encodeArtifact(sampleArtifact());
  std::vector<uint8_t> notOurs = bytes;
  notOurs[0] = 'X';
  EXPECT_NE(decode(notOurs).status().message().find("bad magic"),
            std::string::npos);
  std::vector<uint8_t> cut(bytes.begin(), bytes.end() - 16);
  EXPECT_NE(decode(cut).status().message().find("truncated"),
            std::string::npos);
}

TEST(ArtifactTest, RefusesNewerFormatVersions) {
  std::vector<uint8_t> file =
      buildContainer({{1, bytesOf("cpu")}}, kArtifactFormatVersion + 1);
  StatusOr<Artifact> result = decode(file);
  EXPECT_EQ(result.status().code(), StatusCode::kUnimplemented);
  EXPECT_NE(result.status().message().find("format version"),
            std::string::npos);
}

TEST(ArtifactTest, AsksToRebuildOlderFormatVersions) {
  // Format 1 predates the exec schedule, format 2 the steps' debug
  // information, format 3 outputs with a run-time length: none reads as a
  // program of today, so the message says how to get a current artifact.
  for (uint32_t version : {1u, 2u, 3u}) {
    std::vector<uint8_t> file = buildContainer({{1, bytesOf("cpu")}}, version);
    StatusOr<Artifact> result = decode(file);
    EXPECT_EQ(result.status().code(), StatusCode::kUnimplemented);
    EXPECT_NE(result.status().message().find(
                  "format version " + std::to_string(version) +
                  "; this runtime reads 4 (it was written by an older kilnc: "
                  "rebuild it with kilnc compile)"),
              std::string::npos)
        << result.status().message();
  }
}

TEST(ArtifactTest, RejectsStructuralErrorsWithValidChecksums) {
  std::vector<uint8_t> program = encodeArtifact(sampleArtifact());
  // Unknown section kind.
  EXPECT_EQ(decode(buildContainer({{1, bytesOf("cpu")}, {99, {1, 2}}}))
                .status()
                .code(),
            StatusCode::kUnimplemented);
  // Missing program section.
  EXPECT_FALSE(decode(buildContainer({{1, bytesOf("cpu")}})).isOk());
  // Duplicate target.
  EXPECT_FALSE(
      decode(buildContainer({{1, bytesOf("a")}, {1, bytesOf("b")}})).isOk());
  // A program claiming four billion inputs, then ending.
  StatusOr<Artifact> huge = decode(
      buildContainer({{1, bytesOf("cpu")}, {2, programWithInputCount(~0u)}}));
  EXPECT_EQ(huge.status().code(), StatusCode::kDataLoss);
  // A program claiming one input, then ending: no read past the end.
  EXPECT_FALSE(decode(buildContainer(
                          {{1, bytesOf("cpu")}, {2, programWithInputCount(1)}}))
                   .isOk());
}

TEST(ArtifactTest, RejectsSectionsOutsideTheFile) {
  std::vector<uint8_t> file =
      buildContainer({{1, bytesOf("cpu")}, {2, programWithInputCount(0)}});
  // Point the second section past the end, then fix the table checksum so
  // that only the bounds check can catch it.
  put64(file, 64 + 32 + 8, file.size() + 16);
  put32(file, 36, crc32(file.data() + 64, 64));
  put32(file, 32, 0);
  put32(file, 32, crc32(file.data(), 64));
  StatusOr<Artifact> result = decode(file);
  ASSERT_FALSE(result.isOk());
  EXPECT_NE(result.status().message().find("outside the file"),
            std::string::npos);
}

TEST(Crc32Test, MatchesZlib) {
  // zlib.crc32(b"123456789") == 0xCBF43926, the standard check value.
  const char *check = "123456789";
  EXPECT_EQ(crc32(reinterpret_cast<const uint8_t *>(check), 9), 0xCBF43926u);
}

} // namespace

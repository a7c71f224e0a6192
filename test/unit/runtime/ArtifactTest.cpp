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

using namespace kiln::rt;

namespace {

Artifact sampleArtifact() {
  Artifact artifact;
  artifact.target = "cpu x86_64-pc-linux-gnu test";
  artifact.program.inputs = {{"x", DType::kF32, {2, 3}},
                             {"ids", DType::kI64, {4}}};
  artifact.program.outputs = {{"y", DType::kF16, {}}};
  DeviceProgram device;
  device.steps.push_back({Step::Kind::kCallKernel, "_kiln_packed_main"});
  artifact.program.devices.push_back(device);
  artifact.cpuKernels = {0x7f, 'E', 'L', 'F', 1, 2, 3, 4, 5, 6, 7, 8};
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

TEST(ArtifactTest, RejectsEveryTruncation) {
  std::vector<uint8_t> bytes = encodeArtifact(sampleArtifact());
  for (size_t length = 0; length < bytes.size(); ++length) {
    std::vector<uint8_t> truncated(bytes.begin(), bytes.begin() + length);
    EXPECT_FALSE(decode(truncated).isOk()) << "length " << length;
  }
}

TEST(ArtifactTest, RejectsEverySingleBitFlip) {
  std::vector<uint8_t> bytes = encodeArtifact(sampleArtifact());
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

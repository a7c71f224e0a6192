//===- CudaArtifactTest.cpp - CUDA launch steps and modules on disk -------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Round trip of launch steps, CUDA modules and constants, then one rejection
// per malformed field (the encoder writes whatever it is given, so each
// damaged artifact reaches the decoder with valid checksums), then every
// truncation and bit flip of a CUDA artifact.
//
//===----------------------------------------------------------------------===//

#include "CudaTestArtifacts.h"

#include "kiln/runtime/Artifact.h"

#include <gtest/gtest.h>

#include <functional>

using namespace kiln::rt;
using kiln::rt::test::cudaSampleArtifact;

namespace {

StatusOr<Artifact> decode(const std::vector<uint8_t> &bytes) {
  return decodeArtifact(bytes.data(), bytes.size(), "cuda.kiln");
}

TEST(CudaArtifactTest, RoundTrips) {
  Artifact original = cudaSampleArtifact();
  StatusOr<Artifact> decoded = decode(encodeArtifact(original));
  ASSERT_TRUE(decoded.isOk()) << decoded.status().toString();
  EXPECT_TRUE(decoded->cpuKernels.empty());
  EXPECT_EQ(decoded->constants, original.constants);
  const DeviceProgram &device = decoded->program.devices[0];
  EXPECT_EQ(device.kind, DeviceProgram::Kind::kCuda);
  EXPECT_EQ(device.arenaBytes, 1024u);
  ASSERT_EQ(device.steps.size(), 2u);
  const Step &scale = device.steps[0];
  EXPECT_EQ(scale.kind, Step::Kind::kLaunchKernel);
  EXPECT_EQ(scale.kernel, "scale");
  EXPECT_EQ(scale.grid[0], 2u);
  EXPECT_EQ(scale.grid[2], 1u);
  EXPECT_EQ(scale.block[0], 128u);
  EXPECT_EQ(scale.sharedBytes, 64u);
  ASSERT_EQ(scale.args.size(), 3u);
  EXPECT_EQ(scale.args[1].base, KernelArg::Base::kConstants);
  EXPECT_EQ(scale.args[1].offset, 256u);
  EXPECT_EQ(scale.args[1].bytes, 16u);
  EXPECT_EQ(device.steps[1].block[1], 4u);
  ASSERT_EQ(decoded->cudaModules.size(), 3u);
  for (size_t m = 0; m < 3; ++m) {
    EXPECT_EQ(decoded->cudaModules[m].format, original.cudaModules[m].format);
    EXPECT_EQ(decoded->cudaModules[m].arch, original.cudaModules[m].arch);
    EXPECT_EQ(decoded->cudaModules[m].kernels, original.cudaModules[m].kernels);
    EXPECT_EQ(decoded->cudaModules[m].image, original.cudaModules[m].image);
  }
}

TEST(CudaArtifactTest, KeepsMemoryPlansOfCudaDevices) {
  Artifact artifact = cudaSampleArtifact();
  MemoryPlan plan;
  plan.peakBytes = 16;
  plan.lowerBoundBytes = 16;
  plan.unplannedKernelBuffersBytes = 16;
  plan.unplannedBytes = 16;
  plan.steps = 2;
  plan.kernels = 2;
  plan.buffers.push_back(
      {512, 16, 0, 1, PlannedBuffer::kNotInPlace, "linalg.generic", ""});
  artifact.memoryPlans.push_back(plan);
  StatusOr<Artifact> decoded = decode(encodeArtifact(artifact));
  ASSERT_TRUE(decoded.isOk()) << decoded.status().toString();
  EXPECT_EQ(decoded->memoryPlans.size(), 1u);
}

/// Expects `damage` applied to the sample to be rejected as corrupt with
/// `what` in the message.
void expectRejected(const std::function<void(Artifact &)> &damage,
                    const std::string &what) {
  Artifact artifact = cudaSampleArtifact();
  damage(artifact);
  StatusOr<Artifact> result = decode(encodeArtifact(artifact));
  ASSERT_FALSE(result.isOk()) << "accepted; expected: " << what;
  EXPECT_EQ(result.status().code(), StatusCode::kDataLoss)
      << result.status().toString();
  EXPECT_NE(result.status().message().find(what), std::string::npos)
      << result.status().message();
}

Step &scale(Artifact &a) { return a.program.devices[0].steps[0]; }
KernelArg &arg(Artifact &a, size_t i) { return scale(a).args[i]; }

TEST(CudaArtifactTest, RejectsMisplacedStepKinds) {
  expectRejected([](Artifact &a) { scale(a).kind = Step::Kind::kDispatch; },
                 "bad kind 1 of step #0 of device #0");
  // A launch in a CPU device (with a kernels section, so only the step is
  // wrong).
  expectRejected(
      [](Artifact &a) {
        a.program.devices[0].kind = DeviceProgram::Kind::kCpu;
        a.cpuKernels = {1, 2, 3};
      },
      "bad kind 2 of step #0");
}

TEST(CudaArtifactTest, RejectsBadLaunchConfigurations) {
  expectRejected([](Artifact &a) { scale(a).grid[1] = 0; },
                 "bad grid or block dimension in step #0");
  expectRejected([](Artifact &a) { scale(a).block[2] = 0; },
                 "bad grid or block dimension");
  expectRejected([](Artifact &a) { scale(a).grid[2] = 65536; },
                 "bad grid or block dimension");
  expectRejected([](Artifact &a) { scale(a).block[2] = 65; },
                 "bad grid or block dimension");
  expectRejected(
      [](Artifact &a) {
        scale(a).block[0] = 32;
        scale(a).block[1] = 32;
        scale(a).block[2] = 2;
      },
      "more than 1024 threads per block");
  expectRejected(
      [](Artifact &a) {
        scale(a).args.assign(1025, {KernelArg::Base::kArena, 0, 0, 4});
      },
      "bad bindings of step #0");
}

TEST(CudaArtifactTest, RejectsArgumentsOutsideTheirBuffers) {
  expectRejected([](Artifact &a) { arg(a, 0).base = KernelArg::Base(0); },
                 "unknown base 0 of argument #0 of step #0");
  expectRejected([](Artifact &a) { arg(a, 0).base = KernelArg::Base(5); },
                 "unknown base 5");
  expectRejected([](Artifact &a) { arg(a, 0).index = 1; },
                 "input index out of range in argument #0");
  expectRejected(
      [](Artifact &a) { a.program.devices[0].steps[1].args[1].index = 1; },
      "output index out of range in argument #1 of step #1");
  // The input is 16 bytes.
  expectRejected([](Artifact &a) { arg(a, 0).bytes = 17; },
                 "bytes 0+17 outside the buffer");
  expectRejected([](Artifact &a) { arg(a, 0).offset = 4; },
                 "outside the buffer");
  // The arena is 1024 bytes.
  expectRejected([](Artifact &a) { arg(a, 2).offset = 1009; },
                 "bytes 1009+16 outside the buffer in argument #2");
  expectRejected([](Artifact &a) { arg(a, 2).offset = ~uint64_t(0) - 7; },
                 "outside the buffer");
  expectRejected([](Artifact &a) { arg(a, 2).index = 1; },
                 "index of a single buffer is not 0");
  expectRejected([](Artifact &a) { arg(a, 1).index = 2; },
                 "index of a single buffer is not 0");
  // The constants are 512 bytes; offset + bytes must not wrap either.
  expectRejected([](Artifact &a) { arg(a, 1).offset = 500; },
                 "lies outside the constants section");
  expectRejected(
      [](Artifact &a) {
        arg(a, 1).offset = 16;
        arg(a, 1).bytes = ~uint64_t(0) - 8;
      },
      "outside the buffer in argument #1");
  expectRejected([](Artifact &a) { a.constants.clear(); },
                 "lies outside the constants section");
  // A zero-byte argument at the very end is fine.
  Artifact edge = cudaSampleArtifact();
  arg(edge, 2).offset = 1024;
  arg(edge, 2).bytes = 0;
  EXPECT_TRUE(decode(encodeArtifact(edge)).isOk());
}

TEST(CudaArtifactTest, RejectsKernelsWithoutPtx) {
  // CUBIN alone would tie the artifact to one GPU generation.
  expectRejected(
      [](Artifact &a) {
        a.cudaModules.erase(a.cudaModules.begin()); // the compute_80 PTX
      },
      "kernel 'scale' of step #0 of device #0 is in no PTX module");
  expectRejected([](Artifact &a) { a.cudaModules.clear(); },
                 "is in no PTX module");
  expectRejected([](Artifact &a) { scale(a).kernel = "scal"; },
                 "kernel 'scal'");
}

TEST(CudaArtifactTest, RejectsMalformedModules) {
  auto module = [](Artifact &a) -> CudaModule & { return a.cudaModules[1]; };
  expectRejected([&](Artifact &a) { module(a).format = CudaModule::Format(3); },
                 "unknown format of module #1");
  expectRejected([&](Artifact &a) { module(a).arch = 5; },
                 "bad architecture 5 of module #1");
  expectRejected([&](Artifact &a) { module(a).arch = 1000; },
                 "bad architecture 1000");
  expectRejected([&](Artifact &a) { module(a).kernels.clear(); },
                 "bad kernel count of module #1");
  expectRejected([&](Artifact &a) { module(a).kernels[1] = ""; },
                 "bad kernel name #1 in module #1");
  expectRejected(
      [&](Artifact &a) { module(a).kernels[0] = std::string(4097, 'k'); },
      "bad kernel name #0");
  expectRejected([&](Artifact &a) { module(a).image.clear(); },
                 "bad image size of module #1");
  expectRejected([&](Artifact &a) { module(a).image[0] = 'E'; },
                 "CUBIN of module #1 is not an ELF image");
  expectRejected([&](Artifact &a) { a.cudaModules[0].image.back() = '}'; },
                 "PTX of module #0 is not NUL-terminated");
}

TEST(CudaArtifactTest, RejectsTooManyModules) {
  CudaModule tiny{CudaModule::Format::kPtx, 80, {"scale", "add_one"}, {0}};
  expectRejected([&](Artifact &a) { a.cudaModules.assign(4097, tiny); },
                 "bad module count");
  Artifact most = cudaSampleArtifact();
  most.cudaModules.assign(4096, tiny);
  EXPECT_TRUE(decode(encodeArtifact(most)).isOk());
}

TEST(CudaArtifactTest, AcceptsTheLimits) {
  Artifact artifact = cudaSampleArtifact();
  scale(artifact).block[0] = 1024;
  scale(artifact).grid[0] = 0x7FFFFFFF;
  scale(artifact).grid[1] = 65535;
  scale(artifact).args.resize(1024, {KernelArg::Base::kArena, 0, 0, 1024});
  artifact.cudaModules[0].kernels.push_back(std::string(4096, 'k'));
  StatusOr<Artifact> decoded = decode(encodeArtifact(artifact));
  ASSERT_TRUE(decoded.isOk()) << decoded.status().toString();
  EXPECT_EQ(decoded->program.devices[0].steps[0].args.size(), 1024u);
}

TEST(CudaArtifactTest, RejectsEveryTruncation) {
  std::vector<uint8_t> bytes = encodeArtifact(cudaSampleArtifact());
  for (size_t length = 0; length < bytes.size(); ++length) {
    std::vector<uint8_t> truncated(bytes.begin(), bytes.begin() + length);
    EXPECT_FALSE(decode(truncated).isOk()) << "length " << length;
  }
}

TEST(CudaArtifactTest, RejectsEverySingleBitFlip) {
  Artifact original = cudaSampleArtifact();
  std::vector<uint8_t> bytes = encodeArtifact(original);
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::vector<uint8_t> flipped = bytes;
      flipped[i] ^= uint8_t(1 << bit);
      StatusOr<Artifact> result = decode(flipped);
      // Only padding is outside every checksum.
      if (result.isOk()) {
        EXPECT_EQ(result->constants, original.constants) << "byte " << i;
        ASSERT_EQ(result->cudaModules.size(), 3u) << "byte " << i;
        EXPECT_EQ(result->cudaModules[1].image, original.cudaModules[1].image);
        EXPECT_EQ(result->program.devices[0].steps[0].args[1].offset, 256u);
      }
    }
  }
}

} // namespace

//===- CudaTestArtifacts.h - Small CUDA artifacts for tests -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// y = x * c + 1 on four floats in two launches: "scale" writes x * c into
// the arena (c: constants at byte 256), "add_one" reads it back into y.
// Modules: PTX compute_80 with both kernels, CUBIN sm_90 with both, PTX
// compute_90 with add_one only. The images are stand-ins the fake driver
// understands, not real PTX/CUBIN.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TEST_UNIT_RUNTIME_CUDATESTARTIFACTS_H
#define KILN_TEST_UNIT_RUNTIME_CUDATESTARTIFACTS_H

#include "kiln/runtime/Artifact.h"

#include <cstring>

namespace kiln::rt::test {

inline std::vector<uint8_t> ptxImage(const std::string &text) {
  std::vector<uint8_t> image(text.begin(), text.end());
  image.push_back(0);
  return image;
}

inline std::vector<uint8_t> cubinImage(const std::string &text) {
  std::vector<uint8_t> image = {0x7f, 'E', 'L', 'F'};
  image.insert(image.end(), text.begin(), text.end());
  image.push_back(0);
  return image;
}

inline constexpr float kConstants[4] = {2, 3, 4, 5};

inline Artifact cudaSampleArtifact() {
  Artifact artifact;
  artifact.target = "cuda sm_90";
  artifact.program.inputs = {{"x", DType::kF32, {4}}};
  artifact.program.outputs = {{"y", DType::kF32, {4}}};
  DeviceProgram device;
  device.kind = DeviceProgram::Kind::kCuda;
  device.arenaBytes = 1024;
  Step scale;
  scale.kind = Step::Kind::kLaunchKernel;
  scale.kernel = "scale";
  scale.grid[0] = 2;
  scale.block[0] = 128;
  scale.sharedBytes = 64;
  scale.args = {{KernelArg::Base::kInput, 0, 0, 16, KernelArg::Access::kRead},
                {KernelArg::Base::kConstants, 0, 256, 16,
                 KernelArg::Access::kRead},
                {KernelArg::Base::kArena, 0, 512, 16,
                 KernelArg::Access::kWrite}};
  Step addOne;
  addOne.kind = Step::Kind::kLaunchKernel;
  addOne.kernel = "add_one";
  addOne.block[0] = 32;
  addOne.block[1] = 4;
  addOne.args = {{KernelArg::Base::kArena, 0, 512, 16,
                  KernelArg::Access::kRead},
                 {KernelArg::Base::kOutput, 0, 0, 16, KernelArg::Access::kWrite}};
  addOne.after = {0};
  device.steps = {scale, addOne};
  artifact.program.devices.push_back(device);

  CudaModule ptx80{CudaModule::Format::kPtx,
                   80,
                   {"scale", "add_one"},
                   ptxImage(".target sm_80 .entry scale .entry add_one")};
  CudaModule cubin90{CudaModule::Format::kCubin,
                     90,
                     {"scale", "add_one"},
                     cubinImage("sm_90 scale add_one")};
  CudaModule ptx90{CudaModule::Format::kPtx,
                   90,
                   {"add_one"},
                   ptxImage(".target sm_90 .entry add_one")};
  artifact.cudaModules = {ptx80, cubin90, ptx90};
  artifact.constants.assign(512, 0);
  std::memcpy(artifact.constants.data() + 256, kConstants, sizeof(kConstants));
  return artifact;
}

} // namespace kiln::rt::test

#endif // KILN_TEST_UNIT_RUNTIME_CUDATESTARTIFACTS_H

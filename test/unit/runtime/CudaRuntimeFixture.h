//===- CudaRuntimeFixture.h - The fake driver's test fixture ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Shared by the CUDA runtime's gtests: the fake driver's state, the sample
// artifact's kernels (y = x * c + 1) registered on it, and tensor helpers.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TEST_UNIT_RUNTIME_CUDARUNTIMEFIXTURE_H
#define KILN_TEST_UNIT_RUNTIME_CUDARUNTIMEFIXTURE_H

#include "CudaTestArtifacts.h"
#include "FakeCudaDriver.h"

#include "kiln/runtime/CudaExecutable.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

namespace kiln::rt::test {

/// The state of the fake driver at `path` (each path is its own driver).
inline FakeCudaState &fakeAt(const char *path) {
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  EXPECT_NE(library, nullptr) << dlerror();
  auto get = reinterpret_cast<FakeCudaState *(*)()>(
      dlsym(library, "kilnFakeCudaState"));
  return *get();
}

inline FakeCudaState &fake() {
  static FakeCudaState *state = &fakeAt(KILN_FAKE_CUDA_DRIVER);
  return *state;
}

inline float *floats(uint64_t pointer) {
  return reinterpret_cast<float *>(pointer);
}

/// Registers y = x * c + 1 as the sample's two kernels on `state`.
inline void registerKernels(FakeCudaState &state = fake()) {
  state.kernels["scale"] = {3, [](const std::vector<uint64_t> &args) {
                              for (int i = 0; i < 4; ++i)
                                floats(args[2])[i] =
                                    floats(args[0])[i] * floats(args[1])[i];
                            }};
  state.kernels["add_one"] = {2, [](const std::vector<uint64_t> &args) {
                                for (int i = 0; i < 4; ++i)
                                  floats(args[1])[i] = floats(args[0])[i] + 1;
                              }};
}

inline HostTensor tensor(std::vector<float> values) {
  HostTensor t;
  t.shape = {int64_t(values.size())};
  t.data.resize(values.size() * 4);
  std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

inline std::vector<float> values(const HostTensor &t) {
  std::vector<float> out(t.data.size() / 4);
  std::memcpy(out.data(), t.data.data(), t.data.size());
  return out;
}

class CudaRuntimeTest : public ::testing::Test {
protected:
  void SetUp() override {
    setenv("KILN_CUDA_DRIVER", KILN_FAKE_CUDA_DRIVER, 1);
    unsetenv("KILN_CUDA_GRAPHS");
    fake().reset();
    registerKernels();
  }
  void TearDown() override { unsetenv("KILN_CUDA_DRIVER"); }

  std::unique_ptr<CudaExecutable> load(Artifact artifact = cudaSampleArtifact(),
                                       CudaLoadOptions options = {}) {
    auto executable =
        CudaExecutable::load(std::move(artifact), "sample.kiln", options);
    EXPECT_TRUE(executable.isOk()) << executable.status().toString();
    return executable.isOk() ? std::move(*executable) : nullptr;
  }
};

} // namespace kiln::rt::test

#endif // KILN_TEST_UNIT_RUNTIME_CUDARUNTIMEFIXTURE_H

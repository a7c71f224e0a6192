//===- FakeCudaDriver.h - A CUDA driver on host memory, for tests -*- C++ -*-//
//
// SPDX-License-Identifier: Apache-2.0
//
// libkiln_fake_cuda.so exports the driver entry points the runtime uses
// (runtime/src/cuda/CudaApi.h) implemented on host memory: device pointers
// are host pointers, copies are memcpy, launches run a test-registered host
// function and are recorded, stream capture records launches into a graph
// that cuGraphLaunch replays. Tests point KILN_CUDA_DRIVER at it and read
// and steer it through kilnFakeCudaState(). libkiln_fake_cuda_12_4.so is
// the same driver built as CUDA 12.4's: without the entry points added
// since (cuEventElapsedTime_v2).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TEST_UNIT_RUNTIME_FAKECUDADRIVER_H
#define KILN_TEST_UNIT_RUNTIME_FAKECUDADRIVER_H

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

struct FakeLaunch {
  std::string kernel;
  unsigned grid[3];
  unsigned block[3];
  unsigned sharedBytes;
  std::vector<uint64_t> args; ///< The pointer parameters.
  bool fromGraph;             ///< Replayed by cuGraphLaunch.
  /// Library work (the fake cuBLASLt's GEMMs) instead of a kernel body.
  std::function<void()> hostWork = nullptr;
};

/// A kernel the fake can run: its parameter count (the driver API does not
/// say) and a body on the host pointers.
struct FakeKernel {
  size_t arity = 0;
  std::function<void(const std::vector<uint64_t> &)> body;
};

struct FakeCudaState {
  // The device and driver.
  int deviceCount = 1; ///< $KILN_FAKE_CUDA_DEVICES overrides it.
  int major = 9, minor = 0;
  /// What cuDriverGetVersion reports; 0: the version the fake was built
  /// as (13000, or 12040 for libkiln_fake_cuda_12_4.so).
  int driverVersion = 0;
  std::string name = "Fake GPU";
  uint64_t totalMemory = 80ull << 30;
  int maxSharedOptin = 227 * 1024;
  /// What cuFuncGetAttribute reports for every kernel.
  int kernelMaxThreads = 1024, kernelRegisters = 32, kernelStaticShared = 0;

  // What the runtime did.
  std::vector<std::string>
      loadedImages;                 ///< PTX text, or CUBIN after "\x7fELF".
  std::vector<FakeLaunch> launches; ///< Executed launches, in order.
  int captures = 0, instantiations = 0, graphLaunches = 0;
  int liveAllocations = 0, liveModules = 0, liveStreams = 0, liveGraphs = 0;
  uint64_t allocatedBytes = 0; ///< Of the last cuMemAlloc.
  int primaryRetains = 0, primaryReleases = 0;
  /// Dynamic shared memory each kernel opted in to (cuFuncSetAttribute).
  std::map<std::string, int> sharedOptIns;
  int elapsedTimeCalls = 0, elapsedTimeV2Calls = 0;

  /// Kernels by name; unknown kernels are recorded with no arguments.
  std::map<std::string, FakeKernel> kernels;

  /// With `timedEvents`, events read a clock that each executed launch
  /// advances by `kernelMs` (per kernel name; 1 ms otherwise) and each
  /// cuBLASLt call by `blasLtMs`; without, every elapsed time is 1 ms.
  bool timedEvents = false;
  std::map<std::string, double> kernelMs;
  double blasLtMs = 1.0;
  double clockMs = 0;

  // The fake cuBLASLt (exported by the same library; FakeCublasLt.cpp).
  int blasLtMatmuls = 0;  ///< Executed GEMMs.
  int liveBlasLtHandles = 0, liveBlasLtDescriptors = 0;
  /// cublasLtCreate fails with this status when non-zero.
  int blasLtCreateStatus = 0;

  /// Failure injection: the `failSkip`+1-th call of `failCall` from now
  /// returns `failResult` (once); with `failSticky`, every later call of
  /// any function returns it too, like a real sticky error.
  std::string failCall;
  int failResult = 0;
  int failSkip = 0;
  bool failSticky = false;
  int stickyResult = 0; ///< Set by a sticky failure; a reset clears it.
  std::string jitLog;   ///< Written to the JIT error log on a failed load.
  int calls = 0;        ///< Driver calls so far (error queries excluded).

  void reset() { *this = FakeCudaState(); }
};

extern "C" FakeCudaState *kilnFakeCudaState();

/// Queues `work` on `stream` as a launch named `name`: run now, or recorded
/// into the graph a capture is building (what a library call on a stream
/// does on a GPU).
void fakeEnqueue(void *stream, const std::string &name,
                 std::function<void()> work);

/// NCCL operations enqueued on `stream` that have not completed (the fake
/// NCCL's, FakeNccl.cpp): cuStreamQuery reports the stream busy while
/// there are any.
int fakeNcclPendingOn(void *stream);

#endif // KILN_TEST_UNIT_RUNTIME_FAKECUDADRIVER_H

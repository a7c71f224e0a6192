//===- HostCompile.h - Build and load the kernels for the host --*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Turns CUDA C++ into a host shared library: CudaHostShim.h + the source +
// one entry point per kernel, compiled with clang as NVRTC would optimise
// it (FMA contraction) and instrumented so that every __shared__ access
// reaches the tool.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_CUDA_EMULATE_HOSTCOMPILE_H
#define KILN_TOOLS_KILN_CUDA_EMULATE_HOSTCOMPILE_H

#include "BlockRunner.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace kiln::emu {

/// A kernel to expose: its name and how many pointer arguments it takes.
struct KernelDecl {
  std::string name;
  size_t params;
};

/// The host translation unit: the shim, `source` (its lines numbered as
/// in the CUDA source) and one KernelEntry `kiln_emu_call_<name>` per
/// kernel.
std::string hostSource(llvm::StringRef source,
                       llvm::ArrayRef<KernelDecl> kernels);

/// Compiles `source` into `dir`/kernels.so with `compiler` (empty: $KILN_
/// EMU_CXX, else clang++-22). Empty on success, else why (the compiler's
/// log has been printed).
std::string compileHost(const std::string &dir, const std::string &source,
                        const std::string &compiler);

/// Options every subcommand shares.
struct EmulationOptions {
  std::string hostCompiler;
  bool keepTemps = false;
  /// Run every kernel's threads as fibers, not only those that synchronise.
  bool allThreaded = false;
  uint64_t seed = 1;
  unsigned schedules = 2;
  bool checkShared = true;
};

/// Exit code of a defect the emulator caught in a kernel or its launch.
constexpr int kKernelDefectExit = 6;

/// A temporary folder, removed at the end unless kept (then named).
class TempDir {
public:
  /// Empty on success, else why.
  std::string create();
  ~TempDir();
  void keep() { keep_ = true; }
  const std::string &path() const { return path_; }

private:
  std::string path_;
  bool keep_ = false;
};

/// Whether threads of a block talk to each other in `source` (else they
/// can run one after another).
bool needsThreads(llvm::StringRef source);

/// A loaded kernels.so, attached to the runner.
struct HostLibrary {
  void *handle = nullptr;
  Library runnerView{};
  /// Empty on success, else why. Attaches it.
  std::string load(const std::string &dir);
  /// Makes it the library the runner launches from again (after another
  /// was loaded: one per rank of a sharded model).
  void attachAgain() const { attach(runnerView); }
  /// The entry point of `kernel`, or null.
  KernelEntry entry(const std::string &kernel) const;
};

} // namespace kiln::emu

#endif // KILN_TOOLS_KILN_CUDA_EMULATE_HOSTCOMPILE_H

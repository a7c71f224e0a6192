//===- CudaArtifact.h - Ahead-of-time CUDA artifacts --------------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Compiles a model's generated CUDA C++ with NVRTC, for every architecture
// the target names, into CUBIN (sm_XX: loads without JIT on exactly that
// GPU) and the PTX it was assembled from (any newer GPU can JIT it; one
// NVRTC run gives both), and wraps the
// modules, the launch program and the constants into a .kiln artifact.
// Kernels are split into several NVRTC programs compiled in parallel, each
// through the on-disk KernelCache.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TARGET_CUDAARTIFACT_H
#define KILN_COMPILER_TARGET_CUDAARTIFACT_H

#include "compiler/MemoryPlanning/EntrySignature.h"
#include "compiler/Codegen/CUDA/CudaCodegen.h"
#include "kiln/runtime/Artifact.h"

#include <string>
#include <vector>

namespace kiln::compiler {

/// `cuda` (sm_80 and sm_90), `cuda:sm_90`, `cuda:sm_80,sm_90`, ...
struct CudaTarget {
  std::vector<unsigned> archs;

  static bool isCuda(const std::string &target);
  /// kInvalidArgument for an unknown spelling or architecture.
  static rt::StatusOr<CudaTarget> parse(const std::string &target);
  /// The artifact's target text, e.g. "cuda sm_80,sm_90".
  std::string describe() const;
};

/// How the NVRTC step went (for --stats-json and tests).
struct CudaBuildStats {
  unsigned programs = 0;  ///< NVRTC programs x architectures.
  unsigned compiled = 0;  ///< NVRTC runs.
  unsigned cacheHits = 0; ///< Programs read from the kernel cache.
};

rt::StatusOr<rt::Artifact> buildCudaArtifact(const cuda::CudaProgram &program,
                                             const EntrySignature &signature,
                                             const CudaTarget &target,
                                             CudaBuildStats *stats = nullptr);

/// All kernels as one PTX module for `arch` (what --emit=ptx prints).
rt::StatusOr<std::string> compileCudaToPtx(const cuda::CudaProgram &program,
                                           unsigned arch);

} // namespace kiln::compiler

#endif // KILN_COMPILER_TARGET_CUDAARTIFACT_H

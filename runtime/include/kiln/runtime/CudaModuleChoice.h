//===- CudaModuleChoice.h - Which CUDA module serves a kernel ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A CUDA artifact carries each kernel as PTX (portable: the driver JIT-
// compiles it for any newer GPU) and usually as CUBIN for the real
// architectures the target names. The runtime takes, per kernel, the
// CUBIN built for exactly this GPU, else the newest PTX it can JIT; when
// a module fails to load it tries the next candidate.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_CUDAMODULECHOICE_H
#define KILN_RUNTIME_CUDAMODULECHOICE_H

#include "kiln/runtime/Artifact.h"
#include "kiln/runtime/Status.h"

#include <string>
#include <vector>

namespace kiln::rt {

/// For each kernel of `kernels` (in order), the indices into `modules` of
/// the modules that can serve it on a GPU of compute capability `sm`
/// (major * 10 + minor), best first: a CUBIN with arch == sm, then the
/// PTX modules with arch <= sm, newest first. kUnimplemented naming the
/// kernel, the GPU and what the artifact has when there is none.
StatusOr<std::vector<std::vector<size_t>>>
rankCudaModules(const std::vector<CudaModule> &modules,
                const std::vector<std::string> &kernels, int sm);

/// The first choice of rankCudaModules for each kernel.
StatusOr<std::vector<size_t>>
chooseCudaModules(const std::vector<CudaModule> &modules,
                  const std::vector<std::string> &kernels, int sm);

/// "sm_90 CUBIN" or "compute_80 PTX (JIT)".
std::string describeCudaModule(const CudaModule &module);

} // namespace kiln::rt

#endif // KILN_RUNTIME_CUDAMODULECHOICE_H

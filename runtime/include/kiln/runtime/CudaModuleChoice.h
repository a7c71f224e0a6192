//===- CudaModuleChoice.h - Which CUDA module serves a kernel ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A CUDA artifact carries each kernel as PTX (portable: the driver JIT-
// compiles it for any newer GPU) and usually as CUBIN for the real
// architectures the target names. The runtime takes, per kernel, the
// CUBIN built for exactly this GPU, else the newest PTX it can JIT.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_CUDAMODULECHOICE_H
#define KILN_RUNTIME_CUDAMODULECHOICE_H

#include "kiln/runtime/Artifact.h"
#include "kiln/runtime/Status.h"

#include <string>
#include <vector>

namespace kiln::rt {

/// For each kernel of `kernels` (in order), the index into `modules` of the
/// module to load on a GPU of compute capability `sm` (major * 10 + minor):
/// a CUBIN with arch == sm, else the PTX with the highest arch <= sm.
/// kUnimplemented naming the kernel, the GPU and what the artifact has when
/// neither exists.
StatusOr<std::vector<size_t>>
chooseCudaModules(const std::vector<CudaModule> &modules,
                  const std::vector<std::string> &kernels, int sm);

/// "sm_90 CUBIN" or "compute_80 PTX (JIT)".
std::string describeCudaModule(const CudaModule &module);

} // namespace kiln::rt

#endif // KILN_RUNTIME_CUDAMODULECHOICE_H

//===- CudaModuleChoice.cpp - Which CUDA module serves a kernel -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// CUBIN runs only on its exact architecture (sm_90 code does not load on
// sm_80 nor, for the arch-specific features, on sm_100): so an exact match
// or nothing. PTX for compute_XX JIT-compiles for any GPU >= XX; the newest
// such PTX uses the most of this GPU.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/CudaModuleChoice.h"

#include <algorithm>

namespace kiln::rt {

std::string describeCudaModule(const CudaModule &module) {
  return module.format == CudaModule::Format::kCubin
             ? "sm_" + std::to_string(module.arch) + " CUBIN"
             : "compute_" + std::to_string(module.arch) + " PTX (JIT)";
}

StatusOr<std::vector<size_t>>
chooseCudaModules(const std::vector<CudaModule> &modules,
                  const std::vector<std::string> &kernels, int sm) {
  std::vector<size_t> chosen;
  for (const std::string &kernel : kernels) {
    const size_t kNone = modules.size();
    size_t cubin = kNone, ptx = kNone;
    std::vector<std::string> available;
    for (size_t m = 0; m < modules.size(); ++m) {
      const CudaModule &module = modules[m];
      if (std::find(module.kernels.begin(), module.kernels.end(), kernel) ==
          module.kernels.end())
        continue;
      available.push_back(describeCudaModule(module));
      bool isCubin = module.format == CudaModule::Format::kCubin;
      if (isCubin && int(module.arch) == sm && cubin == kNone)
        cubin = m;
      if (!isCubin && int(module.arch) <= sm &&
          (ptx == kNone || module.arch > modules[ptx].arch))
        ptx = m;
    }
    if (cubin != kNone || ptx != kNone) {
      chosen.push_back(cubin != kNone ? cubin : ptx);
      continue;
    }
    std::string has;
    for (const std::string &a : available)
      has += (has.empty() ? "" : ", ") + a;
    return unimplemented(
        "kernel '" + kernel + "' has no code for this GPU (sm_" +
        std::to_string(sm) + "): the artifact has " +
        (has.empty() ? std::string("none") : has) +
        "; recompile with --target cuda sm_" + std::to_string(sm));
  }
  return chosen;
}

} // namespace kiln::rt

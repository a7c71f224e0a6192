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

StatusOr<std::vector<std::vector<size_t>>>
rankCudaModules(const std::vector<CudaModule> &modules,
                const std::vector<std::string> &kernels, int sm) {
  std::vector<std::vector<size_t>> ranked;
  for (const std::string &kernel : kernels) {
    std::vector<size_t> cubins, ptxs;
    std::vector<std::string> available;
    for (size_t m = 0; m < modules.size(); ++m) {
      const CudaModule &module = modules[m];
      if (std::find(module.kernels.begin(), module.kernels.end(), kernel) ==
          module.kernels.end())
        continue;
      available.push_back(describeCudaModule(module));
      bool isCubin = module.format == CudaModule::Format::kCubin;
      if (isCubin && int(module.arch) == sm)
        cubins.push_back(m);
      if (!isCubin && int(module.arch) <= sm)
        ptxs.push_back(m);
    }
    // Newest PTX first; equal archs keep the artifact's order. (Not
    // stable_sort: libstdc++ 12's uses a deprecated buffer API.)
    std::sort(ptxs.begin(), ptxs.end(), [&](size_t a, size_t b) {
      return modules[a].arch != modules[b].arch
                 ? modules[a].arch > modules[b].arch
                 : a < b;
    });
    cubins.insert(cubins.end(), ptxs.begin(), ptxs.end());
    if (!cubins.empty()) {
      ranked.push_back(std::move(cubins));
      continue;
    }
    std::string has;
    for (const std::string &a : available)
      has += (has.empty() ? "" : ", ") + a;
    return unimplemented(
        "kernel '" + kernel + "' has no code for this GPU (sm_" +
        std::to_string(sm) + "): the artifact has " +
        (has.empty() ? std::string("none") : has) +
        "; recompile with --target cuda:sm_" + std::to_string(sm));
  }
  return ranked;
}

StatusOr<std::vector<size_t>>
chooseCudaModules(const std::vector<CudaModule> &modules,
                  const std::vector<std::string> &kernels, int sm) {
  auto ranked = rankCudaModules(modules, kernels, sm);
  if (!ranked.isOk())
    return ranked.status();
  std::vector<size_t> chosen;
  for (const std::vector<size_t> &candidates : *ranked)
    chosen.push_back(candidates.front());
  return chosen;
}

} // namespace kiln::rt

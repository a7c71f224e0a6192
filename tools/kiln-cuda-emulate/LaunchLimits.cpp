//===- LaunchLimits.cpp - CUDA's launch limits and __launch_bounds__ ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "LaunchLimits.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Regex.h"

namespace kiln::emu {

llvm::StringMap<unsigned> readLaunchBounds(llvm::StringRef source) {
  llvm::StringMap<unsigned> bounds;
  // `__launch_bounds__(256) name(` or `__launch_bounds__(256, 2) name(`.
  llvm::Regex pattern("__launch_bounds__[ \t]*\\([ \t]*([0-9]+)[^)]*\\)[ "
                      "\t\n]*([A-Za-z_][A-Za-z0-9_]*)[ \t\n]*\\(");
  llvm::SmallVector<llvm::StringRef, 3> match;
  llvm::StringRef rest = source;
  while (pattern.match(rest, &match)) {
    unsigned bound = 0;
    if (!match[1].getAsInteger(10, bound))
      bounds[match[2]] = bound;
    rest = rest.substr(match[0].data() - rest.data() + match[0].size());
  }
  return bounds;
}

std::string checkLaunch(llvm::StringRef kernel, const uint32_t grid[3],
                        const uint32_t block[3],
                        std::optional<unsigned> launchBound) {
  auto dims = [](const uint32_t *v) {
    return "(" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," +
           std::to_string(v[2]) + ")";
  };
  std::string prefix = "kernel " + kernel.str() + ": ";
  // Limits of every GPU since sm_30, sm_80 and sm_90 included.
  constexpr uint32_t kBlockLimit[3] = {1024, 1024, 64};
  constexpr uint32_t kGridLimit[3] = {2147483647u, 65535, 65535};
  uint64_t threads = uint64_t(block[0]) * block[1] * block[2];
  for (int d = 0; d < 3; ++d) {
    if (block[d] > kBlockLimit[d])
      return prefix + "block " + dims(block) + " exceeds CUDA's limit of " +
             dims(kBlockLimit) + " threads per dimension";
    if (grid[d] > kGridLimit[d])
      return prefix + "grid " + dims(grid) + " exceeds CUDA's limit of " +
             dims(kGridLimit) + " blocks per dimension";
  }
  if (threads > 1024)
    return prefix + "block " + dims(block) + " has " + std::to_string(threads) +
           " threads, more than CUDA's 1024 per block";
  if (launchBound && threads > *launchBound)
    return prefix + "block " + dims(block) + " has " + std::to_string(threads) +
           " threads, more than its " + "__launch_bounds__(" +
           std::to_string(*launchBound) +
           ") (a GPU refuses the launch: too many resources requested)";
  return "";
}

std::string checkLaunch(llvm::StringRef kernel, const uint32_t grid[3],
                        const uint32_t block[3],
                        const llvm::StringMap<unsigned> &launchBounds) {
  auto bound = launchBounds.find(kernel);
  return checkLaunch(kernel, grid, block,
                     bound == launchBounds.end()
                         ? std::nullopt
                         : std::optional<unsigned>(bound->second));
}

} // namespace kiln::emu

//===- PipelineExtensions.h - Passes added at named points ------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The driver's pipeline has named points (kiln/PassPlugin.h) where extra
// passes run: pass plugins fill this, the driver consults it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_PIPELINES_PIPELINEEXTENSIONS_H
#define KILN_COMPILER_PIPELINES_PIPELINEEXTENSIONS_H

#include "kiln/PassPlugin.h"

#include <array>
#include <functional>
#include <vector>

namespace kiln::compiler {

/// Pass-pipeline builders per point. Value type; thread-compatible.
class PipelineExtensions {
public:
  using Builder = std::function<void(mlir::OpPassManager &)>;

  void add(PipelinePoint point, Builder build) {
    builders_[index(point)].push_back(std::move(build));
  }
  bool has(PipelinePoint point) const {
    return !builders_[index(point)].empty();
  }
  /// Adds all of `other`'s builders after this one's.
  void append(const PipelineExtensions &other) {
    for (size_t i = 0; i < builders_.size(); ++i)
      builders_[i].insert(builders_[i].end(), other.builders_[i].begin(),
                          other.builders_[i].end());
  }
  /// Appends every builder's passes for `point` to `pm`.
  void build(PipelinePoint point, mlir::OpPassManager &pm) const {
    for (const Builder &build : builders_[index(point)])
      build(pm);
  }

private:
  static size_t index(PipelinePoint point) { return size_t(point); }
  std::array<std::vector<Builder>, kNumPipelinePoints> builders_;
};

} // namespace kiln::compiler

#endif // KILN_COMPILER_PIPELINES_PIPELINEEXTENSIONS_H

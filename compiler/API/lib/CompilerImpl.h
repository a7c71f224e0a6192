//===- CompilerImpl.h - What a kiln::Compiler holds -------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Shared by Compiler.cpp and JitModel.cpp: a JIT compiles with its own
// specialisation of the compiler's options and needs to know where an ONNX
// import stopped, which a Status does not carry.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_API_COMPILERIMPL_H
#define KILN_COMPILER_API_COMPILERIMPL_H

#include "ParallelOptions.h"
#include "compiler/Driver/Driver.h"
#include "compiler/Pipelines/PipelineExtensions.h"
#include "kiln/kiln.h"

namespace kiln {

class Compiler::Impl {
public:
  compiler::PipelineOptions pipeline(const CompileOptions &options,
                                     mlir::TimingScope *timing = nullptr) const;

  /// Compiles `source` with `options` (this compiler's own, or a JIT's
  /// specialisation of them) using this compiler's plugins. When loading
  /// the model fails, `*loadError` (if given) receives the driver's error,
  /// with what the ONNX importer learnt about the model's inputs.
  StatusOr<std::unique_ptr<Executable>>
  compile(const ModelSource &source, const CompileOptions &options,
          compiler::DriverError *loadError = nullptr) const;

  CompileOptions options;
  ParallelPlan parallel;
  compiler::PipelineExtensions extensions;
};

} // namespace kiln

#endif // KILN_COMPILER_API_COMPILERIMPL_H

//===- Passes.h - Graph-level rewrites --------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_GRAPHTRANSFORMS_PASSES_H
#define KILN_COMPILER_GRAPHTRANSFORMS_PASSES_H

#include "dialects/Graph/IR/GraphDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace kiln::compiler {

#define GEN_PASS_DECL
#include "compiler/GraphTransforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/GraphTransforms/Passes.h.inc"

} // namespace kiln::compiler

#endif // KILN_COMPILER_GRAPHTRANSFORMS_PASSES_H

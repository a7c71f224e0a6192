//===- Passes.td - CPU code generation passes ---------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CPU_PASSES_TD
#define KILN_COMPILER_CODEGEN_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerMemRefCopyPass : Pass<"kiln-lower-memref-copy", "::mlir::ModuleOp"> {
  let summary = "Turn memref.copy into linalg.copy so that it becomes loops";
  let description = [{
    Bufferisation and buffer-results-to-out-params copy buffers with
    `memref.copy`. Between strided buffers (a slice or an inner-axis
    concatenation) upstream lowers that op to a call into MLIR's runner
    library (`memrefCopy`), which neither the JIT nor `.kiln` kernels link.
    As `linalg.copy` it is lowered to plain loops like every other kernel.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

#endif // KILN_COMPILER_CODEGEN_CPU_PASSES_TD

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

def AllocateInArenaPass : Pass<"kiln-allocate-in-arena", "::mlir::ModuleOp"> {
  let summary = "Place every intermediate buffer in one arena the caller owns";
  let description = [{
    Replaces each statically shaped `memref.alloc` of a public function with
    a `memref.view` into a new trailing argument, the arena (`memref<Nxi8>`),
    at a 64-byte aligned offset, and records N as the module attribute
    `kiln.arena_bytes`. Kernels then never allocate: the runtime allocates
    the arena once per executable and reuses it for every run.

    Buffers are placed one after another (no reuse yet); memory planning
    will assign overlapping offsets to buffers whose lifetimes do not
    overlap. Runs after bufferisation and before buffer deallocation (views
    of an argument are not deallocated).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // KILN_COMPILER_CODEGEN_CPU_PASSES_TD

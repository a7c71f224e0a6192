//===- Passes.td - Graph-level rewrites ---------------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_GRAPHTRANSFORMS_PASSES_TD
#define KILN_COMPILER_GRAPHTRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerUnsignedPass : Pass<"kiln-lower-unsigned", "::mlir::ModuleOp"> {
  let summary = "Rewrite unsigned integer tensors into signless ones";
  let description = [{
    The importer keeps ONNX's unsigned element types (`ui8` to `ui64`), so
    that constants fold with the right values and the model's inputs and
    outputs keep their dtypes. Everything after the graph level (linalg,
    arith, the CPU and CUDA code generators) works on signless integers;
    this pass is the boundary. Every unsigned value becomes the signless
    integer of its width, the same bits, and the ops whose meaning depends
    on the sign are rewritten so that they still compute the unsigned
    result:

    * order (`compare` lt/le/gt/ge, `min`, `max`, `clip`, `reduce_max`,
      `reduce_min`, `argmax`, `argmin`, `max_pool2d`, `global_max_pool`):
      on the values with their top bit flipped (adding the most negative
      value), which orders them as signed integers the way they order as
      unsigned ones, and flipped back;
    * `div` and `rem`: below 64 bits, on the values zero-extended to i64;
      for 64 bits, from signed divisions of the halved dividend;
    * `cast` from an unsigned type: zero-extension (to wider integers, and
      through i64 to floats); to `ui64` from floats: values from 2^63 on
      are shifted into the signed range first;
    * `abs` and `relu` are the identity and `sign` is `x != 0`.

    Add, sub, mul, neg, the reductions that sum or multiply, and every
    shape op already give the same bits. Ops that only take floats never
    see unsigned values. An unsigned op this pass does not know is
    reported at the op.
  }];
  let dependentDialects = ["::kiln::KilnDialect", "::mlir::func::FuncDialect"];
}

#endif // KILN_COMPILER_GRAPHTRANSFORMS_PASSES_TD

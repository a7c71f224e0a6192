//===- Passes.td - Contract-checking passes -----------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Each stage boundary of the Kiln pipeline has a contract (what IR may look
// like there). These passes check them, so a stage that breaks its contract
// fails loudly at the boundary rather than confusingly later.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CONTRACTS_PASSES_TD
#define KILN_COMPILER_CONTRACTS_PASSES_TD

include "mlir/Pass/PassBase.td"

def VerifyGraphContractPass
    : Pass<"kiln-verify-graph-contract", "::mlir::ModuleOp"> {
  let summary = "Check that a module is valid input for the Kiln compiler";
  let description = [{
    The graph contract, which every frontend must meet and which fusion,
    quantisation and sharding start from:

    * only `kiln` and `func` ops inside the `builtin.module` (no other
      builtin ops such as `unrealized_conversion_cast`);
    * every value a ranked, statically shaped tensor of a supported element
      type (symbolic dimensions must have been specialised);
    * every function has a body.

    Each violation is reported at its op; the pass fails if there is any.
  }];
  let dependentDialects = ["::kiln::KilnDialect", "::mlir::func::FuncDialect"];
}

#endif // KILN_COMPILER_CONTRACTS_PASSES_TD

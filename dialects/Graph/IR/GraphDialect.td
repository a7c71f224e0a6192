//===- GraphDialect.td - The kiln graph dialect definition -*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_GRAPH_IR_GRAPHDIALECT_TD
#define KILN_DIALECTS_GRAPH_IR_GRAPHDIALECT_TD

include "mlir/IR/DialectBase.td"

def Kiln_Dialect : Dialect {
  let name = "kiln";
  let cppNamespace = "::kiln";
  let summary = "Kiln's tensor-level dataflow graph dialect";
  let description = [{
    The `kiln` dialect is the graph level of the Kiln compiler: value-semantic,
    statically shaped tensor operations that model what PyTorch/ONNX models
    compute (elementwise math, contractions, convolutions, reductions,
    normalisations and shape manipulation), plus a `kiln.fusion` region op that
    later passes use to group ops into one kernel.

    Shape rules live in one place (`TypeInference.cpp`) and are used both by
    the verifiers and by the builders (through `InferTypeOpInterface`), so an op
    built by the importer and an op parsed from text are checked identically.
  }];
  let hasConstantMaterializer = 1;
  let usePropertiesForAttributes = 1;
  let useDefaultAttributePrinterParser = 1;
  // `kiln.shard` annotations on ops and function arguments.
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
  }];
}

#endif // KILN_DIALECTS_GRAPH_IR_GRAPHDIALECT_TD

//===- GraphEnums.td - Enumerations of the kiln dialect -----*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_GRAPH_IR_GRAPHENUMS_TD
#define KILN_DIALECTS_GRAPH_IR_GRAPHENUMS_TD

include "mlir/IR/EnumAttr.td"

def Kiln_ComparePredicate : I32EnumAttr<"ComparePredicate",
    "comparison predicate", [
      I32EnumAttrCase<"eq", 0>, I32EnumAttrCase<"ne", 1>,
      I32EnumAttrCase<"lt", 2>, I32EnumAttrCase<"le", 3>,
      I32EnumAttrCase<"gt", 4>, I32EnumAttrCase<"ge", 5>]> {
  let cppNamespace = "::kiln";
}

def Kiln_GeluApproximation : I32EnumAttr<"GeluApproximation",
    "how GELU is computed", [
      I32EnumAttrCase<"none", 0>, I32EnumAttrCase<"tanh", 1>]> {
  let cppNamespace = "::kiln";
}

def Kiln_PadMode : I32EnumAttr<"PadMode", "how padding values are chosen", [
      I32EnumAttrCase<"constant", 0>, I32EnumAttrCase<"reflect", 1>,
      I32EnumAttrCase<"edge", 2>]> {
  let cppNamespace = "::kiln";
}

def Kiln_CollectiveReduction : I32EnumAttr<"CollectiveReduction",
    "how an all-reduce combines the ranks' elements", [
      I32EnumAttrCase<"sum", 1>, I32EnumAttrCase<"max", 2>,
      I32EnumAttrCase<"min", 3>, I32EnumAttrCase<"prod", 4>]> {
  let cppNamespace = "::kiln";
}

def Kiln_ShardingKind : I32EnumAttr<"ShardingKind",
    "how a value is laid out over the ranks", [
      I32EnumAttrCase<"replicated", 0>, I32EnumAttrCase<"split", 1>,
      I32EnumAttrCase<"partial", 2>]> {
  let cppNamespace = "::kiln";
}

#endif // KILN_DIALECTS_GRAPH_IR_GRAPHENUMS_TD

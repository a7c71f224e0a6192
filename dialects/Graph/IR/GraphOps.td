//===- GraphOps.td - All ops of the kiln dialect ------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The op families live in their own files; this one only gathers them so that
// one ODS invocation generates the op classes.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_GRAPH_IR_GRAPHOPS_TD
#define KILN_DIALECTS_GRAPH_IR_GRAPHOPS_TD

include "dialects/Graph/IR/GraphElementwiseOps.td"
include "dialects/Graph/IR/GraphContractionOps.td"
include "dialects/Graph/IR/GraphNNOps.td"
include "dialects/Graph/IR/GraphReductionOps.td"
include "dialects/Graph/IR/GraphShapeOps.td"
include "dialects/Graph/IR/GraphStructureOps.td"
include "dialects/Graph/IR/GraphCollectiveOps.td"

#endif // KILN_DIALECTS_GRAPH_IR_GRAPHOPS_TD

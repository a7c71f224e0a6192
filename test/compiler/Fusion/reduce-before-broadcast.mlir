// kiln-fuse-group-loops: a contraction with a splat operand folds it into
// its body and then reads nothing along its output columns; it reduces once
// per row and broadcasts the row (the epilogue fused into the broadcast),
// instead of recomputing the same sum for every column.
// RUN: kiln-opt %s --split-input-file --kiln-convert-graph-to-linalg --kiln-fuse-group-loops | FileCheck %s

// CHECK-LABEL: func.func @splat_weights
// CHECK: %[[INIT:.*]] = linalg.fill {{.*}} -> tensor<4xf32>
// CHECK: %[[ROWS:.*]] = linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction"]
// CHECK-SAME: ins(%{{.*}} : tensor<4x16xf32>) outs(%[[INIT]] : tensor<4xf32>)
// CHECK-SAME: kiln.group = "fusion#0 (contraction)"
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel"]
// CHECK-SAME: ins(%[[ROWS]] : tensor<4xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK-SAME: kiln.group = "fusion#0 (contraction)"
// CHECK: arith.maximumf
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @splat_weights(%x: tensor<4x16xf32>) -> tensor<4x8xf32> {
  %0 = kiln.fusion ins(%x : tensor<4x16xf32>) attributes {kind = "contraction"} -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x16xf32>):
    %w = kiln.constant dense<0.25> : tensor<8x16xf32>
    %b = kiln.constant dense<0.5> : tensor<8xf32>
    %1 = kiln.gemm %a, %w, %b {trans_b} : (tensor<4x16xf32>, tensor<8x16xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %2 = kiln.relu %1 : tensor<4x8xf32>
    kiln.yield %2 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

// Weights that vary along the columns: the columns are read, nothing to do.
// CHECK-LABEL: func.func @dense_weights
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-NOT: tensor<4xf32>
// CHECK: return
func.func @dense_weights(%x: tensor<4x2xf32>) -> tensor<4x3xf32> {
  %0 = kiln.fusion ins(%x : tensor<4x2xf32>) attributes {kind = "contraction"} -> tensor<4x3xf32> {
  ^bb0(%a: tensor<4x2xf32>):
    %w = kiln.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
    %b = kiln.constant dense<0.5> : tensor<3xf32>
    %1 = kiln.gemm %a, %w, %b {trans_b} : (tensor<4x2xf32>, tensor<3x2xf32>, tensor<3xf32>) -> tensor<4x3xf32>
    %2 = kiln.relu %1 : tensor<4x3xf32>
    kiln.yield %2 : tensor<4x3xf32>
  }
  return %0 : tensor<4x3xf32>
}

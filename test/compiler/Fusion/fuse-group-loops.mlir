// kiln-fuse-group-loops: inside a lowered group, elementwise producers are
// fused into their consumers; what must stay apart stays apart (@no_), and
// every op left carries the group's name.
// RUN: kiln-opt %s --split-input-file --kiln-convert-graph-to-linalg --kiln-fuse-group-loops | FileCheck %s

// A chain with a broadcast operand: one loop nest, no intermediate tensor.
// CHECK-LABEL: func.func @chain
// CHECK-NOT: kiln.fusion
// CHECK: linalg.generic
// CHECK-SAME: kiln.group = "fusion#0 (elementwise)"
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK: arith.mulf
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @chain(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = kiln.fusion ins(%x, %b : tensor<4x8xf32>, tensor<8xf32>) attributes {kind = "elementwise"} -> tensor<4x8xf32> {
  ^bb0(%a0: tensor<4x8xf32>, %a1: tensor<8xf32>):
    %1 = kiln.add %a0, %a1 : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %2 = kiln.relu %1 : tensor<4x8xf32>
    %3 = kiln.mul %2, %2 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    kiln.yield %3 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

// An elementwise prologue joins the reduction's loop nest.
// CHECK-LABEL: func.func @reduction_prologue
// CHECK: linalg.fill
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction"]
// CHECK: math.exp
// CHECK: arith.addf
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @reduction_prologue(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %0 = kiln.fusion ins(%x : tensor<4x8xf32>) attributes {kind = "reduction"} -> tensor<4x1xf32> {
  ^bb0(%a0: tensor<4x8xf32>):
    %1 = kiln.exp %a0 : tensor<4x8xf32>
    %2 = kiln.reduce_sum %1 axes [1] keep_dims : tensor<4x8xf32> -> tensor<4x1xf32>
    kiln.yield %2 : tensor<4x1xf32>
  }
  return %0 : tensor<4x1xf32>
}

// -----

// A producer with two users is computed once, not fused into both.
// CHECK-LABEL: func.func @no_fuse_multi_use
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: linalg.generic
// CHECK: arith.negf
// CHECK: linalg.generic
// CHECK: math.absf
func.func @no_fuse_multi_use(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0:2 = kiln.fusion ins(%x : tensor<16xf32>) attributes {kind = "elementwise"} -> tensor<16xf32>, tensor<16xf32> {
  ^bb0(%a0: tensor<16xf32>):
    %1 = kiln.exp %a0 : tensor<16xf32>
    %2 = kiln.neg %1 : tensor<16xf32>
    %3 = kiln.abs %1 : tensor<16xf32>
    kiln.yield %2, %3 : tensor<16xf32>, tensor<16xf32>
  }
  return %0#0, %0#1 : tensor<16xf32>, tensor<16xf32>
}

// -----

// A contraction keeps its epilogue as a second loop nest of the group
// (kiln-form-kernels pairs them on buffers).
// CHECK-LABEL: func.func @no_fuse_contraction_epilogue
// CHECK: linalg.fill {kiln.group = "fusion#0 (contraction)"}
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME: kiln.group = "fusion#0 (contraction)"
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel"]
// CHECK-SAME: kiln.group = "fusion#0 (contraction)"
// CHECK: arith.maximumf
func.func @no_fuse_contraction_epilogue(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = kiln.fusion ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) attributes {kind = "contraction"} -> tensor<4x16xf32> {
  ^bb0(%a0: tensor<4x8xf32>, %a1: tensor<8x16xf32>):
    %1 = kiln.matmul %a0, %a1 : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
    %2 = kiln.relu %1 : tensor<4x16xf32>
    kiln.yield %2 : tensor<4x16xf32>
  }
  return %0 : tensor<4x16xf32>
}

// -----

// Two groups in two functions get two names.
// CHECK-LABEL: func.func @first
// CHECK: kiln.group = "fusion#0 (elementwise)"
// CHECK-LABEL: func.func @second
// CHECK: kiln.group = "fusion#1 (elementwise)"
func.func @first(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kiln.fusion ins(%x : tensor<4xf32>) attributes {kind = "elementwise"} -> tensor<4xf32> {
  ^bb0(%a0: tensor<4xf32>):
    %1 = kiln.exp %a0 : tensor<4xf32>
    %2 = kiln.neg %1 : tensor<4xf32>
    kiln.yield %2 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
func.func @second(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kiln.fusion ins(%x : tensor<4xf32>) attributes {kind = "elementwise"} -> tensor<4xf32> {
  ^bb0(%a0: tensor<4xf32>):
    %1 = kiln.exp %a0 : tensor<4xf32>
    %2 = kiln.neg %1 : tensor<4xf32>
    kiln.yield %2 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

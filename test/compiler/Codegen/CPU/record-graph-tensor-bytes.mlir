// RUN: kiln-opt %s --kiln-record-graph-tensor-bytes -split-input-file | FileCheck %s

// The naive allocation of a graph: one buffer per intermediate tensor
// (docs/memory-planning.md, "Figures").

// Tests what counts: %s (32 bytes) and both halves of the split (16 bytes
// each); not the constant, not the reshape (a view), not %t, which reaches
// the result through that reshape.
// CHECK-LABEL: func.func @counted
// CHECK-SAME: attributes {kiln.graph_tensor_bytes = 64 : i64}
func.func @counted(%x: tensor<8xf32>) -> (tensor<2x4xf32>, tensor<4xf32>) {
  %c = kiln.constant dense<1.0> : tensor<8xf32>
  %s = kiln.add %x, %c : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %p:2 = kiln.split %s axis 0 : tensor<8xf32> -> tensor<4xf32>, tensor<4xf32>
  %q = kiln.add %p#0, %p#1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %t = kiln.relu %s : tensor<8xf32>
  %r = kiln.reshape %t : tensor<8xf32> -> tensor<2x4xf32>
  return %r, %q : tensor<2x4xf32>, tensor<4xf32>
}

// -----

// Tests that ops inside a fusion group count as if unfused: %a (24 bytes);
// the group's result is the function's, and so is the value it yields.
// CHECK-LABEL: func.func @fused
// CHECK-SAME: attributes {kiln.graph_tensor_bytes = 24 : i64}
func.func @fused(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %r = kiln.fusion ins(%x : tensor<2x3xf32>) -> tensor<3x2xf32> {
  ^bb0(%v: tensor<2x3xf32>):
    %a = kiln.relu %v : tensor<2x3xf32>
    %b = kiln.transpose %a [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
    kiln.yield %b : tensor<3x2xf32>
  }
  return %r : tensor<3x2xf32>
}

// -----

// Tests that private functions are not annotated, and that a function
// returning its input has no intermediates.
// CHECK-LABEL: func.func @identity
// CHECK-SAME: attributes {kiln.graph_tensor_bytes = 0 : i64}
// CHECK-LABEL: func.func private @helper
// CHECK-NOT: kiln.graph_tensor_bytes
func.func @identity(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = kiln.relu %x : tensor<4xf32>
  return %a : tensor<4xf32>
}

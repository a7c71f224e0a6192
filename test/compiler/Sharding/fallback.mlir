// RUN: kiln-opt %s --kiln-shard='ranks=2 rank=0' --canonicalize | FileCheck %s

// An op without a sharding rule (here a concatenation along the split
// dimension) runs replicated: its split operand is gathered first, so the
// result is the single-device one.

// CHECK: %[[H:.*]] = kiln.matmul %arg0, %{{.*}} : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
// CHECK: %[[G:.*]] = kiln.all_gather %[[H]] axis(1) ranks(2) : tensor<2x4xf32> -> tensor<2x8xf32>
// CHECK: kiln.concat %[[G]], %arg1
// CHECK-SAME: -> tensor<2x10xf32>
func.func @concat(%x: tensor<2x4xf32>, %y: tensor<2x2xf32>) -> tensor<2x10xf32> {
  %w = kiln.constant dense<1.0> : tensor<4x8xf32>
  %h = kiln.matmul %x, %w : (tensor<2x4xf32>, tensor<4x8xf32>) -> tensor<2x8xf32>
  %c = kiln.concat %h, %y axis 1 : (tensor<2x8xf32>, tensor<2x2xf32>) -> tensor<2x10xf32>
  return %c : tensor<2x10xf32>
}

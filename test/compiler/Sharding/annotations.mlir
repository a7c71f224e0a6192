// RUN: kiln-opt %s -split-input-file -verify-diagnostics --kiln-shard='ranks=2 rank=1' --canonicalize | FileCheck %s
// RUN: kiln-opt %s -split-input-file -verify-diagnostics --kiln-shard='ranks=2 rank=1 strategy=data' | FileCheck %s --check-prefix=NONE

// Users' kiln.shard annotations (kilnc --shard) fix a value's layout where
// it is defined, and the rules carry it on: the input split by rows (data
// parallelism under the tensor strategy), the relu constrained to be
// replicated (its rows gathered), the second weight split by columns
// (column parallelism chosen by the user). Annotations are consumed.

// CHECK-LABEL: func.func @mlp
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>) -> tensor<4x6xf32>
// CHECK-NOT: kiln.shard
// CHECK-DAG: %[[W2:.*]] = kiln.constant dense<2.500000e-01> : tensor<6x3xf32>
// CHECK-DAG: %[[W1:.*]] = kiln.constant dense<5.000000e-01> : tensor<8x6xf32>
// CHECK: %[[S:.*]] = kiln.slice %[[X]] starts [2, 0] limits [4, 8]
// CHECK: %[[H:.*]] = kiln.matmul %[[S]], %[[W1]] : (tensor<2x8xf32>, tensor<8x6xf32>) -> tensor<2x6xf32>
// CHECK: %[[R:.*]] = kiln.relu %[[H]] : tensor<2x6xf32>
// CHECK: %[[G:.*]] = kiln.all_gather %[[R]] axis(0) ranks(2) : tensor<2x6xf32> -> tensor<4x6xf32>
// CHECK: %[[Y:.*]] = kiln.matmul %[[G]], %[[W2]] : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
// CHECK: %[[O:.*]] = kiln.all_gather %[[Y]] axis(1) ranks(2) : tensor<4x3xf32> -> tensor<4x6xf32>
// CHECK: return %[[O]]
func.func @mlp(%x: tensor<4x8xf32> {kiln.shard = #kiln.sharding<split 0>}) -> tensor<4x6xf32> {
  %w1 = kiln.constant dense<0.5> : tensor<8x6xf32>
  %h = kiln.matmul %x, %w1 : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %r = kiln.relu %h {kiln.shard = #kiln.sharding<replicated>} : tensor<4x6xf32>
  %w2 = kiln.constant {kiln.shard = #kiln.sharding<split 1>} dense<0.25> : tensor<6x6xf32>
  %y = kiln.matmul %r, %w2 : (tensor<4x6xf32>, tensor<6x6xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// -----

// An input annotated replicated stays whole under data parallelism too.
// CHECK-LABEL: func.func @whole
// CHECK-NOT: kiln.slice
// CHECK-NOT: kiln.all_gather
// NONE-LABEL: func.func @whole
// NONE-NOT: kiln.all_gather
func.func @whole(%x: tensor<4x8xf32> {kiln.shard = #kiln.sharding<replicated>}) -> tensor<4x8xf32> {
  %r = kiln.relu %x : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// A weight annotated replicated is not split by column parallelism.
// CHECK-LABEL: func.func @kept
// NONE-LABEL: func.func @kept
// CHECK: kiln.matmul %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
// CHECK-NOT: kiln.all_gather
func.func @kept(%x: tensor<4x8xf32>) -> tensor<4x6xf32> {
  %w = kiln.constant {kiln.shard = #kiln.sharding<replicated>} dense<0.5> : tensor<8x6xf32>
  %y = kiln.matmul %x, %w : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// -----

// An uneven split is refused where it is asked for.
func.func @uneven(%x: tensor<4x8xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{cannot split dimension 1 of 'tensor<8x5xf32>' over 2 ranks: 5 does not divide evenly}}
  %w = kiln.constant {kiln.shard = #kiln.sharding<split 1>} dense<0.5> : tensor<8x5xf32>
  %y = kiln.matmul %x, %w : (tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  return %y : tensor<4x5xf32>
}

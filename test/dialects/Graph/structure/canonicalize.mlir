// RUN: kiln-opt %s -canonicalize="test-convergence" -split-input-file | FileCheck %s

// kiln.constant folding and uniquing, and folding inside kiln.fusion bodies.

// Equal constants are uniqued, unused ones erased.
// CHECK-LABEL: func.func @constant_uniquing
// CHECK: %[[C:.*]] = kiln.constant dense<[1, 2]> : tensor<2xi64>
// CHECK-NOT: kiln.constant
// CHECK: return %[[C]], %[[C]]
func.func @constant_uniquing() -> (tensor<2xi64>, tensor<2xi64>) {
  %0 = kiln.constant dense<[1, 2]> : tensor<2xi64>
  %1 = kiln.constant dense<[1, 2]> : tensor<2xi64>
  %2 = kiln.constant dense<[3, 4]> : tensor<2xi64>
  return %0, %1 : tensor<2xi64>, tensor<2xi64>
}

// -----

// Same values, different types: not merged.
// CHECK-LABEL: func.func @no_constant_uniquing_across_types
// CHECK-DAG: %[[A:.*]] = kiln.constant dense<1> : tensor<2xi64>
// CHECK-DAG: %[[B:.*]] = kiln.constant dense<1> : tensor<2xi32>
// CHECK-DAG: %[[C:.*]] = kiln.constant dense<1> : tensor<1x2xi64>
// CHECK-DAG: %[[D:.*]] = kiln.constant dense<true> : tensor<2xi1>
// CHECK: return %[[A]], %[[B]], %[[C]], %[[D]]
func.func @no_constant_uniquing_across_types()
    -> (tensor<2xi64>, tensor<2xi32>, tensor<1x2xi64>, tensor<2xi1>) {
  %0 = kiln.constant dense<1> : tensor<2xi64>
  %1 = kiln.constant dense<1> : tensor<2xi32>
  %2 = kiln.constant dense<1> : tensor<1x2xi64>
  %3 = kiln.constant dense<true> : tensor<2xi1>
  return %0, %1, %2, %3 : tensor<2xi64>, tensor<2xi32>, tensor<1x2xi64>, tensor<2xi1>
}

// -----

// Folds inside a fusion body materialise their constants inside the body
// (it is isolated from above), and identities yield the block argument.
// CHECK-LABEL: func.func @fold_inside_fusion
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK: %[[R:.*]]:2 = kiln.fusion ins(%[[X]] : tensor<2x3xf32>) -> tensor<2x3xf32>, tensor<3x2xi32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<2x3xf32>):
// CHECK-NEXT:   %[[C:.*]] = kiln.constant dense<{{\[}}[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>
// CHECK-NEXT:   kiln.yield %[[A]], %[[C]] : tensor<2x3xf32>, tensor<3x2xi32>
// CHECK-NEXT: }
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @fold_inside_fusion(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3x2xi32>) {
  %r:2 = kiln.fusion ins(%x : tensor<2x3xf32>) -> tensor<2x3xf32>, tensor<3x2xi32> {
  ^bb0(%a: tensor<2x3xf32>):
    %t = kiln.transpose %a [0, 1] : tensor<2x3xf32> -> tensor<2x3xf32>
    %c = kiln.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
    %u = kiln.transpose %c [1, 0] : tensor<2x3xi32> -> tensor<3x2xi32>
    kiln.yield %t, %u : tensor<2x3xf32>, tensor<3x2xi32>
  }
  return %r#0, %r#1 : tensor<2x3xf32>, tensor<3x2xi32>
}

// -----

// Patterns apply inside fusion bodies too.
// CHECK-LABEL: func.func @patterns_inside_fusion
// CHECK: kiln.fusion
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<2x3x4xf32>):
// CHECK-NEXT:   %[[R:.*]] = kiln.reshape %[[A]] : tensor<2x3x4xf32> -> tensor<24xf32>
// CHECK-NEXT:   kiln.yield %[[R]] : tensor<24xf32>
func.func @patterns_inside_fusion(%x: tensor<2x3x4xf32>) -> tensor<24xf32> {
  %r = kiln.fusion ins(%x : tensor<2x3x4xf32>) -> tensor<24xf32> {
  ^bb0(%a: tensor<2x3x4xf32>):
    %0 = kiln.reshape %a : tensor<2x3x4xf32> -> tensor<6x4xf32>
    %1 = kiln.reshape %0 : tensor<6x4xf32> -> tensor<24xf32>
    kiln.yield %1 : tensor<24xf32>
  }
  return %r : tensor<24xf32>
}

// -----

// A fusion whose results are unused is dead (its body is pure).
// CHECK-LABEL: func.func @dead_fusion
// CHECK-NOT: kiln.fusion
// CHECK: return
func.func @dead_fusion(%x: tensor<4xf32>) {
  %r = kiln.fusion ins(%x : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %t = kiln.relu %a : tensor<4xf32>
    kiln.yield %t : tensor<4xf32>
  }
  return
}

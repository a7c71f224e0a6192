// RUN: kiln-opt %s -canonicalize -split-input-file | FileCheck %s

// MISSING FOLDS: GraphShapeOps.td says of the data-movement ops "All of them
// constant-fold when their data operands are constants (ONNX exporters emit
// whole shape computations on constants)", but kiln.pad only folds the
// all-zero pad (PadOp::fold) and kiln.split has no folder at all
// (hasFolder is not set). Either they should fold as below or the comment
// should be narrowed.

// CHECK-LABEL: func.func @pad_of_constant
// CHECK-DAG: kiln.constant dense<[0, 1, 2, 0, 0]> : tensor<5xi64>
// CHECK-DAG: kiln.constant dense<[2, 1, 2, 3, 2]> : tensor<5xi64>
// CHECK-DAG: kiln.constant dense<[1, 1, 2, 3, 3, 3]> : tensor<6xi64>
// CHECK-NOT: kiln.pad
func.func @pad_of_constant() -> (tensor<5xi64>, tensor<5xi64>, tensor<6xi64>) {
  %c = kiln.constant dense<[1, 2]> : tensor<2xi64>
  %0 = kiln.pad %c low [1] high [2] constant 0.0 : tensor<2xi64> -> tensor<5xi64>
  %d = kiln.constant dense<[1, 2, 3]> : tensor<3xi64>
  %1 = kiln.pad %d low [1] high [1] reflect 0.0 : tensor<3xi64> -> tensor<5xi64>
  %2 = kiln.pad %d low [1] high [2] edge 0.0 : tensor<3xi64> -> tensor<6xi64>
  return %0, %1, %2 : tensor<5xi64>, tensor<5xi64>, tensor<6xi64>
}

// -----

// CHECK-LABEL: func.func @split_of_constant
// CHECK-DAG: %[[A:.*]] = kiln.constant dense<1> : tensor<1xi64>
// CHECK-DAG: %[[B:.*]] = kiln.constant dense<[2, 3, 4]> : tensor<3xi64>
// CHECK-NOT: kiln.split
// CHECK: return %[[A]], %[[B]]
func.func @split_of_constant() -> (tensor<1xi64>, tensor<3xi64>) {
  %c = kiln.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
  %0:2 = kiln.split %c axis 0 : tensor<4xi64> -> tensor<1xi64>, tensor<3xi64>
  return %0#0, %0#1 : tensor<1xi64>, tensor<3xi64>
}

// RUN: kiln-opt %S/Inputs/matmul-bias-relu.mlir --kiln-fusion-pipeline | FileCheck %s

// Tests that the fusion stage groups the contraction with its epilogue.
// CHECK-LABEL: func.func @mlp
// CHECK:         kiln.fusion {{.*}} attributes {kind = "contraction"}
// CHECK:           kiln.matmul
// CHECK:           kiln.add
// CHECK:           kiln.relu
// CHECK:           kiln.yield

// The README's main job: the MLP example through the clean-up pipeline. The
// computed bias folds into one constant, the model's structure is kept.
// RUN: kiln-opt --kiln-cleanup-pipeline %kiln_src_root/examples/mlp/mlp.mlir | FileCheck %s

// CHECK-LABEL: func.func @mlp
// CHECK-DAG:     %[[B2:.*]] = kiln.constant dense<[1.000000e-01, 2.000000e-01, 3.000000e-01]> : tensor<3xf32>
// CHECK-DAG:     %[[FLAT:.*]] = kiln.reshape %arg0 : tensor<2x1x4xf32> -> tensor<2x4xf32>
// CHECK:         %[[H:.*]] = kiln.gemm %[[FLAT]]
// CHECK:         %[[A:.*]] = kiln.relu %[[H]]
// CHECK:         %[[L:.*]] = kiln.gemm %[[A]], %{{.*}}, %[[B2]] {trans_b}
// CHECK:         %[[P:.*]] = kiln.softmax %[[L]] axis -1
// CHECK:         return %[[P]]
// CHECK-NOT:     kiln.mul

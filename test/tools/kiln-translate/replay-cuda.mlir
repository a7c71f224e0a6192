// Emission replays from prepared IR: kiln-cuda-pipeline, then
// kiln-translate, prints exactly what kilnc prints for the model.
// RUN: kilnc compile %s --target cuda --emit=cuda > %t.direct.cu
// RUN: kiln-opt %s --kiln-cuda-pipeline -o %t.mlir
// RUN: kiln-translate --kiln-mlir-to-cuda %t.mlir > %t.replay.cu
// RUN: diff %t.direct.cu %t.replay.cu
// RUN: FileCheck %s < %t.replay.cu

// CHECK: // kiln_k0: tensor-core contraction
// CHECK-NEXT: // source ops: step {{[0-9]+}}, fusion#0 (contraction)
// CHECK-NEXT: // epilogue: step {{[0-9]+}}, fusion#0 (contraction)
// CHECK-NOT: // kiln_k1
// CHECK: // launch kiln_k0
func.func @gemm_bias_relu(%a: tensor<16x8xf32>, %b: tensor<8x16xf32>, %c: tensor<16xf32>) -> tensor<16x16xf32> {
  %0 = kiln.matmul %a, %b : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %1 = kiln.add %0, %c : (tensor<16x16xf32>, tensor<16xf32>) -> tensor<16x16xf32>
  %2 = kiln.relu %1 : tensor<16x16xf32>
  return %2 : tensor<16x16xf32>
}

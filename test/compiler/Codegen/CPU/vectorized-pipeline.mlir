// RUN: kiln-opt %s --kiln-cpu-codegen-pipeline | FileCheck %s

// The CPU pipeline end to end: a matmul becomes register-blocked vector
// FMAs (a register tile per reduction step), transcendentals become
// polynomial approximations on vectors, not libm calls, and no kernel
// allocates.

// CHECK-NOT: llvm.func @malloc
// CHECK-NOT: llvm.func @expf
// CHECK-NOT: llvm.func @tanhf
// CHECK-NOT: llvm.func @erff

// CHECK-LABEL: llvm.func @matmul
// The register tile follows the host: 8 rows of 32 lanes (AVX-512) or 4 of
// 16 (AVX2).
// CHECK: llvm.intr.fmuladd({{.*}}) : (vector<{{32|16}}xf32>, vector<{{32|16}}xf32>, vector<{{32|16}}xf32>) -> vector<{{32|16}}xf32>
// CHECK-NOT: llvm.call
// CHECK: llvm.return
func.func @matmul(%a: tensor<64x128xf32>, %b: tensor<128x96xf32>) -> tensor<64x96xf32> {
  %0 = kiln.matmul %a, %b : (tensor<64x128xf32>, tensor<128x96xf32>) -> tensor<64x96xf32>
  return %0 : tensor<64x96xf32>
}

// CHECK-LABEL: llvm.func @transcendentals
// CHECK: llvm.intr.fma({{.*}}) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// CHECK-NOT: llvm.call
// CHECK: llvm.return
func.func @transcendentals(%a: tensor<64x96xf32>) -> tensor<64x96xf32> {
  %0 = kiln.tanh %a : tensor<64x96xf32>
  %1 = kiln.exp %0 : tensor<64x96xf32>
  %2 = kiln.erf %1 : tensor<64x96xf32>
  return %2 : tensor<64x96xf32>
}

// RUN: kiln-opt --help | FileCheck %s --check-prefix=HELP
// RUN: kiln-opt /dev/null --kiln-cleanup-pipeline --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: kiln-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect --kiln-cleanup-pipeline | FileCheck %s

// The cleanup pipeline (compiler/Pipelines/Pipelines.cpp): check the graph
// contract, canonicalise (folding ONNX shape subgraphs to constants), CSE.

// HELP: --kiln-cleanup-pipeline {{.*}}Check the graph contract, fold constants and remove duplicates

// PIPELINE: builtin.module(
// PIPELINE-NEXT: kiln-verify-graph-contract,
// PIPELINE-NEXT: canonicalize{
// PIPELINE-NEXT: cse
// PIPELINE-NEXT: )

// An exporter's `x.reshape(x.shape[0], -1)` (Shape -> Gather -> Unsqueeze ->
// Concat) collapses to one shape constant; the two identical transposes and
// reshapes, which canonicalisation leaves alone, are merged by CSE.
// CHECK-LABEL: func.func @onnx_flatten
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[SHAPE:.*]] = kiln.constant dense<[2, -1]> : tensor<2xi64>
// CHECK-NEXT: %[[T:.*]] = kiln.transpose %[[X]] [0, 2, 1] : tensor<2x3x4xf32> -> tensor<2x4x3xf32>
// CHECK-NEXT: %[[F:.*]] = kiln.reshape %[[T]] : tensor<2x4x3xf32> -> tensor<2x12xf32>
// CHECK-NEXT: %[[S:.*]] = kiln.add %[[F]], %[[F]] : (tensor<2x12xf32>, tensor<2x12xf32>) -> tensor<2x12xf32>
// CHECK-NEXT: return %[[S]], %[[SHAPE]]
func.func @onnx_flatten(%x: tensor<2x3x4xf32>) -> (tensor<2x12xf32>, tensor<2xi64>) {
  %shape = kiln.constant dense<[2, 3, 4]> : tensor<3xi64>
  %zero = kiln.constant dense<0> : tensor<i64>
  %n = kiln.gather %shape[%zero] axis 0 : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %n1 = kiln.reshape %n : tensor<i64> -> tensor<1xi64>
  %minus1 = kiln.constant dense<-1> : tensor<1xi64>
  %new = kiln.concat %n1, %minus1 axis 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %t0 = kiln.transpose %x [0, 2, 1] : tensor<2x3x4xf32> -> tensor<2x4x3xf32>
  %t1 = kiln.transpose %x [0, 2, 1] : tensor<2x3x4xf32> -> tensor<2x4x3xf32>
  %f0 = kiln.reshape %t0 : tensor<2x4x3xf32> -> tensor<2x12xf32>
  %f1 = kiln.reshape %t1 : tensor<2x4x3xf32> -> tensor<2x12xf32>
  %s = kiln.add %f0, %f1 : (tensor<2x12xf32>, tensor<2x12xf32>) -> tensor<2x12xf32>
  return %s, %new : tensor<2x12xf32>, tensor<2xi64>
}

// -----

// The contract is checked before anything is folded: a module that breaks it
// is rejected with the contract's diagnostic.
func.func @contract_first() -> tensor<2xi64> {
  // expected-error @+1 {{op 'arith.constant' is not allowed by the graph contract}}
  %c = "arith.constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = kiln.reshape %c : tensor<2xi64> -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

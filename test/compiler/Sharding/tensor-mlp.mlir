// RUN: kiln-opt %s --kiln-shard='ranks=2 rank=0' --canonicalize | FileCheck %s --check-prefix=RANK0
// RUN: kiln-opt %s --kiln-shard='ranks=2 rank=1' --canonicalize | FileCheck %s --check-prefix=RANK1

// Tensor parallelism on an MLP: the first layer's weight is split by
// columns (each rank computes half of the hidden units, with its half of
// the bias), the second by rows (each rank a partial sum over its hidden
// units), and one all-reduce finishes the sum. The second bias is added
// once, on rank 0.

// RANK0: module attributes {kiln.sharding = {all_gathers = 0 : i64, all_reduces = 1 : i64, rank = 0 : i64, ranks = 2 : i64, reduce_scatters = 0 : i64, strategy = "tensor"}}
// RANK0-DAG: %[[W1:.*]] = kiln.constant dense<{{\[}}[1.000000e+00, 1.000000e+00], [2.000000e+00, 2.000000e+00]]> : tensor<2x2xf32>
// RANK0-DAG: %[[B1:.*]] = kiln.constant dense<[1.000000e+01, 2.000000e+01]> : tensor<2xf32>
// RANK0-DAG: %[[W2:.*]] = kiln.constant dense<{{\[}}[1.000000e+00, 2.000000e+00]]> : tensor<1x2xf32>
// RANK0-DAG: %[[B2:.*]] = kiln.constant dense<5.000000e+00> : tensor<1xf32>
// RANK0: %[[H:.*]] = kiln.gemm %arg0, %[[W1]], %[[B1]] {trans_b} : (tensor<3x2xf32>, tensor<2x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
// RANK0: %[[R:.*]] = kiln.relu %[[H]] : tensor<3x2xf32>
// RANK0: %[[Y:.*]] = kiln.gemm %[[R]], %[[W2]], %[[B2]] {trans_b} : (tensor<3x2xf32>, tensor<1x2xf32>, tensor<1xf32>) -> tensor<3x1xf32>
// RANK0: %[[S:.*]] = kiln.all_reduce sum %[[Y]] ranks(2) : tensor<3x1xf32>
// RANK0: return %[[S]]

// RANK1-DAG: %[[W1:.*]] = kiln.constant dense<{{\[}}[3.000000e+00, 3.000000e+00], [4.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// RANK1-DAG: %[[B1:.*]] = kiln.constant dense<[3.000000e+01, 4.000000e+01]> : tensor<2xf32>
// RANK1-DAG: %[[W2:.*]] = kiln.constant dense<{{\[}}[3.000000e+00, 4.000000e+00]]> : tensor<1x2xf32>
// RANK1: %[[H:.*]] = kiln.gemm %arg0, %[[W1]], %[[B1]] {trans_b}
// RANK1: %[[R:.*]] = kiln.relu %[[H]]
// RANK1: %[[Y:.*]] = kiln.gemm %[[R]], %[[W2]] {trans_b} : (tensor<3x2xf32>, tensor<1x2xf32>) -> tensor<3x1xf32>
// RANK1: kiln.all_reduce sum %[[Y]] ranks(2)
func.func @mlp(%x: tensor<3x2xf32>) -> tensor<3x1xf32> {
  %w1 = kiln.constant dense<[[1.0, 1.0], [2.0, 2.0], [3.0, 3.0], [4.0, 4.0]]> : tensor<4x2xf32>
  %b1 = kiln.constant dense<[10.0, 20.0, 30.0, 40.0]> : tensor<4xf32>
  %w2 = kiln.constant dense<[[1.0, 2.0, 3.0, 4.0]]> : tensor<1x4xf32>
  %b2 = kiln.constant dense<5.0> : tensor<1xf32>
  %h = kiln.gemm %x, %w1, %b1 {trans_b} : (tensor<3x2xf32>, tensor<4x2xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %r = kiln.relu %h : tensor<3x4xf32>
  %y = kiln.gemm %r, %w2, %b2 {trans_b} : (tensor<3x4xf32>, tensor<1x4xf32>, tensor<1xf32>) -> tensor<3x1xf32>
  return %y : tensor<3x1xf32>
}

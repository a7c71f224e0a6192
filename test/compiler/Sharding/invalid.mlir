// RUN: kiln-opt %s -split-input-file -verify-diagnostics --kiln-shard='ranks=2 rank=0 strategy=data'
// RUN: not kiln-opt %s --kiln-shard='ranks=2 rank=2' 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: not kiln-opt %s --kiln-shard='ranks=2 strategy=pipeline' 2>&1 | FileCheck %s --check-prefix=STRATEGY

// RANK: error: kiln-shard: rank 2 is not one of 2 ranks
// STRATEGY: error: kiln-shard: unknown strategy 'pipeline' (tensor, sequence or data)

// An uneven split would lose or invent rows: refused, never padded
// silently.
// expected-error @+1 {{data parallelism over 2 ranks needs every input's first (batch) dimension to divide by 2; input 0 is 'tensor<3x4xf32>'}}
func.func @odd_batch(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %r = kiln.relu %x : tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

// expected-error @+1 {{input 0 is 'tensor<f32>'}}
func.func @scalar(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}

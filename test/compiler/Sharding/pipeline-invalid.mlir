// RUN: kiln-opt %s -split-input-file -verify-diagnostics --kiln-pipeline='stages=2 stage=0 micro-batches=2'
// RUN: not kiln-opt %s --kiln-pipeline='stages=2 stage=2' 2>&1 | FileCheck %s --check-prefix=STAGE
// RUN: not kiln-opt %s --kiln-pipeline='stages=2 micro-batches=0' 2>&1 | FileCheck %s --check-prefix=MICRO
// RUN: not kiln-opt %s --kiln-pipeline='stages=4' -split-input-file 2>&1 | FileCheck %s --check-prefix=OPS

// STAGE: error: kiln-pipeline: stage 2 is not one of 2 stages
// MICRO: error: kiln-pipeline: micro-batches must be at least 1, not 0
// OPS: error: cannot cut 2 ops into 4 pipeline stages

// Micro-batches are equal slices of the batch: an uneven split is refused.
// expected-error @+1 {{splitting the batch into 2 micro-batches needs every input's first (batch) dimension to divide by 2; input 0 is 'tensor<3x4xf32>'}}
func.func @odd_batch(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %r = kiln.relu %x : tensor<3x4xf32>
  %t = kiln.tanh %r : tensor<3x4xf32>
  return %t : tensor<3x4xf32>
}

// -----

// A sum over the batch needs every micro-batch at once.
func.func @mixes_rows(%x: tensor<4x4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{cannot split the batch into 2 micro-batches: this op needs the whole batch of an operand (it mixes rows of the batch)}}
  %s = kiln.reduce_sum %x axes [0] : tensor<4x4xf32> -> tensor<4xf32>
  %t = kiln.tanh %s : tensor<4xf32>
  return %t : tensor<4xf32>
}

// -----

// Micro-batch outputs are stacked along their first dimension.
func.func @transposed_output(%x: tensor<4x6xf32>) -> tensor<6x4xf32> {
  %r = kiln.relu %x : tensor<4x6xf32>
  %t = kiln.transpose %r [1, 0] : tensor<4x6xf32> -> tensor<6x4xf32>
  // expected-error @+1 {{cannot split the batch into micro-batches: output 0 is split(1) on a micro-batch, not split along its first dimension}}
  return %t : tensor<6x4xf32>
}

// -----

// expected-error @+1 {{pipeline parallelism needs a module with exactly one function with a body; this one has 2}}
module {
  func.func @a(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
  func.func @b(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

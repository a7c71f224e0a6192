// RUN: kiln-opt %s -split-input-file -verify-diagnostics --kiln-shard='ranks=2 rank=0' | FileCheck %s

// kiln-shard splits over the mesh axis its strategy names: the module's
// kiln.mesh must have it with as many devices as ranks, and an annotation
// over that axis is honoured like one without an axis.

// CHECK: kiln.mesh @mesh axes ["data", "tensor"] shape [2, 2]
// CHECK-LABEL: func.func @over_tensor
// CHECK: kiln.slice %{{.*}} starts [0, 0] limits [2, 8]
kiln.mesh @mesh axes ["data", "tensor"] shape [2, 2]
func.func @over_tensor(%x: tensor<4x8xf32> {kiln.shard = #kiln.sharding<split 0 over "tensor">}) -> tensor<4x8xf32> {
  %y = kiln.relu %x : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// The data axis splits the batch (kiln-split-batch), not kiln-shard.
kiln.mesh @mesh axes ["data", "tensor"] shape [2, 2]
// expected-error @+1 {{argument 0: 'kiln.shard' lays the value out over mesh axis 'data', but kiln-shard splits over 'tensor'}}
func.func @over_data(%x: tensor<4x8xf32> {kiln.shard = #kiln.sharding<split 0 over "data">}) -> tensor<4x8xf32> {
  return %x : tensor<4x8xf32>
}

// -----

// expected-error @+1 {{kiln-shard splits over mesh axis 'tensor', which @mesh does not have}}
kiln.mesh @mesh axes ["data"] shape [2]
func.func @no_axis(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  return %x : tensor<4x8xf32>
}

// -----

// expected-error @+1 {{axis 'tensor' of @mesh has 4 devices; kiln-shard splits over 2 ranks}}
kiln.mesh @mesh axes ["tensor"] shape [4]
func.func @wrong_size(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  return %x : tensor<4x8xf32>
}

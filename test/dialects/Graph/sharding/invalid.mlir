// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{unknown sharding 'tiled' (replicated, split D or partial REDUCTION)}}
func.func @unknown() attributes {s = #kiln.sharding<tiled>} {
  return
}

// -----

// expected-error @+1 {{unknown reduction 'mean' (sum, max, min or prod)}}
func.func @reduction() attributes {s = #kiln.sharding<partial mean>} {
  return
}

// -----

// expected-error @+1 {{a split dimension is not negative, got -1}}
func.func @negative() attributes {s = #kiln.sharding<split -1>} {
  return
}

// -----

// An annotation says how a value is laid out, not that it is a sum.
// expected-error @+1 {{argument 0: 'kiln.shard' cannot make a value a partial sum: annotate how it is laid out (replicated or split D)}}
func.func @partial(%x: tensor<4xf32> {kiln.shard = #kiln.sharding<partial sum>}) {
  return
}

// -----

// expected-error @+1 {{argument 0: 'kiln.shard' splits dimension 2 of 'tensor<4x8xf32>'}}
func.func @missing_dim(%x: tensor<4x8xf32> {kiln.shard = #kiln.sharding<split 2>}) {
  return
}

// -----

// expected-error @+1 {{argument 0: 'kiln.shard' annotates a ranked tensor, not 'f32'}}
func.func @scalar(%x: f32 {kiln.shard = #kiln.sharding<replicated>}) {
  return
}

// -----

func.func @not_a_sharding() {
  // expected-error @+1 {{'kiln.shard' must be a #kiln.sharding, got "split 0"}}
  %w = kiln.constant {kiln.shard = "split 0"} dense<0.5> : tensor<8xf32>
  return
}

// -----

func.func @several_results(%x: tensor<4xf32>) {
  // expected-error @+1 {{'kiln.shard' annotates an op with one result}}
  %a, %b = kiln.split %x axis 0 {kiln.shard = #kiln.sharding<replicated>} : tensor<4xf32> -> tensor<2xf32>, tensor<2xf32>
  return
}

// -----

// expected-error @+1 {{a mesh axis has a name}}
func.func @empty_axis() attributes {s = #kiln.sharding<split 0 over "">} {
  return
}

// -----

// expected-error @+1 {{argument 0: 'kiln.shard' is over mesh axis 'tensor', but the module has no kiln.mesh}}
func.func @no_mesh(%x: tensor<4xf32> {kiln.shard = #kiln.sharding<split 0 over "tensor">}) {
  return
}

// -----

kiln.mesh @mesh axes ["data"] shape [2]
// expected-error @+1 {{'kiln.shard' is over mesh axis 'tensor', which @mesh does not have}}
%c = kiln.constant {kiln.shard = #kiln.sharding<replicated over "tensor">} dense<1.0> : tensor<4xf32>

// -----

// expected-error @+1 {{'kiln.mesh' op names 2 axes but gives 1 sizes}}
kiln.mesh @mesh axes ["data", "tensor"] shape [2]

// -----

// expected-error @+1 {{'kiln.mesh' op names axis 'tensor' twice}}
kiln.mesh @mesh axes ["tensor", "tensor"] shape [2, 2]

// -----

// expected-error @+1 {{'kiln.mesh' op axis 'data' has 0 devices}}
kiln.mesh @mesh axes ["data"] shape [0]

// -----

// expected-error @+1 {{'kiln.mesh' op has no axes}}
kiln.mesh @mesh axes [] shape []

// -----

// expected-error @+1 {{'kiln.mesh' op axis 0 has no name}}
kiln.mesh @mesh axes [""] shape [2]

// -----

// expected-error @+1 {{'kiln.mesh' op has more than 4096 devices}}
kiln.mesh @mesh axes ["data", "tensor"] shape [128, 64]

// -----

kiln.mesh @first axes ["data"] shape [2]
// expected-error @+1 {{'kiln.mesh' op is a second kiln.mesh of the module (@first is the first)}}
kiln.mesh @second axes ["tensor"] shape [2]

// -----

func.func @nested() {
  // expected-error @+1 {{'kiln.mesh' op expects parent op 'builtin.module'}}
  "kiln.mesh"() {sym_name = "mesh", axes = ["data"], shape = array<i64: 2>} : () -> ()
  return
}

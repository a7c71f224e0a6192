// RUN: kiln-opt %s | kiln-opt | FileCheck %s

// The three layouts of #kiln.sharding print as they parse, and kiln.shard
// annotates function arguments and constants.

// CHECK-LABEL: func.func @layouts
// CHECK-SAME: (%{{.*}}: tensor<4x8xf32> {kiln.shard = #kiln.sharding<split 0>}, %{{.*}}: tensor<8xf32> {kiln.shard = #kiln.sharding<replicated>})
// CHECK-SAME: attributes {all = [#kiln.sharding<replicated>, #kiln.sharding<split 3>, #kiln.sharding<partial sum>, #kiln.sharding<partial max>, #kiln.sharding<partial min>, #kiln.sharding<partial prod>]}
// CHECK: kiln.constant {kiln.shard = #kiln.sharding<split 1>} dense<5.000000e-01> : tensor<8x8xf32>
// CHECK: kiln.matmul {{.*}} {kiln.shard = #kiln.sharding<replicated>}
func.func @layouts(%x: tensor<4x8xf32> {kiln.shard = #kiln.sharding<split 0>},
                   %b: tensor<8xf32> {kiln.shard = #kiln.sharding<replicated>}) -> tensor<4x8xf32>
    attributes {all = [#kiln.sharding<replicated>, #kiln.sharding<split 3>,
                       #kiln.sharding<partial sum>, #kiln.sharding<partial max>,
                       #kiln.sharding<partial min>, #kiln.sharding<partial prod>]} {
  %w = kiln.constant {kiln.shard = #kiln.sharding<split 1>} dense<0.5> : tensor<8x8xf32>
  %y = kiln.matmul %x, %w {kiln.shard = #kiln.sharding<replicated>} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// A mesh with named axes, and layouts over one of them.
// CHECK: kiln.mesh @mesh axes ["data", "tensor"] shape [2, 4]
// CHECK-LABEL: func.func @over_axes
// CHECK-SAME: {kiln.shard = #kiln.sharding<split 1 over "tensor">}
// CHECK: kiln.constant {kiln.shard = #kiln.sharding<replicated over "data">}
module {
  kiln.mesh @mesh axes ["data", "tensor"] shape [2, 4]
  func.func @over_axes(%x: tensor<4x8xf32> {kiln.shard = #kiln.sharding<split 1 over "tensor">}) -> tensor<4x8xf32> {
    %c = kiln.constant {kiln.shard = #kiln.sharding<replicated over "data">} dense<1.0> : tensor<4x8xf32>
    %y = kiln.add %x, %c : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    return %y : tensor<4x8xf32>
  }
}

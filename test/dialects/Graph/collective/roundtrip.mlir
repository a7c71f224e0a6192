// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --canonicalize --cse | FileCheck %s --check-prefix=KEPT

// CHECK-LABEL: func.func @collectives
// CHECK: kiln.all_reduce sum %{{.*}} ranks(2) : tensor<4x8xf32>
// CHECK: kiln.all_reduce max %{{.*}} ranks(4) : tensor<4x8xf32>
// CHECK: kiln.all_gather %{{.*}} axis(1) ranks(2) : tensor<4x8xf32> -> tensor<4x16xf32>
// CHECK: kiln.reduce_scatter sum %{{.*}} axis(1) ranks(4) : tensor<4x16xf32> -> tensor<4x4xf32>
// CHECK: kiln.reduce_scatter prod %{{.*}} axis(0) ranks(2) : tensor<4x4xf32> -> tensor<2x4xf32>
func.func @collectives(%x: tensor<4x8xf32>) -> tensor<2x4xf32> {
  %a = kiln.all_reduce sum %x ranks(2) : tensor<4x8xf32>
  %b = kiln.all_reduce max %a ranks(4) : tensor<4x8xf32>
  %g = kiln.all_gather %b axis(1) ranks(2) : tensor<4x8xf32> -> tensor<4x16xf32>
  %s = kiln.reduce_scatter sum %g axis(1) ranks(4) : tensor<4x16xf32> -> tensor<4x4xf32>
  %p = kiln.reduce_scatter prod %s axis(0) ranks(2) : tensor<4x4xf32> -> tensor<2x4xf32>
  return %p : tensor<2x4xf32>
}

// Communication is an effect: an unused collective stays, and two equal
// ones are not merged (every rank must run every collective).
// KEPT-LABEL: func.func @effects
// KEPT: kiln.all_reduce
// KEPT-NEXT: kiln.reduce_scatter
// KEPT-COUNT-2: kiln.all_reduce
func.func @effects(%x: tensor<4xf32>) -> tensor<4xf32> {
  %unused = kiln.all_reduce sum %x ranks(2) : tensor<4xf32>
  %unusedScatter = kiln.reduce_scatter sum %x axis(0) ranks(2) : tensor<4xf32> -> tensor<2xf32>
  %a = kiln.all_reduce sum %x ranks(2) : tensor<4xf32>
  %b = kiln.all_reduce sum %x ranks(2) : tensor<4xf32>
  %s = kiln.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// RUN: kiln-opt %s --kiln-convert-graph-to-linalg | FileCheck %s
// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-cpu-pipeline{fusion=false})' | FileCheck %s --check-prefix=STEPS

// Collectives become exec.communicate in destination style; an all-gather
// along an inner axis receives rank-major blocks and transposes them into
// place.

// CHECK: #[[MOVE:.*]] = affine_map<(d0, d1, d2) -> (d1, d0, d2)>
// CHECK-LABEL: func.func @collectives
// CHECK: math.exp
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK: %[[R:.*]] = exec.communicate all_reduce sum ranks(2) ins(%{{.*}} : tensor<4x8xf32>) outs(%[[E]] : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: %[[S:.*]] = tensor.empty() : tensor<2x4x8xf32>
// CHECK: %[[G:.*]] = exec.communicate all_gather ranks(2) ins(%[[R]] : tensor<4x8xf32>) outs(%[[S]] : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
// CHECK: linalg.generic {indexing_maps = [#[[MOVE]], #{{.*}}]
// CHECK-SAME: ins(%[[G]] : tensor<2x4x8xf32>) outs(%{{.*}} : tensor<4x2x8xf32>)
// CHECK: tensor.expand_shape {{.*}} into tensor<4x16xf32>
// CHECK: exec.communicate all_gather ranks(2) ins(%{{.*}} : tensor<4x16xf32>) outs(%{{.*}} : tensor<8x16xf32>)
// CHECK-NOT: linalg.generic
// CHECK: return

// Each collective is one step between the dispatches, its buffers planned
// in the arena like any kernel's.
// STEPS: exec.program @collectives device(cpu) inputs(1) outputs(1)
// STEPS: exec.dispatch @collectives_d0
// STEPS-NEXT: exec.collective all_reduce sum ranks(2) element(f32) send <arena[{{.*}} : 128] read> recv <arena[{{.*}} : 128] write> after(%{{.*}})
// STEPS-NEXT: exec.collective all_gather ranks(2) element(f32) send <arena[{{.*}} : 128] read> recv <arena[{{.*}} : 256] write> after(%{{.*}})
// STEPS-NEXT: exec.dispatch
// STEPS-NEXT: exec.collective all_gather ranks(2) element(f32) send <arena[{{.*}} : 256] read> recv <output 0[0 : 512] write> after(%{{.*}})
// STEPS-NOT: exec.
func.func @collectives(%x: tensor<4x8xf32>) -> tensor<8x16xf32> {
  %e = kiln.exp %x : tensor<4x8xf32>
  %r = kiln.all_reduce sum %e ranks(2) : tensor<4x8xf32>
  %g = kiln.all_gather %r axis(1) ranks(2) : tensor<4x8xf32> -> tensor<4x16xf32>
  %h = kiln.all_gather %g axis(0) ranks(2) : tensor<4x16xf32> -> tensor<8x16xf32>
  return %h : tensor<8x16xf32>
}

// A reduce-scatter sends rank-major blocks: along an inner axis its input
// is transposed first ([4, 2, 3] -> [2, 4, 3], rank r's block the r-th);
// along axis 0, or when every dimension before the axis is 1, the blocks
// are contiguous already and nothing moves (all-gathers too).
// CHECK-LABEL: func.func @scatters
// CHECK: tensor.expand_shape %{{.*}} into tensor<4x2x3xf32>
// CHECK: %[[T:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<4x2x3xf32>) outs(%{{.*}} : tensor<2x4x3xf32>)
// CHECK: %[[A:.*]] = exec.communicate reduce_scatter sum ranks(2) ins(%[[T]] : tensor<2x4x3xf32>) outs(%{{.*}} : tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK: %[[B:.*]] = exec.communicate reduce_scatter max ranks(2) ins(%[[A]] : tensor<4x3xf32>) outs(%{{.*}} : tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %[[C:.*]] = exec.communicate reduce_scatter sum ranks(2) ins(%{{.*}} : tensor<1x8x4xf32>) outs(%{{.*}} : tensor<1x4x4xf32>)
// CHECK: %{{.*}} = exec.communicate all_gather ranks(2) ins(%[[C]] : tensor<1x4x4xf32>) outs(%{{.*}} : tensor<1x8x4xf32>)
// CHECK-NOT: linalg.generic
// CHECK: return

// STEPS-LABEL: exec.program @scatters
// STEPS: exec.collective reduce_scatter sum ranks(2) element(f32) send <{{.*}} : 96] read> recv <{{.*}} : 48] write>
// STEPS: exec.collective reduce_scatter max ranks(2) element(f32) send <{{.*}} : 48] read> recv <{{.*}} : 24] write>
func.func @scatters(%x: tensor<4x6xf32>, %y: tensor<1x8x4xf32>) -> (tensor<2x3xf32>, tensor<1x8x4xf32>) {
  %a = kiln.reduce_scatter sum %x axis(1) ranks(2) : tensor<4x6xf32> -> tensor<4x3xf32>
  %b = kiln.reduce_scatter max %a axis(0) ranks(2) : tensor<4x3xf32> -> tensor<2x3xf32>
  %c = kiln.reduce_scatter sum %y axis(1) ranks(2) : tensor<1x8x4xf32> -> tensor<1x4x4xf32>
  %d = kiln.all_gather %c axis(1) ranks(2) : tensor<1x4x4xf32> -> tensor<1x8x4xf32>
  return %b, %d : tensor<2x3xf32>, tensor<1x8x4xf32>
}

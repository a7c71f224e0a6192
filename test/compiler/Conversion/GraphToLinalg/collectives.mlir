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

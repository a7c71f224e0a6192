// RUN: kiln-opt %s --kiln-form-cpu-dispatches="min-work-per-workgroup=0 max-workgroups=2" --kiln-share-identical-kernels -split-input-file | FileCheck %s
// A second run changes nothing: the dispatches that call a kernel are
// already as small as they get.
// RUN: kiln-opt %s --kiln-form-cpu-dispatches="min-work-per-workgroup=0 max-workgroups=2" --kiln-share-identical-kernels -split-input-file > %t
// RUN: kiln-opt %t --kiln-share-identical-kernels -split-input-file | diff %t -

#id = affine_map<(d0, d1) -> (d0, d1)>

// Tests that the same op on different arena buffers runs one kernel: each
// dispatch keeps its name and signature and passes its own views (offsets
// 0 and 2048), while an op with another body keeps its own dispatch. The
// kernel takes only the dispatch parameters it uses (the workgroup range).
// CHECK-LABEL: func.func private @chain_d0_kernel
// CHECK-SAME:    (%{{.*}}: index, %{{.*}}: index, %[[SRC:.*]]: memref<16x32xf32>, %[[DST:.*]]: memref<16x32xf32>)
// CHECK-SAME:    attributes {passthrough = ["noinline"]}
// CHECK:         memref.subview %[[SRC]]
// CHECK:         memref.subview %[[DST]]
// CHECK:         math.exp
// CHECK-NOT:     memref.view
// CHECK-LABEL: func.func private @chain_d0(
// CHECK-SAME:    %[[IN:[^:]*]]: memref<16x32xf32>, %[[OUT:[^:]*]]: memref<16x32xf32>, %[[ARENA:[^:]*]]: memref<6144xi8>, %[[B:[^:]*]]: index, %[[E:[^:]*]]: index)
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[V0:.*]] = memref.view %[[ARENA]][%[[C0]]][]
// CHECK:         %[[C2048:.*]] = arith.constant 2048 : index
// CHECK:         %[[V1:.*]] = memref.view %[[ARENA]][%[[C2048]]][]
// CHECK:         call @chain_d0_kernel(%[[B]], %[[E]], %[[V0]], %[[V1]])
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @chain_d1(
// CHECK:         %[[C2048:.*]] = arith.constant 2048 : index
// CHECK:         %[[V0:.*]] = memref.view %{{.*}}[%[[C2048]]][]
// CHECK:         %[[C4096:.*]] = arith.constant 4096 : index
// CHECK:         %[[V1:.*]] = memref.view %{{.*}}[%[[C4096]]][]
// CHECK:         call @chain_d0_kernel(%{{.*}}, %{{.*}}, %[[V0]], %[[V1]])
// CHECK-LABEL: func.func private @chain_d2(
// CHECK-NOT:     call
// CHECK:         math.absf
// CHECK-LABEL: exec.program @chain
// CHECK:         exec.dispatch @chain_d0
// CHECK:         exec.dispatch @chain_d1
// CHECK:         exec.dispatch @chain_d2
func.func @chain(%in: memref<16x32xf32>, %out: memref<16x32xf32>, %arena: memref<6144xi8>)
    attributes {exec.interface = array<i32: 1, 1>} {
  %c0 = arith.constant 0 : index
  %c2048 = arith.constant 2048 : index
  %c4096 = arith.constant 4096 : index
  %a = memref.view %arena[%c0][] : memref<6144xi8> to memref<16x32xf32>
  %b = memref.view %arena[%c2048][] : memref<6144xi8> to memref<16x32xf32>
  %c = memref.view %arena[%c4096][] : memref<6144xi8> to memref<16x32xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<16x32xf32>) outs(%b : memref<16x32xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<16x32xf32>) outs(%c : memref<16x32xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<16x32xf32>) outs(%out : memref<16x32xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.absf %x : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// Tests that matmuls with different weights share a kernel that takes the
// weights as a parameter, and that one of another shape does not.
// CHECK-LABEL: func.func private @weights_d0_kernel
// CHECK-SAME:    %{{[^:]*}}: memref<8x32xf32>, %{{[^:]*}}: memref<32x32xf32>, %{{[^:]*}}: memref<8x32xf32>)
// CHECK-NOT:     memref.get_global
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : memref<{{.*}}>, memref<32x32xf32>)
// CHECK-LABEL: func.func private @weights_d0(
// CHECK:         %[[G:.*]] = memref.get_global @w0 : memref<32x32xf32>
// CHECK:         call @weights_d0_kernel(%{{.*}}, %[[G]], %{{.*}})
// CHECK-LABEL: func.func private @weights_d1(
// CHECK:         %[[G:.*]] = memref.get_global @w1 : memref<32x32xf32>
// CHECK:         call @weights_d0_kernel(%{{.*}}, %[[G]], %{{.*}})
// CHECK-LABEL: func.func private @weights_d2(
// CHECK-NOT:     call
// CHECK:         memref.get_global @w2 : memref<32x16xf32>
// CHECK:         linalg.matmul
memref.global "private" constant @w0 : memref<32x32xf32> = dense<1.0>
memref.global "private" constant @w1 : memref<32x32xf32> = dense<2.0>
memref.global "private" constant @w2 : memref<32x16xf32> = dense<3.0>
func.func @weights(%in: memref<8x32xf32>, %out: memref<8x16xf32>, %arena: memref<3072xi8>)
    attributes {exec.interface = array<i32: 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %c2048 = arith.constant 2048 : index
  %w0 = memref.get_global @w0 : memref<32x32xf32>
  %w1 = memref.get_global @w1 : memref<32x32xf32>
  %w2 = memref.get_global @w2 : memref<32x16xf32>
  %a = memref.view %arena[%c0][] : memref<3072xi8> to memref<8x32xf32>
  %b = memref.view %arena[%c1024][] : memref<3072xi8> to memref<8x32xf32>
  %c = memref.view %arena[%c2048][] : memref<3072xi8> to memref<8x32xf32>
  linalg.matmul ins(%a, %w0 : memref<8x32xf32>, memref<32x32xf32>) outs(%b : memref<8x32xf32>)
  linalg.matmul ins(%b, %w1 : memref<8x32xf32>, memref<32x32xf32>) outs(%c : memref<8x32xf32>)
  linalg.matmul ins(%c, %w2 : memref<8x32xf32>, memref<32x16xf32>) outs(%out : memref<8x16xf32>)
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Tests that an op in place (one buffer read and written) does not share a
// kernel with the same op on two buffers: one parameter is not two.
// CHECK-LABEL: func.func private @in_place_d0(
// CHECK-NOT:     call
// CHECK-LABEL: func.func private @in_place_d1(
// CHECK-NOT:     call
// CHECK-LABEL: exec.program @in_place
func.func @in_place(%in: memref<16x32xf32>, %out: memref<16x32xf32>, %arena: memref<4096xi8>)
    attributes {exec.interface = array<i32: 1, 1>} {
  %c0 = arith.constant 0 : index
  %c2048 = arith.constant 2048 : index
  %a = memref.view %arena[%c0][] : memref<4096xi8> to memref<16x32xf32>
  %b = memref.view %arena[%c2048][] : memref<4096xi8> to memref<16x32xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<16x32xf32>) outs(%a : memref<16x32xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<16x32xf32>) outs(%b : memref<16x32xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Tests that the same op on two static windows of the same buffers (the
// chunks of one convolution) runs one kernel: each window is a parameter
// whose layout offset is left open, built by the dispatch (subview, cast).
// CHECK-LABEL: func.func private @chunks_d0_kernel
// CHECK-SAME:    %[[SRC:[^:]*]]: memref<16x32xf32, strided<[64, 1], offset: ?>>, %[[DST:[^:]*]]: memref<16x32xf32, strided<[64, 1], offset: ?>>)
// CHECK-NOT:     memref.view
// CHECK:         memref.subview %[[SRC]]
// CHECK:         memref.subview %[[DST]]
// CHECK:         math.exp
// CHECK-LABEL: func.func private @chunks_d0(
// CHECK:         %[[V:.*]] = memref.view
// CHECK:         %[[W:.*]] = memref.subview %[[V]][0, 0] [16, 32] [1, 1]
// CHECK:         %[[C:.*]] = memref.cast %[[W]] : memref<16x32xf32, strided<[64, 1]>> to memref<16x32xf32, strided<[64, 1], offset: ?>>
// CHECK:         call @chunks_d0_kernel(%{{.*}}, %{{.*}}, %[[C]], %{{.*}})
// CHECK-LABEL: func.func private @chunks_d1(
// CHECK:         %[[V:.*]] = memref.view
// CHECK:         %[[W:.*]] = memref.subview %[[V]][0, 32] [16, 32] [1, 1]
// CHECK:         %[[C:.*]] = memref.cast %[[W]] : memref<16x32xf32, strided<[64, 1], offset: 32>> to memref<16x32xf32, strided<[64, 1], offset: ?>>
// CHECK:         call @chunks_d0_kernel(%{{.*}}, %{{.*}}, %[[C]], %{{.*}})
// CHECK-LABEL: func.func private @chunks_d2(
// CHECK-NOT:     call
// CHECK:         linalg.copy
func.func @chunks(%in: memref<16x64xf32>, %out: memref<16x64xf32>, %arena: memref<8192xi8>)
    attributes {exec.interface = array<i32: 1, 1>} {
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %a = memref.view %arena[%c0][] : memref<8192xi8> to memref<16x64xf32>
  %b = memref.view %arena[%c4096][] : memref<8192xi8> to memref<16x64xf32>
  %a0 = memref.subview %a[0, 0] [16, 32] [1, 1] : memref<16x64xf32> to memref<16x32xf32, strided<[64, 1]>>
  %a1 = memref.subview %a[0, 32] [16, 32] [1, 1] : memref<16x64xf32> to memref<16x32xf32, strided<[64, 1], offset: 32>>
  %b0 = memref.subview %b[0, 0] [16, 32] [1, 1] : memref<16x64xf32> to memref<16x32xf32, strided<[64, 1]>>
  %b1 = memref.subview %b[0, 32] [16, 32] [1, 1] : memref<16x64xf32> to memref<16x32xf32, strided<[64, 1], offset: 32>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a0 : memref<16x32xf32, strided<[64, 1]>>) outs(%b0 : memref<16x32xf32, strided<[64, 1]>>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a1 : memref<16x32xf32, strided<[64, 1], offset: 32>>) outs(%b1 : memref<16x32xf32, strided<[64, 1], offset: 32>>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  linalg.copy ins(%b : memref<16x64xf32>) outs(%out : memref<16x64xf32>)
  return
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// Tests that a window is not opened when a user's type depends on its
// offset (a reshape): those dispatches keep their bodies.
// CHECK-LABEL: func.func private @reshaped_d0(
// CHECK-NOT:     call
// CHECK:         memref.expand_shape
// CHECK-LABEL: func.func private @reshaped_d1(
// CHECK-NOT:     call
// CHECK:         memref.expand_shape
func.func @reshaped(%in: memref<16x64xf32>, %out: memref<16x64xf32>, %arena: memref<8192xi8>)
    attributes {exec.interface = array<i32: 1, 1>} {
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %a = memref.view %arena[%c0][] : memref<8192xi8> to memref<16x64xf32>
  %b = memref.view %arena[%c4096][] : memref<8192xi8> to memref<16x4x8xf32>
  %a0 = memref.subview %a[0, 0] [16, 32] [1, 1] : memref<16x64xf32> to memref<16x32xf32, strided<[64, 1]>>
  %a1 = memref.subview %a[0, 32] [16, 32] [1, 1] : memref<16x64xf32> to memref<16x32xf32, strided<[64, 1], offset: 32>>
  %e0 = memref.expand_shape %a0 [[0], [1, 2]] output_shape [16, 4, 8] : memref<16x32xf32, strided<[64, 1]>> into memref<16x4x8xf32, strided<[64, 8, 1]>>
  %e1 = memref.expand_shape %a1 [[0], [1, 2]] output_shape [16, 4, 8] : memref<16x32xf32, strided<[64, 1], offset: 32>> into memref<16x4x8xf32, strided<[64, 8, 1], offset: 32>>
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e0 : memref<16x4x8xf32, strided<[64, 8, 1]>>) outs(%b : memref<16x4x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e1 : memref<16x4x8xf32, strided<[64, 8, 1], offset: 32>>) outs(%b : memref<16x4x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Tests that the same op writing two different model outputs runs one
// kernel: the output a dispatch writes in place is a parameter of the
// kernel, passed by each dispatch (a calibration copy returns dozens of
// activations this way).
// CHECK-LABEL: func.func private @outputs_d0(
// CHECK-NOT:     call
// CHECK:         math.absf
// CHECK-LABEL: func.func private @outputs_d1_kernel
// CHECK-SAME:    (%{{[^:]*}}: index, %{{[^:]*}}: index, %{{[^:]*}}: memref<16x32xf32>, %{{[^:]*}}: memref<16x32xf32>)
// CHECK:         math.exp
// CHECK-LABEL: func.func private @outputs_d1(
// CHECK-SAME:    %{{[^:]*}}: memref<16x32xf32>, %[[OUT0:[^:]*]]: memref<16x32xf32>, %[[OUT1:[^:]*]]: memref<16x32xf32>
// CHECK:         call @outputs_d1_kernel(%{{.*}}, %{{.*}}, %{{.*}}, %[[OUT0]])
// CHECK-LABEL: func.func private @outputs_d2(
// CHECK-NOT:     call
// CHECK:         math.sqrt
// CHECK-LABEL: func.func private @outputs_d3(
// CHECK-SAME:    %{{[^:]*}}: memref<16x32xf32>, %[[OUT0:[^:]*]]: memref<16x32xf32>, %[[OUT1:[^:]*]]: memref<16x32xf32>
// CHECK:         call @outputs_d1_kernel(%{{.*}}, %{{.*}}, %{{.*}}, %[[OUT1]])
func.func @outputs(%in: memref<16x32xf32>, %out0: memref<16x32xf32>, %out1: memref<16x32xf32>, %arena: memref<4096xi8>)
    attributes {exec.interface = array<i32: 1, 2>} {
  %c0 = arith.constant 0 : index
  %c2048 = arith.constant 2048 : index
  %a = memref.view %arena[%c0][] : memref<4096xi8> to memref<16x32xf32>
  %b = memref.view %arena[%c2048][] : memref<4096xi8> to memref<16x32xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%in : memref<16x32xf32>) outs(%a : memref<16x32xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.absf %x : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<16x32xf32>) outs(%out0 : memref<16x32xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%out0 : memref<16x32xf32>) outs(%b : memref<16x32xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.sqrt %x : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<16x32xf32>) outs(%out1 : memref<16x32xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}

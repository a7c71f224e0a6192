// RUN: kiln-opt %s --kiln-write-into-padded-buffers -split-input-file | FileCheck %s
// RUN: kiln-opt %s --kiln-write-into-padded-buffers --eliminate-empty-tensors -split-input-file | FileCheck %s --check-prefix=ELIM

// Constant padding of an op's result (a fill of a fresh tensor, the result
// inserted into it): the border is filled slab by slab in front of the
// producer, and the producer then writes a slice of the padded tensor.
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
// CHECK-LABEL: func.func @pads_result
// CHECK: %[[P:.*]] = tensor.empty() : tensor<1x2x6x7xf32>
// CHECK: %[[TOP:.*]] = linalg.fill {kiln.group = "g"} {{.*}} -> tensor<1x2x1x7xf32>
// CHECK: %[[P1:.*]] = tensor.insert_slice %[[TOP]] into %[[P]][0, 0, 0, 0] [1, 2, 1, 7] [1, 1, 1, 1]
// CHECK: %[[BOTTOM:.*]] = linalg.fill {{.*}} -> tensor<1x2x1x7xf32>
// CHECK: %[[P2:.*]] = tensor.insert_slice %[[BOTTOM]] into %[[P1]][0, 0, 5, 0] [1, 2, 1, 7] [1, 1, 1, 1]
// CHECK: %[[LEFT:.*]] = linalg.fill {{.*}} -> tensor<1x2x4x1xf32>
// CHECK: %[[P3:.*]] = tensor.insert_slice %[[LEFT]] into %[[P2]][0, 0, 1, 0] [1, 2, 4, 1] [1, 1, 1, 1]
// CHECK: %[[RIGHT:.*]] = linalg.fill {{.*}} -> tensor<1x2x4x2xf32>
// CHECK: %[[P4:.*]] = tensor.insert_slice %[[RIGHT]] into %[[P3]][0, 0, 1, 5] [1, 2, 4, 2] [1, 1, 1, 1]
// CHECK: %[[R:.*]] = linalg.generic
// CHECK: tensor.insert_slice %[[R]] into %[[P4]][0, 0, 1, 1] [1, 2, 4, 4] [1, 1, 1, 1]
// CHECK-NOT: linalg.fill
// ELIM-LABEL: func.func @pads_result
// ELIM: %[[P4:.*]] = tensor.insert_slice {{.*}}[0, 0, 1, 5] [1, 2, 4, 2] [1, 1, 1, 1]
// ELIM: %[[INTERIOR:.*]] = tensor.extract_slice %[[P4]][0, 0, 1, 1] [1, 2, 4, 4] [1, 1, 1, 1]
// ELIM: linalg.generic {{.*}} outs(%[[INTERIOR]] : tensor<1x2x4x4xf32>)
func.func @pads_result(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x6x7xf32> {
  %empty = tensor.empty() : tensor<1x2x4x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x2x4x4xf32>) outs(%empty : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<1x2x4x4xf32>
  %zero = arith.constant 0.0 : f32
  %padded = tensor.empty() : tensor<1x2x6x7xf32>
  %filled = linalg.fill {kiln.group = "g"} ins(%zero : f32) outs(%padded : tensor<1x2x6x7xf32>) -> tensor<1x2x6x7xf32>
  %inserted = tensor.insert_slice %r into %filled[0, 0, 1, 1] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x4xf32> into tensor<1x2x6x7xf32>
  return %inserted : tensor<1x2x6x7xf32>
}

// -----

// A padded function argument (no producer to write the slice) and a fill
// with another use keep the whole fill.
// CHECK-LABEL: func.func @keeps_fill
// CHECK-COUNT-2: linalg.fill {{.*}} -> tensor<1x1x4x4xf32>
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
func.func @keeps_fill(%x: tensor<1x1x2x2xf32>) -> (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %p0 = tensor.empty() : tensor<1x1x4x4xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%p0 : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %i0 = tensor.insert_slice %x into %f0[0, 0, 1, 1] [1, 1, 2, 2] [1, 1, 1, 1] : tensor<1x1x2x2xf32> into tensor<1x1x4x4xf32>
  %empty = tensor.empty() : tensor<1x1x2x2xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x1x2x2xf32>) outs(%empty : tensor<1x1x2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<1x1x2x2xf32>
  %p1 = tensor.empty() : tensor<1x1x4x4xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%p1 : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %i1 = tensor.insert_slice %r into %f1[0, 0, 1, 1] [1, 1, 2, 2] [1, 1, 1, 1] : tensor<1x1x2x2xf32> into tensor<1x1x4x4xf32>
  return %i0, %i1, %f1 : tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>
}

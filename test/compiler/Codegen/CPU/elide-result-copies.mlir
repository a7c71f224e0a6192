// RUN: kiln-opt %s --kiln-elide-result-copies -split-input-file | FileCheck %s

// Tests that a result computed into its own buffer and copied out is
// computed in the out-parameter instead.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @direct
// CHECK-SAME: (%[[IN:.*]]: memref<16xf32>, %[[OUT:.*]]: memref<16xf32>)
// CHECK-NOT: memref.alloc
// CHECK: linalg.generic {{.*}} ins(%[[IN]] : memref<16xf32>) outs(%[[OUT]] : memref<16xf32>)
// CHECK-NOT: memref.copy
// CHECK: return
func.func @direct(%in: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%in : memref<16xf32>) outs(%a : memref<16xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  memref.copy %a, %out : memref<16xf32> to memref<16xf32>
  return
}

// -----

// Tests that a result copied out through a reshape is written through the
// opposite reshape of the out-parameter.
// CHECK-LABEL: func.func @reshaped
// CHECK-SAME: (%[[IN:.*]]: memref<2x8xf32>, %[[OUT:.*]]: memref<16xf32>)
// CHECK: %[[VIEW:.*]] = memref.expand_shape %[[OUT]] {{\[\[}}0, 1]] output_shape [2, 8] : memref<16xf32> into memref<2x8xf32>
// CHECK-NOT: memref.alloc
// CHECK: memref.copy %[[IN]], %[[VIEW]]
// CHECK-NOT: memref.copy
func.func @reshaped(%in: memref<2x8xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<2x8xf32>
  memref.copy %in, %a : memref<2x8xf32> to memref<2x8xf32>
  %flat = memref.collapse_shape %a [[0, 1]] : memref<2x8xf32> into memref<16xf32>
  memref.copy %flat, %out : memref<16xf32> to memref<16xf32>
  return
}

// -----

// Tests that a buffer read after its copy keeps it (the copy is not its
// last use), and that an out-parameter used twice is left alone.
// CHECK-LABEL: func.func @negative_still_live
// CHECK: %[[A:.*]] = memref.alloc
// CHECK: memref.copy %[[A]], %{{.*}}
// CHECK: memref.copy %[[A]], %{{.*}}
// CHECK-LABEL: func.func @negative_target_used_twice
// CHECK: %[[B:.*]] = memref.alloc
// CHECK: memref.copy %[[B]], %[[OUT:.*]] :
// CHECK: memref.copy %[[OUT]]
func.func @negative_still_live(%in: memref<16xf32>, %out: memref<16xf32>, %keep: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  memref.copy %a, %out : memref<16xf32> to memref<16xf32>
  memref.copy %a, %keep : memref<16xf32> to memref<16xf32>
  memref.copy %in, %keep : memref<16xf32> to memref<16xf32>
  return
}
func.func @negative_target_used_twice(%in: memref<16xf32>, %out: memref<16xf32>, %other: memref<16xf32>) {
  %b = memref.alloc() : memref<16xf32>
  memref.copy %in, %b : memref<16xf32> to memref<16xf32>
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  memref.copy %out, %other : memref<16xf32> to memref<16xf32>
  return
}

// -----

// Tests a buffer returned twice: the last copy goes, the first one now
// copies from the other out-parameter.
// CHECK-LABEL: func.func @twice
// CHECK-SAME: (%[[IN:.*]]: memref<16xf32>, %[[O1:.*]]: memref<16xf32>, %[[O2:.*]]: memref<16xf32>)
// CHECK-NOT: memref.alloc
// CHECK: memref.copy %[[IN]], %[[O2]]
// CHECK-NEXT: memref.copy %[[O2]], %[[O1]]
// CHECK-NEXT: return
func.func @twice(%in: memref<16xf32>, %o1: memref<16xf32>, %o2: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  memref.copy %a, %o1 : memref<16xf32> to memref<16xf32>
  memref.copy %a, %o2 : memref<16xf32> to memref<16xf32>
  return
}

// -----

// Tests that part of a buffer (a subview) is still copied out.
// CHECK-LABEL: func.func @negative_subview
// CHECK: memref.alloc
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<4xf32, strided<[1], offset: 4>> to memref<4xf32>
func.func @negative_subview(%in: memref<16xf32>, %out: memref<4xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %s = memref.subview %a[4] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: 4>>
  memref.copy %s, %out : memref<4xf32, strided<[1], offset: 4>> to memref<4xf32>
  return
}

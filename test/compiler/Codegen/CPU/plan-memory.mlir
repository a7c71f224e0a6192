// RUN: kiln-opt %s --kiln-plan-memory -split-input-file | FileCheck %s

// Liveness, in-place reuse and packing through kiln-plan-memory. Steps are
// the positions of the function body's top-level ops; the plan is recorded
// on the module (buffers in allocation order, dictionary keys sorted).

// Two buffers with disjoint lifetimes share offset 0; each one becomes a
// view into the trailing arena argument.
// CHECK: module attributes {kiln.arena_bytes = 64 : i64, kiln.memory_plan = [{buffers = [
// CHECK-SAME: {first = 1 : i64, last = 2 : i64, loc = "plan-memory.mlir:{{[0-9]+}}:3", offset = 0 : i64, op = "memref.copy", size = 64 : i64},
// CHECK-SAME: {first = 4 : i64, last = 5 : i64, loc = "plan-memory.mlir:{{[0-9]+}}:3", offset = 0 : i64, op = "memref.copy", size = 64 : i64}],
// CHECK-SAME: function = "disjoint", kernels = 4 : i64, lower_bound_bytes = 64 : i64, peak_bytes = 64 : i64, steps = 7 : i64, unplanned_kernel_buffers_bytes = 128 : i64}]}
// CHECK-LABEL: func.func @disjoint
// CHECK-SAME: (%{{.*}}: memref<16xf32>, %{{.*}}: memref<16xf32>, %[[ARENA:.*]]: memref<64xi8>)
// CHECK-NOT: memref.alloc
// CHECK: memref.view %[[ARENA]][%{{.*}}][] : memref<64xi8> to memref<16xf32>
// CHECK: memref.view %[[ARENA]][%{{.*}}][] : memref<64xi8> to memref<16xf32>
func.func @disjoint(%in: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  memref.copy %a, %out : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  memref.copy %in, %b : memref<16xf32> to memref<16xf32>
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  return
}

// -----

// A view keeps its buffer alive: %a is last used through %flat at step 6,
// so %b (steps 4..5) cannot share it. Offsets are 64-byte aligned.
// CHECK: kiln.arena_bytes = 128 : i64
// CHECK-SAME: {first = 1 : i64, last = 6 : i64, {{.*}}, offset = 0 : i64, op = "memref.copy", size = 48 : i64}
// CHECK-SAME: {first = 4 : i64, last = 5 : i64, {{.*}}, offset = 64 : i64, op = "memref.copy", size = 48 : i64}
// CHECK-SAME: lower_bound_bytes = 96 : i64, peak_bytes = 128 : i64
// CHECK-LABEL: func.func @views
func.func @views(%in: memref<3x4xf32>, %out: memref<12xf32>) {
  %a = memref.alloc() : memref<3x4xf32>
  memref.copy %in, %a : memref<3x4xf32> to memref<3x4xf32>
  %flat = memref.collapse_shape %a [[0, 1]] : memref<3x4xf32> into memref<12xf32>
  %b = memref.alloc() : memref<3x4xf32>
  memref.copy %in, %b : memref<3x4xf32> to memref<3x4xf32>
  memref.copy %b, %in : memref<3x4xf32> to memref<3x4xf32>
  memref.copy %flat, %out : memref<12xf32> to memref<12xf32>
  return
}

// -----

// Views of views, and subviews, are followed too.
// CHECK: kiln.arena_bytes = 256 : i64
// CHECK-SAME: {first = 1 : i64, last = 6 : i64, {{.*}}, offset = 0 : i64, op = "memref.copy", size = 128 : i64}
// CHECK-SAME: {first = 4 : i64, last = 4 : i64, {{.*}}, offset = 128 : i64, op = "memref.copy", size = 128 : i64}
func.func @subviews(%in: memref<32xf32>, %out: memref<4xf32>) {
  %a = memref.alloc() : memref<32xf32>
  memref.copy %in, %a : memref<32xf32> to memref<32xf32>
  %s = memref.subview %a[8] [8] [1] : memref<32xf32> to memref<8xf32, strided<[1], offset: 8>>
  %b = memref.alloc() : memref<32xf32>
  memref.copy %in, %b : memref<32xf32> to memref<32xf32>
  %t = memref.subview %s[4] [4] [1] : memref<8xf32, strided<[1], offset: 8>> to memref<4xf32, strided<[1], offset: 12>>
  memref.copy %t, %out : memref<4xf32, strided<[1], offset: 12>> to memref<4xf32>
  return
}

// -----

// In place: the elementwise generic reads %a for the last time at the index
// it writes %b, so %b takes %a's offset.
#id = affine_map<(d0) -> (d0)>
// CHECK: kiln.arena_bytes = 64 : i64
// CHECK-SAME: {first = 1 : i64, last = 3 : i64, {{.*}}, offset = 0 : i64, op = "memref.copy", size = 64 : i64}
// CHECK-SAME: {first = 3 : i64, in_place_of = 0 : i64, last = 4 : i64, {{.*}}, offset = 0 : i64, op = "linalg.generic", size = 64 : i64}
// CHECK-SAME: kernels = 3 : i64, lower_bound_bytes = 64 : i64, peak_bytes = 64 : i64
// CHECK-LABEL: func.func @in_place
func.func @in_place(%in: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  return
}

// -----

// Not in place: %a is read again after the generic.
#id = affine_map<(d0) -> (d0)>
// CHECK: kiln.arena_bytes = 128 : i64
// CHECK-NOT: in_place_of
// CHECK-LABEL: func.func @input_still_live
func.func @input_still_live(%in: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  memref.copy %a, %out : memref<16xf32> to memref<16xf32>
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  return
}

// -----

// Not in place: a transpose reads other indices than it writes.
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
// CHECK: kiln.arena_bytes = 128 : i64
// CHECK-NOT: in_place_of
// CHECK-LABEL: func.func @transpose
func.func @transpose(%in: memref<4x4xf32>, %out: memref<4x4xf32>) {
  %a = memref.alloc() : memref<4x4xf32>
  memref.copy %in, %a : memref<4x4xf32> to memref<4x4xf32>
  %b = memref.alloc() : memref<4x4xf32>
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4x4xf32>) outs(%b : memref<4x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  memref.copy %b, %out : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

// Not in place: the same buffer is also read through a transposed view.
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: kiln.memory_plan
// CHECK-NOT: in_place_of
// CHECK-LABEL: func.func @aliased_input
func.func @aliased_input(%in: memref<4x4xf32>, %out: memref<4x4xf32>) {
  %a = memref.alloc() : memref<4x4xf32>
  memref.copy %in, %a : memref<4x4xf32> to memref<4x4xf32>
  %t = memref.transpose %a (d0, d1) -> (d1, d0) : memref<4x4xf32> to memref<4x4xf32, strided<[1, 4]>>
  %b = memref.alloc() : memref<4x4xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %t : memref<4x4xf32>, memref<4x4xf32, strided<[1, 4]>>) outs(%b : memref<4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  memref.copy %b, %out : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

// A buffer passed to an op the pass cannot see through (here a call) stays
// live to the last step (the return), so the later buffer cannot reuse its
// memory.
// CHECK: kiln.arena_bytes = 128 : i64
// CHECK-SAME: {first = 1 : i64, last = 6 : i64, {{.*}}, offset = 0 : i64, op = "memref.copy", size = 64 : i64}
// CHECK-SAME: {first = 4 : i64, last = 5 : i64, {{.*}}, offset = 64 : i64, op = "memref.copy", size = 64 : i64}
// CHECK-LABEL: func.func @unknown_use
func.func private @sink(memref<16xf32>)
func.func @unknown_use(%in: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  func.call @sink(%a) : (memref<16xf32>) -> ()
  %b = memref.alloc() : memref<16xf32>
  memref.copy %in, %b : memref<16xf32> to memref<16xf32>
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  return
}

// -----

// A function without intermediates still takes an (empty) arena, so every
// entry point has the same calling convention; private functions are left
// alone.
// CHECK: module attributes {kiln.arena_bytes = 0 : i64, kiln.memory_plan = [{buffers = [], function = "none", kernels = 0 : i64, lower_bound_bytes = 0 : i64, peak_bytes = 0 : i64, steps = 1 : i64, unplanned_kernel_buffers_bytes = 0 : i64}]}
// CHECK-LABEL: func.func @none
// CHECK-SAME: (%{{.*}}: memref<2xf32>, %{{.*}}: memref<0xi8>)
// CHECK-LABEL: func.func private @helper
// CHECK: memref.alloc
func.func @none(%x: memref<2xf32>) {
  return
}
func.func private @helper() {
  %a = memref.alloc() : memref<8xf32>
  return
}

// -----

// A returned buffer escapes: live to the end, and never given away in place.
#id = affine_map<(d0) -> (d0)>
// CHECK: kiln.memory_plan
// CHECK-SAME: {first = 1 : i64, last = 4 : i64, {{.*}}, offset = 0 : i64, op = "memref.copy", size = 64 : i64}
// CHECK-SAME: {first = 3 : i64, last = 3 : i64, {{.*}}, offset = 64 : i64, op = "linalg.generic", size = 64 : i64}
// CHECK-LABEL: func.func @escapes
func.func @escapes(%in: memref<16xf32>) -> memref<16xf32> {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return %a : memref<16xf32>
}

// -----

// Not in place: the payload also loads from the input at another index.
#id = affine_map<(d0) -> (d0)>
// CHECK: kiln.memory_plan
// CHECK-NOT: in_place_of
// CHECK-LABEL: func.func @captured_input
func.func @captured_input(%in: memref<16xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%x: f32, %y: f32):
    %first = memref.load %a[%c0] : memref<16xf32>
    %s = arith.addf %x, %first : f32
    linalg.yield %s : f32
  }
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  return
}

// -----

// The graph's naive allocation, counted before lowering by
// kiln-record-graph-tensor-bytes, is recorded as the plan's unplanned_bytes
// (next to the kernel buffers' total) and removed from the function.
// CHECK: kiln.memory_plan = [{buffers = [{{.*}}], function = "counted",
// CHECK-SAME: unplanned_bytes = 4096 : i64, unplanned_kernel_buffers_bytes = 64 : i64}]
// CHECK-LABEL: func.func @counted
// CHECK-NOT: kiln.graph_tensor_bytes
func.func @counted(%in: memref<16xf32>, %out: memref<16xf32>) attributes {kiln.graph_tensor_bytes = 4096 : i64} {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  memref.copy %a, %out : memref<16xf32> to memref<16xf32>
  return
}

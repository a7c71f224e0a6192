// RUN: kiln-opt %s --kiln-form-cpu-dispatches="min-work-per-workgroup=64 max-workgroups=4" -split-input-file -verify-diagnostics | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>

// Tests that an elementwise chain becomes one dispatch per op, each split
// into row chunks, the second waiting for the first (it reads what the
// first wrote into the arena) and the entry replaced by the program.
// CHECK-LABEL: func.func private @chain_d0
// CHECK-SAME:    (%[[IN:.*]]: memref<64x32xf32>, %{{.*}}: memref<64x32xf32>, %[[ARENA:.*]]: memref<8192xi8>, %[[BEGIN:.*]]: index, %[[END:.*]]: index)
// CHECK:         scf.for %[[WG:.*]] = %[[BEGIN]] to %[[END]]
// CHECK:           %[[OFF:.*]] = arith.muli %[[WG]], %c16
// CHECK:           %[[VIEW:.*]] = memref.view %[[ARENA]]
// CHECK-DAG:       memref.subview %[[IN]][%[[OFF]], 0] [16, 32] [1, 1]
// CHECK-DAG:       memref.subview %[[VIEW]][%[[OFF]], 0] [16, 32] [1, 1]
// CHECK:           linalg.generic
// CHECK:             math.exp
// CHECK-LABEL: func.func private @chain_d1
// CHECK:           math.absf
// CHECK-NOT:   func.func @chain(
// CHECK-LABEL: exec.program @chain device(cpu) inputs(1) outputs(1) arena(8192) {
// CHECK-NEXT:    %[[D0:.*]] = exec.dispatch @chain_d0 grid [4, 1, 1] bindings [#exec.binding<input 0[0 : 8192] read>, #exec.binding<arena[0 : 8192] write>]
// CHECK-NEXT:    exec.dispatch @chain_d1 grid [4, 1, 1] after(%[[D0]]) bindings [#exec.binding<arena[0 : 8192] read>, #exec.binding<output 0[0 : 8192] write>]
// CHECK-NEXT:  }
func.func @chain(%in: memref<64x32xf32>, %out: memref<64x32xf32>, %arena: memref<8192xi8>)
    attributes {exec.interface = array<i32: 1, 1>} {
  %c0 = arith.constant 0 : index
  %v = memref.view %arena[%c0][] : memref<8192xi8> to memref<64x32xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%in : memref<64x32xf32>) outs(%v : memref<64x32xf32>) {
  ^bb0(%a: f32, %b: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v : memref<64x32xf32>) outs(%out : memref<64x32xf32>) {
  ^bb0(%a: f32, %b: f32):
    %e = math.absf %a : f32
    linalg.yield %e : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Tests that dispatches touching different bytes wait for nothing, and
// that 7 rows in chunks of 3 give a last workgroup of 1 row of its own
// (no chunk of 3 to 6 rows divides 7).
// CHECK-LABEL: func.func private @independent_d0
// CHECK:         %[[LAST:.*]] = arith.cmpi eq, %{{.*}}, %c2
// CHECK:         scf.if %[[LAST]] {
// CHECK:           memref.subview %{{.*}}[%{{.*}}, 0] [1, 32] [1, 1]
// CHECK:         } else {
// CHECK:           memref.subview %{{.*}}[%{{.*}}, 0] [3, 32] [1, 1]
// CHECK-LABEL: exec.program @independent
// CHECK-NEXT:    exec.dispatch @independent_d0 grid [3, 1, 1] bindings
// CHECK-NEXT:    exec.dispatch @independent_d1 grid [3, 1, 1] bindings
// CHECK-NOT:     after
func.func @independent(%in: memref<7x32xf32>, %out0: memref<7x32xf32>, %out1: memref<7x32xf32>, %arena: memref<0xi8>)
    attributes {exec.interface = array<i32: 1, 2>} {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%in : memref<7x32xf32>) outs(%out0 : memref<7x32xf32>) {
  ^bb0(%a: f32, %b: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%in : memref<7x32xf32>) outs(%out1 : memref<7x32xf32>) {
  ^bb0(%a: f32, %b: f32):
    %e = math.absf %a : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// Tests that a fusion group (fill, matmul, epilogue) shares one split of
// the rows it writes, in chunks of 8 (register-tile rows), while the
// weights are read whole.
// CHECK-LABEL: func.func private @group_d0
// CHECK:         scf.for
// CHECK:           %[[OFF:.*]] = arith.muli %{{.*}}, %c8
// CHECK:           linalg.fill {{.*}} outs(%{{.*}} : memref<8x64xf32, strided<[64, 1], offset: ?>>)
// CHECK:           linalg.matmul {{.*}} ins(%{{.*}}, %{{.*}} : memref<8x16xf32, strided<[16, 1], offset: ?>>, memref<16x64xf32>)
// CHECK:           linalg.generic
// CHECK-NOT:   func.func private @group_d1
// CHECK-LABEL: exec.program @group
// CHECK-NEXT:    exec.dispatch @group_d0 grid [4, 1, 1] bindings [#exec.binding<output 0[0 : 8192] read_write>, #exec.binding<input 0[0 : 2048] read>, #exec.binding<input 1[0 : 4096] read>]
func.func @group(%a: memref<32x16xf32>, %w: memref<16x64xf32>, %out: memref<32x64xf32>, %arena: memref<0xi8>)
    attributes {exec.interface = array<i32: 2, 1>} {
  %zero = arith.constant 0.0 : f32
  linalg.fill {kiln.group = "g"} ins(%zero : f32) outs(%out : memref<32x64xf32>)
  linalg.matmul {kiln.group = "g"} ins(%a, %w : memref<32x16xf32>, memref<16x64xf32>) outs(%out : memref<32x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      outs(%out : memref<32x64xf32>) attrs = {kiln.group = "g"} {
  ^bb0(%o: f32):
    %r = arith.maximumf %o, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Tests that a matmul with one row splits its columns (in multiples of
// 32), apart from its fill: sharing the fill's split of one row would run
// both as one workgroup.
// CHECK-LABEL: func.func private @one_row_d1
// CHECK:         arith.muli %{{.*}}, %c64
// CHECK:         linalg.matmul {{.*}} outs(%{{.*}} : memref<1x64xf32, strided<[256, 1], offset: ?>>)
// CHECK-LABEL: exec.program @one_row
// CHECK-NEXT:    %[[FILL:.*]] = exec.dispatch @one_row_d0 grid [4, 1, 1] bindings [#exec.binding<output 0[0 : 1024] write>]
// CHECK-NEXT:    exec.dispatch @one_row_d1 grid [4, 1, 1] after(%[[FILL]])
func.func @one_row(%a: memref<1x64xf32>, %w: memref<64x256xf32>, %out: memref<1x256xf32>, %arena: memref<0xi8>)
    attributes {exec.interface = array<i32: 2, 1>} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<1x256xf32>)
  linalg.matmul ins(%a, %w : memref<1x64xf32>, memref<64x256xf32>) outs(%out : memref<1x256xf32>)
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Tests that ops too small to split, and an op that reads linalg.index,
// run as one workgroup, and that small neighbours merge into one dispatch.
// CHECK-LABEL: func.func private @no_split_d0
// CHECK-NOT:     scf.for
// CHECK:         linalg.generic
// CHECK:           linalg.index
// CHECK:         linalg.generic
// CHECK:           math.absf
// CHECK-LABEL: exec.program @no_split
// CHECK-NEXT:    exec.dispatch @no_split_d0 grid [1, 1, 1]
// CHECK-NEXT:  }
func.func @no_split(%in: memref<2x4xf32>, %out: memref<2x4xf32>, %arena: memref<0xi8>)
    attributes {exec.interface = array<i32: 1, 1>} {
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%out : memref<2x4xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    linalg.yield %f : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%in : memref<2x4xf32>) outs(%out : memref<2x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %e = math.absf %a : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// Tests that a buffer the schedule cannot place (a private allocation)
// makes the whole function one dispatch binding the whole interface.
// CHECK-LABEL: exec.program @unplaced
// CHECK-NEXT:    exec.dispatch @unplaced_d0 grid [1, 1, 1] bindings [#exec.binding<input 0[0 : 16] read>, #exec.binding<output 0[0 : 16] read_write>, #exec.binding<arena[0 : 0] read_write>]
// CHECK-NEXT:  }
func.func @unplaced(%in: memref<4xf32>, %out: memref<4xf32>, %arena: memref<0xi8>)
    attributes {exec.interface = array<i32: 1, 1>} {
  %tmp = memref.alloca() : memref<4xf32>
  memref.copy %in, %tmp : memref<4xf32> to memref<4xf32>
  memref.copy %tmp, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// expected-error @+1 {{cannot schedule 'no_arena': its last parameter is not the arena}}
func.func @no_arena(%in: memref<4xf32>, %out: memref<4x4xf32>)
    attributes {exec.interface = array<i32: 0, 1>} {
  return
}

// -----

// expected-error @+1 {{cannot schedule 'counts': expected one block and parameters (inputs, outputs, arena) after memory planning}}
func.func @counts(%in: memref<4xf32>, %arena: memref<0xi8>)
    attributes {exec.interface = array<i32: 1, 1>} {
  return
}

// -----

// expected-error @+1 {{exec.interface must be [inputs, results]}}
func.func @malformed(%arena: memref<0xi8>) attributes {exec.interface = array<i32: 1>} {
  return
}

// -----

// Tests that a matmul whose weights do not stay in a core's cache (2 MiB
// here) splits its columns, so that each workgroup reads only its own
// panel of them, and so runs apart from its fill (which splits rows):
// split by rows, every workgroup would stream all the weights.
// CHECK-LABEL: func.func private @wide_weights_d0
// CHECK:         linalg.fill {{.*}} outs(%{{.*}} : memref<16x1024xf32, strided<[1024, 1], offset: ?>>)
// CHECK-LABEL: func.func private @wide_weights_d1
// CHECK:         arith.muli %{{.*}}, %c256
// CHECK:         linalg.matmul {{.*}} ins(%{{.*}}, %{{.*}} : memref<64x512xf32>, memref<512x256xf32, strided<[1024, 1], offset: ?>>) outs(%{{.*}} : memref<64x256xf32, strided<[1024, 1], offset: ?>>)
// CHECK-LABEL: exec.program @wide_weights
// CHECK-NEXT:    exec.dispatch @wide_weights_d0 grid [4, 1, 1]
// CHECK-NEXT:    exec.dispatch @wide_weights_d1 grid [4, 1, 1]
func.func @wide_weights(%a: memref<64x512xf32>, %w: memref<512x1024xf32>, %out: memref<64x1024xf32>, %arena: memref<0xi8>)
    attributes {exec.interface = array<i32: 2, 1>} {
  %zero = arith.constant 0.0 : f32
  linalg.fill {kiln.group = "g"} ins(%zero : f32) outs(%out : memref<64x1024xf32>)
  linalg.matmul {kiln.group = "g"} ins(%a, %w : memref<64x512xf32>, memref<512x1024xf32>) outs(%out : memref<64x1024xf32>)
  return
}

// -----

// Tests that a product over panels of packed weights (a convolution on a
// small map with its channels as columns: 6 panels of 32 channels, 384 KiB)
// splits its panels, two per workgroup: a panel is not a register tile's
// row, so it needs no alignment to eight (which would leave one workgroup),
// and split by pixels every workgroup would read all the weights.
// CHECK-LABEL: func.func private @panels_d0
// CHECK:         arith.muli %{{.*}}, %c2
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : memref<1x512x49xf32>, memref<2x512x32xf32, strided<[16384, 32, 1], offset: ?>>)
// CHECK-LABEL: exec.program @panels
// CHECK-NEXT:    exec.dispatch @panels_d0 grid [3, 1, 1]
func.func @panels(%col: memref<1x512x49xf32>, %w: memref<6x512x32xf32>, %out: memref<1x49x6x32xf32>, %arena: memref<0xi8>)
    attributes {exec.interface = array<i32: 2, 1>} {
  linalg.generic {indexing_maps = [affine_map<(n, ob, p, oi, r) -> (n, r, p)>, affine_map<(n, ob, p, oi, r) -> (ob, r, oi)>, affine_map<(n, ob, p, oi, r) -> (n, p, ob, oi)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%col, %w : memref<1x512x49xf32>, memref<6x512x32xf32>) outs(%out : memref<1x49x6x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

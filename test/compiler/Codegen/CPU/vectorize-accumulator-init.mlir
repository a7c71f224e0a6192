// RUN: kiln-opt %s --kiln-vectorize-linalg="register-rows=8 register-columns=32 vector-lanes=16 cache-depth=16" -split-input-file | FileCheck %s

// A contraction with an initial value (kiln-fold-accumulator-fills) starts
// each register tile's accumulators from that value in registers: no fill
// pass, no read of the output, one write of each tile. The 13 rows make a
// full 8-row tile and a peeled 5-row one; both start from the constant.
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @one_block
// CHECK-DAG: %[[ZERO8:.*]] = arith.constant dense<0.000000e+00> : vector<8x32xf32>
// CHECK-DAG: %[[ZERO5:.*]] = arith.constant dense<0.000000e+00> : vector<5x32xf32>
// CHECK-NOT: linalg.fill
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO8]]) -> (vector<8x32xf32>)
// CHECK: vector.transfer_write {{.*}} : vector<8x32xf32>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO5]]) -> (vector<5x32xf32>)
// CHECK: vector.transfer_write {{.*}} : vector<5x32xf32>
// CHECK-NOT: vector.transfer_write
// CHECK-NOT: kiln.accumulator_init
func.func @one_block(%a: memref<13x16xf32>, %b: memref<16x32xf32>, %c: memref<13x32xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<13x16xf32>, memref<16x32xf32>) outs(%c : memref<13x32xf32>)
    attrs = {kiln.accumulator_init = 0.0 : f32} {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A reduction of several cache blocks (40 = 14 + 13 + 13 at depth 16): the
// first block starts from the value, the others accumulate onto it (here
// one register tile covers the output, so all of it stays in registers).
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @blocks
// CHECK-DAG: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : vector<8x32xf32>
// CHECK: %[[FIRST:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ONE]]) -> (vector<8x32xf32>)
// CHECK-NOT: vector.transfer_write
// CHECK: scf.for {{.*}} step %c13 iter_args(%{{.*}} = %[[FIRST]]) -> (vector<8x32xf32>)
// CHECK: vector.transfer_write
// CHECK-NOT: vector.transfer_write
// CHECK-NOT: kiln.accumulator_init
func.func @blocks(%a: memref<8x40xf32>, %b: memref<40x32xf32>, %c: memref<8x32xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<8x40xf32>, memref<40x32xf32>) outs(%c : memref<8x32xf32>)
    attrs = {kiln.accumulator_init = 1.0 : f32} {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Too narrow to vectorise (2 columns): the fill goes back in front of the
// op, which scalar loops then run as before.
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @narrow
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<8x2xf32>)
// CHECK-NEXT: linalg.generic
// CHECK-NOT: kiln.accumulator_init
func.func @narrow(%a: memref<8x16xf32>, %b: memref<16x2xf32>, %c: memref<8x2xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<8x16xf32>, memref<16x2xf32>) outs(%c : memref<8x2xf32>)
    attrs = {kiln.accumulator_init = 0.0 : f32} {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Not only contractions: a max pool's windows start from -inf in
// registers, with no fill of the output.
#in = affine_map<(c, oh, kh, kw, ow) -> (c, oh * 2 + kh, ow * 2 + kw)>
#win = affine_map<(c, oh, kh, kw, ow) -> (kh, kw)>
#out = affine_map<(c, oh, kh, kw, ow) -> (c, oh, ow)>
// CHECK-LABEL: func.func @max_pool
// CHECK: %[[NINF:.*]] = arith.constant dense<0xFF800000> : vector<1x1x16xf32>
// CHECK-NOT: linalg.fill
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[NINF]]) -> (vector<1x1x16xf32>)
// CHECK: vector.transfer_write
// CHECK-NOT: vector.transfer_write
// CHECK-NOT: kiln.accumulator_init
func.func @max_pool(%in: memref<4x33x33xf32>, %window: memref<3x3xf32>, %out: memref<4x16x16xf32>) {
  linalg.generic {indexing_maps = [#in, #win, #out], iterator_types = ["parallel", "parallel", "reduction", "reduction", "parallel"]}
    ins(%in, %window : memref<4x33x33xf32>, memref<3x3xf32>) outs(%out : memref<4x16x16xf32>)
    attrs = {kiln.accumulator_init = 0xFF800000 : f32} {
  ^bb0(%x: f32, %unused: f32, %acc: f32):
    %m = arith.maximumf %acc, %x : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A row reduction with an initial value (a row sum whose zero fill was
// folded: softmax, layer norm, a global pool) reduces along its innermost
// loop, the vector's: 16 lanes a step, not one element (stepped by one it
// was scalar, and softmax over 1000 x 1000 took 11 ms instead of 1), its
// partial vector carried in registers and reduced after the loop.
// CHECK-LABEL: func.func @row_sum_init
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c64 iter_args({{.*}}) -> (vector<1xf32>, vector<1x16xf32>, vector<1x16xf32>, vector<1x16xf32>, vector<1x16xf32>)
// CHECK: arith.addf %{{.*}} : vector<1x16xf32>
// CHECK: vector.multi_reduction <add>, %{{.*}} [1] : vector<1x16xf32> to vector<1xf32>
// CHECK-NOT: kiln.accumulator_init
func.func @row_sum_init(%x: memref<8x1024xf32>, %sum: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m)>],
                  iterator_types = ["parallel", "reduction"]}
    ins(%x : memref<8x1024xf32>) outs(%sum : memref<8xf32>)
    attrs = {kiln.accumulator_init = 0.0 : f32} {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  }
  return
}

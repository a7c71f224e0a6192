// RUN: kiln-opt %s --kiln-fold-accumulator-fills -split-input-file | FileCheck %s

// The zero fill of a contraction's output moves onto the contraction as
// its accumulators' initial value (AccumulatorInit.h); pure ops between
// the two do not matter.
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @folds
// CHECK-NOT: linalg.fill
// CHECK: linalg.generic
// CHECK-SAME: kiln.accumulator_init = 0.000000e+00 : f32
func.func @folds(%a: memref<16x40xf32>, %b: memref<40x64xf32>, %c: memref<16x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<16x64xf32>)
  %unused = arith.constant 1 : index
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<16x40xf32>, memref<40x64xf32>) outs(%c : memref<16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Any f32 reduction: a max pool's -inf fill moves onto the pool.
#in = affine_map<(c, oh, kh, kw, ow) -> (c, oh * 2 + kh, ow * 2 + kw)>
#win = affine_map<(c, oh, kh, kw, ow) -> (kh, kw)>
#out = affine_map<(c, oh, kh, kw, ow) -> (c, oh, ow)>
// CHECK-LABEL: func.func @max_pool
// CHECK-NOT: linalg.fill
// CHECK: linalg.generic
// CHECK-SAME: kiln.accumulator_init = 0xFF800000 : f32
func.func @max_pool(%in: memref<4x33x33xf32>, %window: memref<3x3xf32>, %out: memref<4x16x16xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  linalg.fill ins(%ninf : f32) outs(%out : memref<4x16x16xf32>)
  linalg.generic {indexing_maps = [#in, #win, #out], iterator_types = ["parallel", "parallel", "reduction", "reduction", "parallel"]}
    ins(%in, %window : memref<4x33x33xf32>, memref<3x3xf32>) outs(%out : memref<4x16x16xf32>) {
  ^bb0(%x: f32, %unused: f32, %acc: f32):
    %m = arith.maximumf %acc, %x : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A fill of a value computed at run time, a write between the fill and
// the contraction, a contraction on another buffer, one reading its output
// as an input, an integer contraction and an elementwise op (no reduction)
// all keep their fills.
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
// CHECK-LABEL: func.func @keeps
// CHECK-NOT: kiln.accumulator_init
// CHECK-COUNT-6: linalg.fill
// CHECK-NOT: kiln.accumulator_init
func.func @keeps(%a: memref<16x16xf32>, %b: memref<16x16xf32>, %c: memref<16x16xf32>,
                 %d: memref<16x16xf32>, %v: f32, %ia: memref<16x16xi32>, %ic: memref<16x16xi32>) {
  %zero = arith.constant 0.0 : f32
  %izero = arith.constant 0 : i32
  linalg.fill ins(%v : f32) outs(%c : memref<16x16xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<16x16xf32>, memref<16x16xf32>) outs(%c : memref<16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.fill ins(%zero : f32) outs(%c : memref<16x16xf32>)
  memref.copy %d, %a : memref<16x16xf32> to memref<16x16xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<16x16xf32>, memref<16x16xf32>) outs(%c : memref<16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.fill ins(%zero : f32) outs(%d : memref<16x16xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<16x16xf32>, memref<16x16xf32>) outs(%c : memref<16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.fill ins(%zero : f32) outs(%c : memref<16x16xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%c, %b : memref<16x16xf32>, memref<16x16xf32>) outs(%c : memref<16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.fill ins(%izero : i32) outs(%ic : memref<16x16xi32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%ia, %ia : memref<16x16xi32>, memref<16x16xi32>) outs(%ic : memref<16x16xi32>) {
  ^bb0(%x: i32, %y: i32, %acc: i32):
    %p = arith.muli %x, %y : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }
  linalg.fill ins(%zero : f32) outs(%c : memref<16x16xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%a : memref<16x16xf32>) outs(%c : memref<16x16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  return
}

// The printer decides nothing: renumbered by hand so that the epilogue is
// a kernel of its own and the fill too, the same IR prints as three
// kernels: the contraction accumulates onto the filled buffer and stores
// its product, which the epilogue kernel reads back.
// RUN: kiln-translate --kiln-mlir-to-cuda %s | FileCheck %s

// CHECK: // kiln_k0: elementwise
// CHECK: // kiln_k1: tensor-core contraction
// CHECK-NOT: // epilogue
// CHECK: p[[P:[0-9]]][0 + fm * 16 + fn] = (p[[P]][0 + fm * 16 + fn]) + Cs[r][cc];
// CHECK: // kiln_k2: elementwise
// CHECK: // launch kiln_k0 grid {{.*}} args arena:0+0:1024
// CHECK: // launch kiln_k1 grid {{.*}} args input:0+0:512 input:1+0:512 arena:0+0:1024
// CHECK: // launch kiln_k2 grid {{.*}} args arena:0+0:1024 input:2+0:64 output:0+0:1024
#map = affine_map<(d0, d1) -> ()>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map5 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @gemm_bias_relu(%arg0: memref<16x8xf32>, %arg1: memref<8x16xf32>, %arg2: memref<16xf32>, %arg3: memref<16x16xf32>, %arg4: memref<1024xi8>) attributes {exec.interface = array<i32: 3, 1>} {
    %cst = arith.constant 0.000000e+00 : f32
    %c0 = arith.constant 0 : index
    %view = memref.view %arg4[%c0][] : memref<1024xi8> to memref<16x16xf32>
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst : f32) outs(%view : memref<16x16xf32>) attrs =  {kiln.kernel = 0 : i64} {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : memref<16x8xf32>, memref<8x16xf32>) outs(%view : memref<16x16xf32>) attrs =  {kiln.kernel = 1 : i64} {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %0 = arith.mulf %in, %in_0 : f32
      %1 = arith.addf %out, %0 : f32
      linalg.yield %1 : f32
    }
    linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel"]} ins(%view, %arg2 : memref<16x16xf32>, memref<16xf32>) outs(%arg3 : memref<16x16xf32>) attrs =  {kiln.kernel = 2 : i64} {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %0 = arith.addf %in, %in_0 : f32
      %1 = arith.maximumf %0, %cst : f32
      linalg.yield %1 : f32
    }
    return
  }
}

// RUN: kiln-opt %s --kiln-cpu-lower-to-llvm-pipeline | FileCheck %s

// Tests the last CPU stage on a dispatch function: the elementwise loop is
// vectorised and everything is in the LLVM dialect.
// CHECK:       llvm.func @ew_d0(
// CHECK:         llvm.intr.maximum({{.*}}vector<16xf32>
// CHECK-NOT:     linalg.
// CHECK-NOT:     memref.
// CHECK-NOT:     scf.
func.func private @ew_d0(%in: memref<64x64xf32>, %out: memref<64x64xf32>, %arena: memref<0xi8>, %begin: index, %end: index) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%in : memref<64x64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// kiln-verify-cuda-kernels: every way prepared IR can break the printer's
// contract, one function each.
// RUN: kiln-opt %s --split-input-file --kiln-verify-cuda-kernels --verify-diagnostics

#id = affine_map<(d0, d1) -> (d0, d1)>
#scalar = affine_map<(d0, d1) -> ()>
func.func @not_a_generic(%a: memref<4x4xf32>, %b: memref<4x4xf32>) {
  // expected-error @below {{CUDA code generation does not support 'memref.copy' yet}}
  memref.copy %a, %b : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @no_kernel_number(%a: memref<4x4xf32>, %b: memref<4x4xf32>) {
  // expected-error @below {{this loop nest belongs to no kernel (kiln.kernel; run kiln-form-kernels)}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : memref<4x4xf32>) outs(%b : memref<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @dynamic(%a: memref<?x4xf32>, %b: memref<?x4xf32>) {
  // expected-error @below {{CUDA code generation needs static loop ranges}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : memref<?x4xf32>) outs(%b : memref<?x4xf32>) attrs = {kiln.kernel = 0 : i64} {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @split_kernel(%a: memref<4x4xf32>, %b: memref<4x4xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : memref<4x4xf32>) outs(%b : memref<4x4xf32>) attrs = {kiln.kernel = 0 : i64} {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : memref<4x4xf32>) outs(%a : memref<4x4xf32>) attrs = {kiln.kernel = 1 : i64} {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  // expected-error @below {{kernel 0 continues after another kernel; the ops of a kernel must be consecutive}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : memref<4x4xf32>) outs(%b : memref<4x4xf32>) attrs = {kiln.kernel = 0 : i64} {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @two_elementwise(%a: memref<4x4xf32>, %b: memref<4x4xf32>) {
  // expected-note @below {{another op of kernel 0}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : memref<4x4xf32>) outs(%b : memref<4x4xf32>) attrs = {kiln.kernel = 0 : i64} {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  // expected-note @below {{another op of kernel 0}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : memref<4x4xf32>) outs(%a : memref<4x4xf32>) attrs = {kiln.kernel = 0 : i64} {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  // expected-note @below {{another op of kernel 0}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : memref<4x4xf32>) outs(%b : memref<4x4xf32>) attrs = {kiln.kernel = 0 : i64} {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  // expected-error @below {{kernel 0 is not an optional fill, a loop nest and an optional epilogue of a contraction}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : memref<4x4xf32>) outs(%a : memref<4x4xf32>) attrs = {kiln.kernel = 0 : i64} {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#scalar = affine_map<(d0, d1) -> ()>
func.func @fill_not_reduced(%a: memref<4x4xf32>, %b: memref<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#scalar, #id], iterator_types = ["parallel", "parallel"]} ins(%zero : f32) outs(%b : memref<4x4xf32>) attrs = {kiln.kernel = 0 : i64} {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  // expected-error @below {{kernel 0 starts with a fill, but this loop nest does not reduce into the filled buffer alone}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : memref<4x4xf32>) outs(%b : memref<4x4xf32>) attrs = {kiln.kernel = 0 : i64} {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#scalar = affine_map<(d0, d1) -> ()>
#row = affine_map<(d0, d1) -> (d0, 0)>
func.func @fill_without_literal(%a: memref<4x4xf32>, %b: memref<4x1xf32>) {
  %poison = ub.poison : f32
  // expected-error @below {{the initial value of kernel 0 has no CUDA literal}}
  linalg.generic {indexing_maps = [#scalar, #id], iterator_types = ["parallel", "parallel"]} ins(%poison : f32) outs(%b : memref<4x1xf32>) attrs = {kiln.kernel = 0 : i64} {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%a : memref<4x4xf32>) outs(%b : memref<4x1xf32>) attrs = {kiln.kernel = 0 : i64} {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d0, d1)>
func.func @epilogue_after_reduction(%a: memref<4x4xf32>, %b: memref<4x1xf32>, %c: memref<4x1xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%a : memref<4x4xf32>) outs(%b : memref<4x1xf32>) attrs = {kiln.kernel = 0 : i64} {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  // expected-error @below {{an epilogue in kernel 0 follows a loop nest that is not a contraction}}
  linalg.generic {indexing_maps = [#col, #col], iterator_types = ["parallel", "parallel"]} ins(%b : memref<4x1xf32>) outs(%c : memref<4x1xf32>) attrs = {kiln.kernel = 0 : i64} {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

// -----

#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
func.func @epilogue_reduces(%x: memref<4x8xf32>, %w: memref<8x4xf32>, %p: memref<4x4xf32>, %r: memref<4x1xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<4x8xf32>, memref<8x4xf32>) outs(%p : memref<4x4xf32>) attrs = {kiln.kernel = 0 : i64} {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  }
  // expected-error @below {{the epilogue of kernel 0 has reduction loops}}
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%p : memref<4x4xf32>) outs(%r : memref<4x1xf32>) attrs = {kiln.kernel = 0 : i64} {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  return
}

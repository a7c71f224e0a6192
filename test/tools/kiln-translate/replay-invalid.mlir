// What the replay refuses, with the place and the reason.
// RUN: kiln-translate --kiln-mlir-to-cuda %s --split-input-file --verify-diagnostics

// expected-error @below {{CUDA code generation: no function has an exec.interface (prepare the module with kiln-cuda-pipeline)}}
module {
  func.func @f(%arg0: memref<4xf32>, %arg1: memref<4xf32>, %arg2: memref<64xi8>) {
    return
  }
}

// -----

module {
  func.func @f(%arg0: memref<4xf32>, %arg1: memref<4xf32>, %arg2: memref<64xi8>) attributes {exec.interface = array<i32: 1, 1>} {
    return
  }
  // expected-error @below {{CUDA code generation prints one entry; 'f' has an exec.interface too}}
  func.func @g(%arg0: memref<4xf32>, %arg1: memref<4xf32>, %arg2: memref<64xi8>) attributes {exec.interface = array<i32: 1, 1>} {
    return
  }
}

// -----

module {
  // expected-error @below {{exec.interface must be [inputs, results] of a function taking inputs, outputs and the arena}}
  func.func @f(%arg0: memref<4xf32>, %arg1: memref<4xf32>) attributes {exec.interface = array<i32: 1, 1>} {
    return
  }
}

// -----

module {
  // expected-error @below {{CUDA code generation needs an entry of one block}}
  func.func @f(%arg0: memref<4xf32>, %arg1: memref<4xf32>, %arg2: memref<64xi8>) attributes {exec.interface = array<i32: 1, 1>} {
    cf.br ^bb1
  ^bb1:
    return
  }
}

// -----

// A batched contraction with more batches than a grid has blocks (65535)
// is a serial reduction kernel, which cannot apply an epilogue.
#a = affine_map<(b, m, n, k) -> (b, m, k)>
#b = affine_map<(b, m, n, k) -> (b, k, n)>
#c = affine_map<(b, m, n, k) -> (b, m, n)>
#e = affine_map<(b, m, n) -> (b, m, n)>
module {
  func.func @f(%x: memref<70000x2x2xf32>, %w: memref<70000x2x2xf32>, %out: memref<70000x2x2xf32>, %arena: memref<1120000xi8>) attributes {exec.interface = array<i32: 2, 1>} {
    %c0 = arith.constant 0 : index
    %p = memref.view %arena[%c0][] : memref<1120000xi8> to memref<70000x2x2xf32>
    linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : memref<70000x2x2xf32>, memref<70000x2x2xf32>) outs(%p : memref<70000x2x2xf32>) attrs = {kiln.kernel = 0 : i64} {
    ^bb0(%in: f32, %in_0: f32, %acc: f32):
      %m = arith.mulf %in, %in_0 : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    }
    // expected-error @below {{CUDA code generation: this epilogue's contraction is too large for a tiled kernel's grid, which alone applies epilogues}}
    linalg.generic {indexing_maps = [#e, #e], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : memref<70000x2x2xf32>) outs(%out : memref<70000x2x2xf32>) attrs = {kiln.kernel = 0 : i64} {
    ^bb0(%in: f32, %o: f32):
      %r = arith.negf %in : f32
      linalg.yield %r : f32
    }
    return
  }
}

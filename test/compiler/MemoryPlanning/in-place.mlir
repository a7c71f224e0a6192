// RUN: kiln-opt %s --kiln-test-print-buffer-liveness -split-input-file -verify-diagnostics

// In-place reuse as kiln-plan-memory decides it, printed by the test pass:
// an elementwise linalg.generic may write its output over an input buffer
// of the same size that dies there (docs/memory-planning.md, rules 1-5).

#id = affine_map<(d0) -> (d0)>
// Tests a chain: each elementwise op takes over the buffer it reads for
// the last time, so all three share one offset and the peak is one buffer.
// expected-remark @below {{plan: 8 steps, 4 kernels, 3 buffers, peak 64, lower bound 64, unplanned kernel buffers 192}}
func.func @chain(%in: memref<16xf32>, %out: memref<16xf32>) {
  // expected-remark @below {{buffer #0: 64 bytes, steps 1..3, offset 0}}
  %a = memref.alloc() : memref<16xf32>                                    // 0
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>                  // 1
  // expected-remark @below {{buffer #1: 64 bytes, steps 3..5, in place of #0, offset 0}}
  %b = memref.alloc() : memref<16xf32>                                    // 2
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {                // 3
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  // expected-remark @below {{buffer #2: 64 bytes, steps 5..6, in place of #1, offset 0}}
  %c = memref.alloc() : memref<16xf32>                                    // 4
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%b : memref<16xf32>) outs(%c : memref<16xf32>) {                // 5
  ^bb0(%x: f32, %y: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  }
  memref.copy %c, %out : memref<16xf32> to memref<16xf32>                 // 6
  return                                                                  // 7
}

// -----

#id = affine_map<(d0) -> (d0)>
// Tests that an input read again later is not taken over.
// expected-remark @below {{plan: 7 steps, 4 kernels, 2 buffers, peak 128, lower bound 128, unplanned kernel buffers 128}}
func.func @no_input_still_live(%in: memref<16xf32>, %out: memref<16xf32>) {
  // expected-remark @below {{buffer #0: 64 bytes, steps 1..4, offset 0}}
  %a = memref.alloc() : memref<16xf32>                                    // 0
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>                  // 1
  // expected-remark @below {{buffer #1: 64 bytes, steps 3..5, offset 64}}
  %b = memref.alloc() : memref<16xf32>                                    // 2
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {                // 3
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  memref.copy %a, %out : memref<16xf32> to memref<16xf32>                 // 4
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>                 // 5
  return                                                                  // 6
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
// Tests that a transpose (it reads other indices than it writes) is not
// done in place.
// expected-remark @below {{plan: 6 steps, 3 kernels, 2 buffers, peak 128, lower bound 128, unplanned kernel buffers 128}}
func.func @no_transpose(%in: memref<4x4xf32>, %out: memref<4x4xf32>) {
  // expected-remark @below {{buffer #0: 64 bytes, steps 1..3, offset 0}}
  %a = memref.alloc() : memref<4x4xf32>                                   // 0
  memref.copy %in, %a : memref<4x4xf32> to memref<4x4xf32>                // 1
  // expected-remark @below {{buffer #1: 64 bytes, steps 3..4, offset 64}}
  %b = memref.alloc() : memref<4x4xf32>                                   // 2
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4x4xf32>) outs(%b : memref<4x4xf32>) {              // 3
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  memref.copy %b, %out : memref<4x4xf32> to memref<4x4xf32>               // 4
  return                                                                  // 5
}

// -----

#id = affine_map<(d0) -> (d0)>
#sum = affine_map<(d0) -> ()>
// Tests that neither a reduction (rule 1) nor an output of another size
// (rule 3) takes over the dying input.
// expected-remark @below {{plan: 9 steps, 5 kernels, 3 buffers, peak 192, lower bound 100, unplanned kernel buffers 100}}
func.func @no_reduction_or_resize(%in: memref<16xf32>, %out: memref<f32>, %half: memref<16xf16>) {
  // expected-remark @below {{buffer #0: 64 bytes, steps 1..5, offset 0}}
  %a = memref.alloc() : memref<16xf32>                                    // 0
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>                  // 1
  // expected-remark @below {{buffer #1: 4 bytes, steps 3..6, offset 64}}
  %s = memref.alloc() : memref<f32>                                       // 2
  linalg.generic {indexing_maps = [#id, #sum], iterator_types = ["reduction"]}
      ins(%a : memref<16xf32>) outs(%s : memref<f32>) {                   // 3
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  }
  // expected-remark @below {{buffer #2: 32 bytes, steps 5..7, offset 128}}
  %h = memref.alloc() : memref<16xf16>                                    // 4
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<16xf32>) outs(%h : memref<16xf16>) {                // 5
  ^bb0(%x: f32, %y: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  memref.copy %s, %out : memref<f32> to memref<f32>                       // 6
  memref.copy %h, %half : memref<16xf16> to memref<16xf16>                // 7
  return                                                                  // 8
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
// Tests that a reshape of a whole buffer is seen through: a product [16]
// read as [4, 4] by its epilogue keeps every element at its offset.
// expected-remark @below {{plan: 7 steps, 3 kernels, 2 buffers, peak 64, lower bound 64, unplanned kernel buffers 128}}
func.func @through_reshape(%in: memref<16xf32>, %out: memref<4x4xf32>) {
  // expected-remark @below {{buffer #0: 64 bytes, steps 1..4, offset 0}}
  %a = memref.alloc() : memref<16xf32>                                    // 0
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>                  // 1
  %v = memref.expand_shape %a [[0, 1]] output_shape [4, 4]
      : memref<16xf32> into memref<4x4xf32>                               // 2
  // expected-remark @below {{buffer #1: 64 bytes, steps 4..5, in place of #0, offset 0}}
  %b = memref.alloc() : memref<4x4xf32>                                   // 3
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%v : memref<4x4xf32>) outs(%b : memref<4x4xf32>) {              // 4
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<4x4xf32>) outs(%out : memref<4x4xf32>) {            // 5
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return                                                                  // 6
}

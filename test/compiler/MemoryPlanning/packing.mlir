// RUN: kiln-opt %s --kiln-test-print-buffer-liveness -split-input-file -verify-diagnostics

// Packing as kiln-plan-memory does it, printed by the test pass: offsets
// 64-byte aligned, each buffer in the smallest gap left by the buffers
// live at the same time (docs/memory-planning.md, "Packing").

// Tests best fit: %x's bytes are free again when %z and %w are born; %z
// takes offset 0 and %w the gap between %z and the long-lived %y, so the
// peak is the lower bound (%x and %y together).
// expected-remark @below {{plan: 14 steps, 8 kernels, 4 buffers, peak 320, lower bound 320, unplanned kernel buffers 512}}
func.func @best_fit(%o256: memref<64xf32>, %o64: memref<16xf32>, %o128: memref<32xf32>) {
  %zero = arith.constant 0.0 : f32                                     // 0
  // expected-remark @below {{buffer #0: 256 bytes, steps 5..7, offset 0}}
  %x = memref.alloc() : memref<64xf32>                                 // 1
  // expected-remark @below {{buffer #1: 64 bytes, steps 6..12, offset 256}}
  %y = memref.alloc() : memref<16xf32>                                 // 2
  // expected-remark @below {{buffer #2: 128 bytes, steps 8..10, offset 0}}
  %z = memref.alloc() : memref<32xf32>                                 // 3
  // expected-remark @below {{buffer #3: 64 bytes, steps 9..11, offset 128}}
  %w = memref.alloc() : memref<16xf32>                                 // 4
  linalg.fill ins(%zero : f32) outs(%x : memref<64xf32>)               // 5
  linalg.fill ins(%zero : f32) outs(%y : memref<16xf32>)               // 6
  memref.copy %x, %o256 : memref<64xf32> to memref<64xf32>             // 7
  linalg.fill ins(%zero : f32) outs(%z : memref<32xf32>)               // 8
  linalg.fill ins(%zero : f32) outs(%w : memref<16xf32>)               // 9
  memref.copy %z, %o128 : memref<32xf32> to memref<32xf32>             // 10
  memref.copy %w, %o64 : memref<16xf32> to memref<16xf32>              // 11
  memref.copy %y, %o64 : memref<16xf32> to memref<16xf32>              // 12
  return                                                               // 13
}

// -----

// Tests alignment: two live 48-byte buffers take 128 arena bytes, above
// the 96-byte lower bound.
// expected-remark @below {{plan: 6 steps, 3 kernels, 2 buffers, peak 128, lower bound 96, unplanned kernel buffers 96}}
func.func @aligned(%in: memref<12xf32>, %out: memref<12xf32>) {
  // expected-remark @below {{buffer #0: 48 bytes, steps 2..4, offset 0}}
  %a = memref.alloc() : memref<12xf32>                                 // 0
  // expected-remark @below {{buffer #1: 48 bytes, steps 3..3, offset 64}}
  %b = memref.alloc() : memref<12xf32>                                 // 1
  memref.copy %in, %a : memref<12xf32> to memref<12xf32>               // 2
  memref.copy %in, %b : memref<12xf32> to memref<12xf32>               // 3
  memref.copy %a, %out : memref<12xf32> to memref<12xf32>              // 4
  return                                                               // 5
}

// -----

// Tests that an empty buffer takes no room and conflicts with nothing.
// expected-remark @below {{plan: 6 steps, 3 kernels, 2 buffers, peak 64, lower bound 64, unplanned kernel buffers 64}}
func.func @empty(%in: memref<16xf32>, %out: memref<16xf32>, %e: memref<0xf32>) {
  // expected-remark @below {{buffer #0: 64 bytes, steps 2..4, offset 0}}
  %a = memref.alloc() : memref<16xf32>                                 // 0
  // expected-remark @below {{buffer #1: 0 bytes, steps 3..3, offset 0}}
  %z = memref.alloc() : memref<0xf32>                                  // 1
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>               // 2
  memref.copy %z, %e : memref<0xf32> to memref<0xf32>                  // 3
  memref.copy %a, %out : memref<16xf32> to memref<16xf32>              // 4
  return                                                               // 5
}

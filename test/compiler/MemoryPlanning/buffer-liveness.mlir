// RUN: kiln-opt %s --kiln-test-print-buffer-liveness -split-input-file -verify-diagnostics

// Liveness as kiln-plan-memory sees it, printed by the test pass: per
// buffer its size, first and last step (positions of the function body's
// top-level ops, both inclusive) and arena offset; per function the plan's
// figures. Each step is numbered in a comment.

// Tests that a buffer is live from its first access, not from its
// allocation: both allocations come first, yet the two buffers do not
// overlap in time and share offset 0.
// expected-remark @below {{plan: 7 steps, 4 kernels, 2 buffers, peak 64, lower bound 64, unplanned kernel buffers 128}}
func.func @first_access(%in: memref<16xf32>, %out: memref<16xf32>) {
  // expected-remark @below {{buffer #0: 64 bytes, steps 2..3, offset 0}}
  %a = memref.alloc() : memref<16xf32>                    // 0
  // expected-remark @below {{buffer #1: 64 bytes, steps 4..5, offset 0}}
  %b = memref.alloc() : memref<16xf32>                    // 1
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>  // 2
  memref.copy %a, %out : memref<16xf32> to memref<16xf32> // 3
  memref.copy %in, %b : memref<16xf32> to memref<16xf32>  // 4
  memref.copy %b, %out : memref<16xf32> to memref<16xf32> // 5
  return                                                  // 6
}

// -----

// Tests that accesses through views (a view of a view here) extend the
// lifetime, while creating a view accesses nothing: %a lives to step 6.
// expected-remark @below {{plan: 8 steps, 3 kernels, 2 buffers, peak 128, lower bound 128, unplanned kernel buffers 128}}
func.func @views(%in: memref<2x8xf32>, %out: memref<4xf32>) {
  // expected-remark @below {{buffer #0: 64 bytes, steps 1..6, offset 0}}
  %a = memref.alloc() : memref<2x8xf32>                                  // 0
  memref.copy %in, %a : memref<2x8xf32> to memref<2x8xf32>               // 1
  %flat = memref.collapse_shape %a [[0, 1]] : memref<2x8xf32> into memref<16xf32> // 2
  %part = memref.subview %flat[4] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: 4>> // 3
  // expected-remark @below {{buffer #1: 64 bytes, steps 5..5, offset 64}}
  %b = memref.alloc() : memref<2x8xf32>                                  // 4
  memref.copy %in, %b : memref<2x8xf32> to memref<2x8xf32>               // 5
  memref.copy %part, %out : memref<4xf32, strided<[1], offset: 4>> to memref<4xf32> // 6
  return                                                                 // 7
}

// -----

// Tests that a returned buffer escapes and lives to the last step.
// expected-remark @below {{plan: 4 steps, 1 kernels, 2 buffers, peak 128, lower bound 128, unplanned kernel buffers 128}}
func.func @returned(%in: memref<16xf32>) -> memref<16xf32> {
  // expected-remark @below {{buffer #0: 64 bytes, steps 1..3, escapes, offset 0}}
  %a = memref.alloc() : memref<16xf32>                    // 0
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>  // 1
  // expected-remark @below {{buffer #1: 64 bytes, steps 2..2, offset 64}}
  %b = memref.alloc() : memref<16xf32>                    // 2
  return %a : memref<16xf32>                              // 3
}

// -----

// Tests that a buffer handed to an op we cannot see through (a call)
// escapes: live to the end, so the later buffer cannot reuse its bytes.
func.func private @sink(memref<16xf32>)
// expected-remark @below {{plan: 6 steps, 2 kernels, 2 buffers, peak 128, lower bound 128, unplanned kernel buffers 128}}
func.func @unknown_use(%in: memref<16xf32>, %out: memref<16xf32>) {
  // expected-remark @below {{buffer #0: 64 bytes, steps 1..5, escapes, offset 0}}
  %a = memref.alloc() : memref<16xf32>                    // 0
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>  // 1
  func.call @sink(%a) : (memref<16xf32>) -> ()            // 2
  // expected-remark @below {{buffer #1: 64 bytes, steps 4..4, offset 64}}
  %b = memref.alloc() : memref<16xf32>                    // 3
  memref.copy %b, %out : memref<16xf32> to memref<16xf32> // 4
  return                                                  // 5
}

// -----

// Tests that with branches (the body's order is not the execution order)
// every buffer is live for the whole function.
// expected-remark @below {{plan: 6 steps, 2 kernels, 2 buffers, peak 128, lower bound 128, unplanned kernel buffers 128}}
func.func @branches(%in: memref<16xf32>, %out: memref<16xf32>) {
  // expected-remark @below {{buffer #0: 64 bytes, steps 0..5, offset 0}}
  %a = memref.alloc() : memref<16xf32>                    // 0
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>  // 1
  cf.br ^next                                             // 2
^next:
  // expected-remark @below {{buffer #1: 64 bytes, steps 0..5, offset 64}}
  %b = memref.alloc() : memref<16xf32>                    // 3
  memref.copy %b, %out : memref<16xf32> to memref<16xf32> // 4
  return                                                  // 5 (the last)
}

// -----

// Tests that a buffer nobody uses is live only at its allocation, and that
// sizes count i1 elements as bytes.
// expected-remark @below {{plan: 2 steps, 0 kernels, 1 buffers, peak 64, lower bound 3, unplanned kernel buffers 3}}
func.func @unused() {
  // expected-remark @below {{buffer #0: 3 bytes, steps 0..0, offset 0}}
  %a = memref.alloc() : memref<3xi1>                      // 0
  return                                                  // 1
}

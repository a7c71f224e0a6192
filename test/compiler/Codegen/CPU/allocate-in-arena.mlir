// RUN: kiln-opt %s --kiln-allocate-in-arena -split-input-file | FileCheck %s

// Every static intermediate buffer becomes a view into a trailing arena
// argument at a 64-byte aligned offset; the module records the size.

// CHECK: module attributes {kiln.arena_bytes = 192 : i64}
// CHECK-LABEL: func.func @two_buffers
// CHECK-SAME: (%[[IN:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>, %[[ARENA:.*]]: memref<192xi8>)
// CHECK-NOT: memref.alloc
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG: memref.view %[[ARENA]][%[[C0]]][] : memref<192xi8> to memref<4xf32>
// CHECK-DAG: memref.view %[[ARENA]][%[[C64]]][] : memref<192xi8> to memref<10x10xi8>
func.func @two_buffers(%in: memref<4xf32>, %out: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<10x10xi8>
  memref.copy %in, %a : memref<4xf32> to memref<4xf32>
  memref.copy %a, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// A function without intermediates still takes an (empty) arena, so every
// entry point has the same calling convention; private functions are left
// alone.
// CHECK: module attributes {kiln.arena_bytes = 0 : i64}
// CHECK-LABEL: func.func @none
// CHECK-SAME: (%{{.*}}: memref<2xf32>, %{{.*}}: memref<0xi8>)
// CHECK-LABEL: func.func private @helper
// CHECK: memref.alloc
func.func @none(%x: memref<2xf32>) {
  return
}
func.func private @helper() {
  %a = memref.alloc() : memref<8xf32>
  return
}

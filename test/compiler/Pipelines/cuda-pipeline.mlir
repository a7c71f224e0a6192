// RUN: kiln-opt %S/Inputs/matmul-bias-relu.mlir --kiln-cuda-pipeline | FileCheck %s
// RUN: kiln-opt %S/Inputs/matmul-bias-relu.mlir --kiln-cuda-pipeline=fusion=false | FileCheck %s --check-prefix=UNFUSED

// Tests the CUDA pipeline up to the emitter's input: generic ops on planned
// buffers, the fused group marked, the arena and the interface recorded,
// and the kernels numbered (the fill, the GEMM and its epilogue: one).
// CHECK:       module attributes {kiln.arena_bytes = 16384 : i64
// CHECK:       func.func @mlp({{.*}}, %[[ARENA:.*]]: memref<16384xi8>) attributes {exec.interface = array<i32: 3, 1>}
// CHECK:         memref.view %[[ARENA]]
// CHECK-NOT:     linalg.matmul
// CHECK:         linalg.generic {{.*}}kiln.kernel = 0 : i64
// CHECK:         linalg.generic {{.*}}["parallel", "parallel", "reduction"]{{.*}}kiln.group = "fusion#0 (contraction)", kiln.kernel = 0 : i64
// CHECK:         linalg.generic {{.*}}kiln.group = "fusion#0 (contraction)", kiln.kernel = 0 : i64
// CHECK-NOT:     kiln.kernel = 1
// Unfused, the fill still folds; bias and ReLU are kernels of their own.
// UNFUSED-NOT:   kiln.group
// UNFUSED:       kiln.kernel = 0
// UNFUSED:       kiln.kernel = 0
// UNFUSED:       kiln.kernel = 1
// UNFUSED:       kiln.kernel = 2

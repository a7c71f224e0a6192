// RUN: kiln-opt %S/Inputs/matmul-bias-relu.mlir --kiln-cuda-pipeline | FileCheck %s
// RUN: kiln-opt %S/Inputs/matmul-bias-relu.mlir --kiln-cuda-pipeline=fusion=false | FileCheck %s --check-prefix=UNFUSED

// Tests the CUDA pipeline up to the emitter's input: generic ops on planned
// buffers, the fused group marked, the arena recorded.
// CHECK:       module attributes {kiln.arena_bytes = 16384 : i64
// CHECK:       func.func @mlp({{.*}}, %[[ARENA:.*]]: memref<16384xi8>)
// CHECK:         memref.view %[[ARENA]]
// CHECK-NOT:     linalg.matmul
// CHECK:         linalg.generic {{.*}}["parallel", "parallel", "reduction"]{{.*}}kiln.group = "fusion#0 (contraction)"
// CHECK:         linalg.generic {{.*}}kiln.group = "fusion#0 (contraction)"
// UNFUSED-NOT:   kiln.group

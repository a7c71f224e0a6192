// RUN: kiln-opt %S/Inputs/matmul-bias-relu.mlir --kiln-convert-graph-to-linalg --kiln-bufferize-and-plan-pipeline | FileCheck %s

// Tests the device-neutral stage: results become out-parameters, the one
// intermediate lives in the arena, and the plan is recorded.
// CHECK:       module attributes {kiln.arena_bytes = 16384 : i64, kiln.memory_plan = [{buffers = [{{.*}}offset = 0 : i64, op = "linalg.fill", size = 16384 : i64}, {{.*}}in_place_of = 0
// CHECK:       func.func @mlp(%{{.*}}: memref<64x32xf32>, %{{.*}}: memref<32x64xf32>, %{{.*}}: memref<64xf32>, %[[OUT:.*]]: memref<64x64xf32>, %[[ARENA:.*]]: memref<16384xi8>)
// CHECK:         memref.view %[[ARENA]][%{{.*}}][] : memref<16384xi8> to memref<64x64xf32>
// CHECK-NOT:     memref.alloc
// CHECK:         outs(%[[OUT]] : memref<64x64xf32>)

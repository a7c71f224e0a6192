// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --mlir-print-op-generic | kiln-opt | FileCheck %s

// Every step of a CPU and a CUDA program survives printing and parsing.

func.func private @cpu_d0(%in: memref<16xf32>, %out: memref<16xf32>,
                          %arena: memref<256xi8>, %begin: index, %end: index) {
  return
}

// CHECK-LABEL: exec.program @cpu device(cpu) inputs(1) outputs(1) arena(256) {
// CHECK:   %[[D:.*]] = exec.dispatch @cpu_d0 grid [4, 1, 1] bindings [#exec.binding<input 0[0 : 64] read>, #exec.binding<arena[0 : 64] write>] results [#exec.binding<arena[0 : 32] write>, #exec.binding<arena[32 : 32] write>] types [f32, bf16] flops(4096)
// CHECK:   %[[F:.*]] = exec.fill <arena[64 : 64] write> pattern(0 : i32)
// CHECK:   %[[C:.*]] = exec.copy <arena[0 : 64] read> to <output 0[0 : 64] write> after(%[[D]], %[[F]])
// CHECK:   %[[R:.*]] = exec.collective all_reduce sum ranks(2) element(f32) send <arena[64 : 64] read> recv <arena[128 : 64] write> after(%[[F]])
// CHECK:   %[[G:.*]] = exec.collective all_gather ranks(2) element(f16) send <arena[0 : 32] read> recv <arena[128 : 64] write>
// CHECK:   %[[S:.*]] = exec.collective send ranks(2) peer(1) element(i8) send <arena[0 : 8] read>
// CHECK:   %{{.*}} = exec.barrier after(%[[C]], %[[R]])
// CHECK:   %{{.*}} = exec.barrier
// CHECK: }
exec.program @cpu device(cpu) inputs(1) outputs(1) arena(256) {
  %0 = exec.dispatch @cpu_d0 grid [4, 1, 1]
         bindings [#exec.binding<input 0[0 : 64] read>,
                   #exec.binding<arena[0 : 64] write>]
         results [#exec.binding<arena[0 : 32] write>,
                  #exec.binding<arena[32 : 32] write>] types [f32, bf16]
         flops(4096)
  %1 = exec.fill #exec.binding<arena[64 : 64] write> pattern(0 : i32)
  %2 = exec.copy #exec.binding<arena[0 : 64] read>
         to #exec.binding<output 0[0 : 64] write> after(%0, %1)
  %3 = exec.collective all_reduce sum ranks(2) element(f32)
         send #exec.binding<arena[64 : 64] read>
         recv #exec.binding<arena[128 : 64] write> after(%1)
  %4 = exec.collective all_gather ranks(2) element(f16)
         send #exec.binding<arena[0 : 32] read>
         recv #exec.binding<arena[128 : 64] write>
  %5 = exec.collective send ranks(2) peer(1) element(i8)
         send #exec.binding<arena[0 : 8] read>
  %6 = exec.barrier after(%2, %3)
  %7 = exec.barrier
}

// CHECK-LABEL: exec.kernel @kiln_k0 source_ops ["linalg.matmul"]
exec.kernel @kiln_k0 source_ops ["linalg.matmul"]

// CHECK-LABEL: exec.program @gpu device(cuda) inputs(1) outputs(1) arena(64) constants(512) {
// CHECK:   exec.dispatch @kiln_k0 grid [2, 2, 1] block [256, 1, 1] shared(1024) bindings [#exec.binding<constants[0 : 512] read>, #exec.binding<output 0[0 : 64] write>]
exec.program @gpu device(cuda) inputs(1) outputs(1) arena(64) constants(512) {
  %0 = exec.dispatch @kiln_k0 grid [2, 2, 1] block [256, 1, 1] shared(1024)
         bindings [#exec.binding<constants[0 : 512] read>,
                   #exec.binding<output 0[0 : 64] write>]
}

// CHECK-LABEL: func.func @communicate
// CHECK: exec.communicate all_reduce sum ranks(2) ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: exec.communicate all_gather ranks(2) ins(%{{.*}} : memref<4x8xf32>) outs(%{{.*}} : memref<8x8xf32>)
// CHECK: exec.communicate reduce_scatter max ranks(4) ins(%{{.*}} : memref<8x8xf32>) outs(%{{.*}} : memref<2x8xf32>)
func.func @communicate(%x: tensor<4x8xf32>, %e: tensor<4x8xf32>, %a: memref<4x8xf32>, %b: memref<8x8xf32>, %c: memref<2x8xf32>) -> tensor<4x8xf32> {
  %r = exec.communicate all_reduce sum ranks(2) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  exec.communicate all_gather ranks(2) ins(%a : memref<4x8xf32>) outs(%b : memref<8x8xf32>)
  exec.communicate reduce_scatter max ranks(4) ins(%b : memref<8x8xf32>) outs(%c : memref<2x8xf32>)
  return %r : tensor<4x8xf32>
}

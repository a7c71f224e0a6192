// RUN: kiln-opt %S/Inputs/matmul-bias-relu.mlir --kiln-cpu-pipeline | FileCheck %s
// RUN: kiln-opt %S/Inputs/matmul-bias-relu.mlir --kiln-cpu-pipeline=fusion=false | FileCheck %s --check-prefix=UNFUSED
// RUN: kiln-opt --help | FileCheck %s --check-prefix=HELP

// Tests the whole CPU pipeline: the fused group is one dispatch over row
// workgroups, lowered to LLVM, with the program that schedules it.
// CHECK:       llvm.func @mlp_d0(
// CHECK-NOT:   llvm.func @mlp(
// CHECK:       exec.program @mlp device(cpu) inputs(3) outputs(1) arena(16384) {
// CHECK-NEXT:    exec.dispatch @mlp_d0 grid [8, 1, 1] bindings [{{.*}}#exec.binding<output 0[0 : 16384] write>]
// CHECK-NEXT:  }

// Without fusion the epilogue is a dispatch of its own, after the matmul.
// UNFUSED:       exec.program @mlp
// UNFUSED-NEXT:    %[[MM:.*]] = exec.dispatch @mlp_d0 grid [8, 1, 1]
// UNFUSED-NEXT:    exec.dispatch @mlp_d1 grid [1, 1, 1] after(%[[MM]])

// HELP: --kiln-cpu-pipeline
// HELP: fusion
// HELP: --kiln-cuda-pipeline

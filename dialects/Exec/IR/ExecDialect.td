//===- ExecDialect.td - The exec schedule dialect -------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_EXEC_IR_EXECDIALECT_TD
#define KILN_DIALECTS_EXEC_IR_EXECDIALECT_TD

include "mlir/IR/DialectBase.td"

def KilnExec_Dialect : Dialect {
  let name = "exec";
  let cppNamespace = "::kiln::exec";
  let summary = "Kiln's execution level: per-device schedules of dispatches, "
                "transfers, fills and collectives";
  let description = [{
    The `exec` dialect sits between fused loop nests and machine code. A
    model compiled for one device becomes an `exec.program`: an ordered list
    of steps whose dependencies are explicit `!exec.token` values. Each step
    names the buffers it touches as bindings (a base buffer — an input, an
    output, the arena or the constants — with a byte range and an access
    mode), so a runtime can run independent steps concurrently, time them,
    and inspect what each one wrote without knowing how its kernel was made.

    Kernels are referenced by symbol. On the CPU a dispatch names a
    `func.func` over a range of workgroup ids; on CUDA it names a kernel
    declared with `exec.kernel`, launched over a grid of thread blocks. The
    artifact serialises this level in one format for both devices
    (docs/execution-model.md).
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let usePropertiesForAttributes = 1;
}

#endif // KILN_DIALECTS_EXEC_IR_EXECDIALECT_TD

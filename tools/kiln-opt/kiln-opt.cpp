//===- kiln-opt.cpp - Kiln's optimiser driver -----------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// MlirOptMain with every Kiln dialect and pass: each stage of the compiler is
// reproducible from here by its registered name.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/CpuCodegen.h"
#include "compiler/InitAllPasses.h"
#include "dialects/InitAllDialects.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/PrettyStackTrace.h"

int main(int argc, char **argv) {
  llvm::setBugReportMsg("PLEASE report this Kiln crash with the IR and the "
                        "command line above (a crash reproducer helps: "
                        "--mlir-pass-pipeline-crash-reproducer=FILE).\n");
  mlir::DialectRegistry registry;
  kiln::registerAllDialects(registry);
  // Intermediate IR of the CPU pipeline (linalg, memref, LLVM, ...).
  kiln::compiler::registerCpuCodegenDialects(registry);
  kiln::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Kiln optimiser driver\n", registry));
}

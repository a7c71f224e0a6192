//===- kiln-translate.cpp - Kiln's translations from prepared IR ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// mlirTranslateMain with Kiln's translations. `--kiln-mlir-to-cuda` replays
// CUDA emission from a module that kiln-cuda-pipeline prepared (possibly
// edited by hand): the emitter is a printer of that IR, so a kernel can be
// reproduced, reduced and tested without the model it came from.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/CpuCodegen.h"
#include "compiler/Codegen/CUDA/CudaCodegen.h"
#include "dialects/InitAllDialects.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

int main(int argc, char **argv) {
  TranslateFromMLIRRegistration cuda(
      "kiln-mlir-to-cuda",
      "CUDA C++ and launches of a module prepared by kiln-cuda-pipeline "
      "(what kilnc compile --emit=cuda prints)",
      [](Operation *op, llvm::raw_ostream &os) -> LogicalResult {
        auto module = dyn_cast<ModuleOp>(op);
        if (!module)
          return op->emitError("expected a module");
        FailureOr<kiln::compiler::cuda::CudaProgram> program =
            kiln::compiler::cuda::emitCudaProgram(module);
        if (failed(program))
          return failure();
        os << program->source() << program->launchSummary();
        return success();
      },
      [](DialectRegistry &registry) {
        kiln::registerAllDialects(registry);
        // Loop-level IR (linalg, memref, arith, ...): the CPU codegen
        // registers the same set.
        kiln::compiler::registerCpuCodegenDialects(registry);
      });
  return failed(mlirTranslateMain(argc, argv, "Kiln translations"));
}

//===- kiln-opt.cpp - Kiln's optimiser driver -----------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// MlirOptMain with every Kiln dialect and pass: each stage of the compiler is
// reproducible from here by its registered name. `--load-pass-plugin=PATH`
// loads a Kiln pass plugin (kiln/PassPlugin.h) so its passes can be run by
// name; it is handled here, before MlirOptMain (whose own option of that
// name loads upstream MLIR plugins, which Kiln plugins are not).
//
//===----------------------------------------------------------------------===//

#include "compiler/API/lib/PassPlugins.h"
#include "compiler/Codegen/CPU/CpuCodegen.h"
#include "compiler/InitAllPasses.h"
#include "dialects/InitAllDialects.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/raw_ostream.h"
#ifdef KILN_HAVE_TEST_PASSES
#include "test/lib/TestPasses.h"
#endif

#include <vector>

namespace {
/// Loads the plugins named by --load-pass-plugin and removes those
/// arguments; false after printing why a plugin was refused.
bool loadPassPlugins(int &argc, char **argv) {
  constexpr llvm::StringLiteral kFlag = "--load-pass-plugin";
  std::vector<char *> kept;
  kiln::compiler::PipelineExtensions unused;
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    std::string path;
    if (arg.consume_front(kFlag) && arg.consume_front("=")) {
      path = arg.str();
    } else if (llvm::StringRef(argv[i]) == kFlag && i + 1 < argc) {
      path = argv[++i];
    } else {
      kept.push_back(argv[i]);
      continue;
    }
    kiln::rt::Status status = kiln::compiler::loadPassPlugin(path, unused);
    if (!status.isOk()) {
      llvm::errs() << "kiln-opt: error: " << status.message() << "\n";
      return false;
    }
  }
  for (size_t i = 0; i < kept.size(); ++i)
    argv[i] = kept[i];
  argc = int(kept.size());
  argv[argc] = nullptr;
  return true;
}
} // namespace

int main(int argc, char **argv) {
  llvm::setBugReportMsg("PLEASE report this Kiln crash with the IR and the "
                        "command line above (a crash reproducer helps: "
                        "--mlir-pass-pipeline-crash-reproducer=FILE).\n");
  mlir::DialectRegistry registry;
  kiln::registerAllDialects(registry);
  // Intermediate IR of the CPU pipeline (linalg, memref, LLVM, ...).
  kiln::compiler::registerCpuCodegenDialects(registry);
  kiln::registerAllPasses();
#ifdef KILN_HAVE_TEST_PASSES
  kiln::test::registerTestPasses();
#endif
  if (!loadPassPlugins(argc, argv))
    return 1;
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Kiln optimiser driver\n", registry));
}

//===- MlirParseFuzzer.cpp - libFuzzer harness for MLIR text with kiln ----===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Any bytes, as MLIR text with every dialect kiln-opt registers: parsing
// and verification accept the module or report an error; they never crash,
// leak or hit UB. A module that verifies prints as text that parses and
// verifies again (the custom assembly formats of Kiln's ops round-trip).
//
// Kiln's code (its dialects' parsers, printers, verifiers, folders used by
// the parser) is compiled with coverage; the MLIR parser itself is Debian's
// uninstrumented libMLIR, so fuzz/mlir.dict supplies its keywords.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/CpuCodegen.h"
#include "dialects/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>

namespace {

[[noreturn]] void fail(const char *what, const std::string &text) {
  std::fprintf(stderr, "MlirParseFuzzer: %s:\n%s\n", what, text.c_str());
  std::abort();
}

const mlir::DialectRegistry &registry() {
  static const mlir::DialectRegistry *registry = [] {
    auto *r = new mlir::DialectRegistry;
    // What kiln-opt registers (tools/kiln-opt/kiln-opt.cpp).
    kiln::registerAllDialects(*r);
    kiln::compiler::registerCpuCodegenDialects(*r);
    return r;
  }();
  return *registry;
}

/// Parses `text` and verifies it apart, as kiln-opt does.
mlir::OwningOpRef<mlir::ModuleOp> parseAndVerify(llvm::StringRef text,
                                                 mlir::MLIRContext &context) {
  mlir::ParserConfig config(&context, /*verifyAfterParse=*/false);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, config);
  if (module && mlir::failed(mlir::verify(*module)))
    return nullptr;
  return module;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A context per input, so uniqued attributes and types do not pile up;
  // dialects load as the text names them.
  mlir::MLIRContext context(registry(), mlir::MLIRContext::Threading::DISABLED);
  mlir::ScopedDiagnosticHandler quiet(
      &context, [](mlir::Diagnostic &) { return mlir::success(); });

  // MLIR's lexer reads past the end of a buffer that no NUL byte follows
  // (llvm/llvm-project#154462, open; the first smoke run found it here).
  // Kiln's callers pass std::string contents, which always have one.
  std::string text(reinterpret_cast<const char *>(data), size);
  mlir::OwningOpRef<mlir::ModuleOp> module = parseAndVerify(text, context);
  if (!module)
    return 0;

  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os);
  if (!parseAndVerify(printed, context))
    fail("a verified module does not print as text that parses back", printed);
  return 0;
}

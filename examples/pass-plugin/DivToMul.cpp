// A Kiln pass plugin: `kiln-example-div-to-mul` rewrites a division by a
// floating-point splat constant, x / c, into a multiplication by its
// reciprocal, x * (1/c) (cheaper on every CPU and GPU; may differ from x / c
// in the last bit), and records how many it rewrote on each function
// (attribute `example.divisions_rewritten`), so the effect is visible in
// `kilnc compile --emit=mlir`. It runs at the before-fusion point of every
// compilation, and kiln-opt can run it by name.
#include <kiln/PassPlugin.h>

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace {

/// The splat float value of `value` when a kiln.constant defines it.
std::optional<llvm::APFloat> splatConstant(mlir::Value value) {
  mlir::Operation *op = value.getDefiningOp();
  if (!op || op->getName().getStringRef() != "kiln.constant")
    return std::nullopt;
  auto dense =
      llvm::dyn_cast_or_null<mlir::DenseFPElementsAttr>(op->getAttr("value"));
  if (!dense || !dense.isSplat())
    return std::nullopt;
  return dense.getSplatValue<llvm::APFloat>();
}

struct DivToMulPass
    : mlir::PassWrapper<DivToMulPass, mlir::OperationPass<mlir::func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DivToMulPass)

  llvm::StringRef getArgument() const override {
    return "kiln-example-div-to-mul";
  }
  llvm::StringRef getDescription() const override {
    return "Example plugin pass: x / c -> x * (1/c) for splat constants c";
  }

  void runOnOperation() override {
    int64_t rewritten = 0;
    // Plugins may build and match kiln ops by name: no Kiln headers are
    // needed beyond PassPlugin.h.
    getOperation().walk([&](mlir::Operation *div) {
      if (div->getName().getStringRef() != "kiln.div")
        return;
      std::optional<llvm::APFloat> divisor = splatConstant(div->getOperand(1));
      if (!divisor || divisor->isZero())
        return;
      llvm::APFloat reciprocal(divisor->getSemantics(), 1);
      if (reciprocal.divide(*divisor, llvm::APFloat::rmNearestTiesToEven) !=
          llvm::APFloat::opOK)
        return; // Inexact: keep the division (it is exactly rounded).
      auto type = llvm::cast<mlir::ShapedType>(div->getOperand(1).getType());
      mlir::OpBuilder builder(div);
      mlir::OperationState constant(div->getLoc(), "kiln.constant");
      constant.addAttribute("value",
                            mlir::DenseElementsAttr::get(type, reciprocal));
      constant.addTypes(type);
      mlir::Operation *factor = builder.create(constant);
      mlir::OperationState mul(div->getLoc(), "kiln.mul");
      mul.addOperands({div->getOperand(0), factor->getResult(0)});
      mul.addTypes(div->getResult(0).getType());
      div->getResult(0).replaceAllUsesWith(builder.create(mul)->getResult(0));
      div->erase();
      ++rewritten;
    });
    mlir::Builder builder(&getContext());
    getOperation()->setAttr("example.divisions_rewritten",
                            builder.getI64IntegerAttr(rewritten));
  }
};

void registerPlugin(kiln::PassPluginRegistrar &registrar) {
  registrar.registerPass([] { return std::make_unique<DivToMulPass>(); });
  registrar.addToPipeline(
      kiln::PipelinePoint::kBeforeFusion, [](mlir::OpPassManager &pm) {
        pm.addNestedPass<mlir::func::FuncOp>(std::make_unique<DivToMulPass>());
      });
}

} // namespace

extern "C" KILN_PLUGIN_EXPORT kiln::PassPluginInfo kilnGetPassPluginInfo() {
#ifdef KILN_EXAMPLE_FAKE_API_VERSION
  // Only for Kiln's own test that a mismatched plugin is refused.
  return {KILN_EXAMPLE_FAKE_API_VERSION, "div-to-mul", "1.0", registerPlugin};
#else
  return {KILN_PLUGIN_API_VERSION, "div-to-mul", "1.0", registerPlugin};
#endif
}

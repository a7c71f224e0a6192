//===- ScalarCode.cpp - Scalar MLIR ops as CUDA C++ -----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CUDA/ScalarCode.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"

#include <cmath>

using namespace mlir;

namespace kiln::compiler::cuda {

namespace {

/// How an op is spelled. In `pattern`, $0..$2 are the operands, $f is "f"
/// when the op computes in float (expf) and "" in double (exp), $T the
/// result's compute type and $U the unsigned type of operand 0.
struct Spelling {
  const char *op;
  const char *pattern;
};

// Sorted by dialect; one line per op so that a new op is a one-line change.
constexpr Spelling kSpellings[] = {
    // Floating-point arithmetic.
    {"arith.addf", "($0 + $1)"},
    {"arith.subf", "($0 - $1)"},
    {"arith.mulf", "($0 * $1)"},
    {"arith.divf", "($0 / $1)"},
    {"arith.remf", "fmod$f($0, $1)"},
    {"arith.negf", "(-$0)"},
    {"arith.maximumf", "kiln_maximum($0, $1)"},
    {"arith.minimumf", "kiln_minimum($0, $1)"},
    {"arith.maxnumf", "fmax$f($0, $1)"},
    {"arith.minnumf", "fmin$f($0, $1)"},
    // Integer arithmetic: wrap-around through the unsigned type.
    {"arith.addi", "(($T)(($U)$0 + ($U)$1))"},
    {"arith.subi", "(($T)(($U)$0 - ($U)$1))"},
    {"arith.muli", "(($T)(($U)$0 * ($U)$1))"},
    {"arith.divsi", "($0 / $1)"},
    {"arith.divui", "(($T)(($U)$0 / ($U)$1))"},
    {"arith.remsi", "($0 % $1)"},
    {"arith.remui", "(($T)(($U)$0 % ($U)$1))"},
    {"arith.andi", "($0 & $1)"},
    {"arith.ori", "($0 | $1)"},
    {"arith.xori", "($0 ^ $1)"},
    {"arith.shli", "(($T)(($U)$0 << $1))"},
    {"arith.shrsi", "($0 >> $1)"},
    {"arith.shrui", "(($T)(($U)$0 >> $1))"},
    {"arith.maxsi", "($0 > $1 ? $0 : $1)"},
    {"arith.minsi", "($0 < $1 ? $0 : $1)"},
    {"arith.maxui", "(($U)$0 > ($U)$1 ? $0 : $1)"},
    {"arith.minui", "(($U)$0 < ($U)$1 ? $0 : $1)"},
    {"arith.select", "($0 ? $1 : $2)"},
    // Conversions ($T is the result's compute type).
    {"arith.sitofp", "(($T)$0)"},
    {"arith.uitofp", "(($T)($U)$0)"},
    {"arith.fptosi", "(($T)$0)"},
    {"arith.fptoui", "(($T)$0)"},
    {"arith.extf", "(($T)$0)"},
    {"arith.extsi", "(($T)$0)"},
    {"arith.extui", "(($T)($U)$0)"},
    {"arith.index_cast", "(($T)$0)"},
    {"arith.index_castui", "(($T)($U)$0)"},
    // Math.
    {"math.absf", "fabs$f($0)"},
    {"math.absi", "($0 < 0 ? -$0 : $0)"},
    {"math.acos", "acos$f($0)"},
    {"math.acosh", "acosh$f($0)"},
    {"math.asin", "asin$f($0)"},
    {"math.asinh", "asinh$f($0)"},
    {"math.atan", "atan$f($0)"},
    {"math.atan2", "atan2$f($0, $1)"},
    {"math.atanh", "atanh$f($0)"},
    {"math.cbrt", "cbrt$f($0)"},
    {"math.ceil", "ceil$f($0)"},
    {"math.copysign", "copysign$f($0, $1)"},
    {"math.cos", "cos$f($0)"},
    {"math.cosh", "cosh$f($0)"},
    {"math.erf", "erf$f($0)"},
    {"math.erfc", "erfc$f($0)"},
    {"math.exp", "exp$f($0)"},
    {"math.exp2", "exp2$f($0)"},
    {"math.expm1", "expm1$f($0)"},
    {"math.floor", "floor$f($0)"},
    {"math.fma", "fma$f($0, $1, $2)"},
    {"math.log", "log$f($0)"},
    {"math.log10", "log10$f($0)"},
    {"math.log1p", "log1p$f($0)"},
    {"math.log2", "log2$f($0)"},
    {"math.powf", "pow$f($0, $1)"},
    {"math.round", "round$f($0)"},
    {"math.roundeven", "rint$f($0)"},
    {"math.rsqrt", "rsqrt$f($0)"},
    {"math.sin", "sin$f($0)"},
    {"math.sinh", "sinh$f($0)"},
    {"math.sqrt", "sqrt$f($0)"},
    {"math.tan", "tan$f($0)"},
    {"math.tanh", "tanh$f($0)"},
    {"math.trunc", "trunc$f($0)"},
};

const Spelling *findSpelling(StringRef name) {
  static const llvm::StringMap<const Spelling *> table = [] {
    llvm::StringMap<const Spelling *> map;
    for (const Spelling &spelling : kSpellings)
      map[spelling.op] = &spelling;
    return map;
  }();
  auto found = table.find(name);
  return found == table.end() ? nullptr : found->second;
}

std::string unsignedType(Type type) {
  if (type.isInteger(1))
    return "bool";
  if (auto integer = dyn_cast<IntegerType>(type)) {
    switch (integer.getWidth()) {
    case 8:
      return "unsigned char";
    case 16:
      return "unsigned short";
    case 32:
      return "unsigned int";
    default:
      return "unsigned long long";
    }
  }
  if (type.isIndex())
    return "unsigned long long";
  return computeType(type);
}

std::string cmpfExpression(arith::CmpFPredicate predicate,
                           const std::string &a, const std::string &b) {
  using P = arith::CmpFPredicate;
  std::string unordered = "(" + a + " != " + a + " || " + b + " != " + b + ")";
  std::string ordered = "(" + a + " == " + a + " && " + b + " == " + b + ")";
  auto both = [&](const char *op, bool isUnordered) {
    std::string compare = "(" + a + " " + op + " " + b + ")";
    return isUnordered ? "(" + unordered + " || " + compare + ")" : compare;
  };
  switch (predicate) {
  case P::AlwaysFalse:
    return "false";
  case P::AlwaysTrue:
    return "true";
  case P::OEQ:
    return both("==", false);
  case P::OGT:
    return both(">", false);
  case P::OGE:
    return both(">=", false);
  case P::OLT:
    return both("<", false);
  case P::OLE:
    return both("<=", false);
  case P::ONE:
    return "(" + ordered + " && " + a + " != " + b + ")";
  case P::ORD:
    return ordered;
  case P::UEQ:
    return both("==", true);
  case P::UGT:
    return both(">", true);
  case P::UGE:
    return both(">=", true);
  case P::ULT:
    return both("<", true);
  case P::ULE:
    return both("<=", true);
  case P::UNE:
    return "(" + a + " != " + b + ")";
  case P::UNO:
    return unordered;
  }
  return "false";
}

std::string cmpiExpression(arith::CmpIPredicate predicate, Type type,
                           const std::string &a, const std::string &b) {
  using P = arith::CmpIPredicate;
  std::string u = "(" + unsignedType(type) + ")";
  switch (predicate) {
  case P::eq:
    return "(" + a + " == " + b + ")";
  case P::ne:
    return "(" + a + " != " + b + ")";
  case P::slt:
    return "(" + a + " < " + b + ")";
  case P::sle:
    return "(" + a + " <= " + b + ")";
  case P::sgt:
    return "(" + a + " > " + b + ")";
  case P::sge:
    return "(" + a + " >= " + b + ")";
  case P::ult:
    return "(" + u + a + " < " + u + b + ")";
  case P::ule:
    return "(" + u + a + " <= " + u + b + ")";
  case P::ugt:
    return "(" + u + a + " > " + u + b + ")";
  case P::uge:
    return "(" + u + a + " >= " + u + b + ")";
  }
  return "false";
}

std::string substitute(StringRef pattern, ArrayRef<std::string> operands,
                       Type resultType, Type operandType) {
  std::string out;
  bool isFloat = computeType(operandType) != "double";
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '$' || i + 1 == pattern.size()) {
      out += pattern[i];
      continue;
    }
    char key = pattern[++i];
    if (key >= '0' && key <= '9')
      out += operands[key - '0'];
    else if (key == 'f')
      out += isFloat ? "f" : "";
    else if (key == 'T')
      out += computeType(resultType);
    else if (key == 'U')
      out += unsignedType(operandType);
  }
  return out;
}

} // namespace

std::string affineText(AffineExpr expr, ArrayRef<std::string> dims,
                       ArrayRef<std::string> symbols) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return dims[dim.getPosition()];
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return symbols[symbol.getPosition()];
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return std::to_string(constant.getValue());
  auto binary = cast<AffineBinaryOpExpr>(expr);
  std::string l = affineText(binary.getLHS(), dims, symbols);
  std::string r = affineText(binary.getRHS(), dims, symbols);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return "(" + l + " + " + r + ")";
  case AffineExprKind::Mul:
    return "(" + l + " * " + r + ")";
  // Affine division and modulo round towards -inf, C's towards zero.
  case AffineExprKind::Mod:
    return "kiln_mod(" + l + ", " + r + ")";
  case AffineExprKind::FloorDiv:
    return "kiln_floordiv(" + l + ", " + r + ")";
  case AffineExprKind::CeilDiv:
    return "(-kiln_floordiv(-" + l + ", " + r + "))";
  default:
    return "0";
  }
}

std::string computeType(Type type) {
  if (type.isF16() || type.isBF16() || type.isF32())
    return "float";
  if (type.isF64())
    return "double";
  if (type.isInteger(1))
    return "bool";
  if (auto integer = dyn_cast<IntegerType>(type)) {
    switch (integer.getWidth()) {
    case 8:
      return "signed char";
    case 16:
      return "short";
    case 32:
      return "int";
    default:
      return "long long";
    }
  }
  return "long long"; // index
}

std::string storageType(Type type) {
  if (type.isF16())
    return "__half";
  if (type.isBF16())
    return "__nv_bfloat16";
  return computeType(type);
}

std::string loadAs(Type type, const std::string &expr) {
  if (type.isF16())
    return "__half2float(" + expr + ")";
  if (type.isBF16())
    return "__bfloat162float(" + expr + ")";
  return expr;
}

std::string storeAs(Type type, const std::string &expr) {
  if (type.isF16())
    return "__float2half_rn(" + expr + ")";
  if (type.isBF16())
    return "__float2bfloat16_rn(" + expr + ")";
  return expr;
}

bool needsHalfHeaders(Type type) { return type.isF16() || type.isBF16(); }

std::string literal(Attribute attr, Type type) {
  if (auto value = dyn_cast<FloatAttr>(attr)) {
    double d = value.getValueAsDouble();
    bool isDouble = type.isF64();
    if (std::isnan(d))
      return isDouble ? "__longlong_as_double(0x7ff8000000000000LL)"
                      : "__int_as_float(0x7fc00000)";
    if (std::isinf(d))
      return std::string(d < 0 ? "(-" : "(") +
             (isDouble ? "__longlong_as_double(0x7ff0000000000000LL))"
                       : "__int_as_float(0x7f800000))");
    std::string text;
    llvm::raw_string_ostream os(text);
    // 17 significant digits round-trip a double, 9 a float.
    os << llvm::format(isDouble ? "%.17g" : "%.9g", d);
    if (text.find_first_of(".eE") == std::string::npos)
      text += ".0";
    return isDouble ? text : text + "f";
  }
  if (auto value = dyn_cast<IntegerAttr>(attr)) {
    if (type.isInteger(1))
      return value.getValue().isZero() ? "false" : "true";
    int64_t v = value.getValue().getSExtValue();
    if (v == INT64_MIN)
      return "(-9223372036854775807LL - 1)";
    return "((" + computeType(type) + ")" + std::to_string(v) + "LL)";
  }
  return "";
}

FailureOr<std::string> ScalarCode::valueOf(Value value) {
  auto found = names_.find(value);
  if (found != names_.end())
    return found->second;
  Attribute constant;
  if (matchPattern(value, m_Constant(&constant))) {
    std::string text = literal(constant, value.getType());
    if (!text.empty())
      return text;
  }
  if (Operation *producer = value.getDefiningOp())
    producer->emitError("CUDA code generation: cannot use this value in a "
                        "kernel");
  return failure();
}

FailureOr<std::string> ScalarCode::expression(Operation *op) {
  SmallVector<std::string> operands;
  for (Value operand : op->getOperands()) {
    if (isa<MemRefType>(operand.getType())) {
      operands.push_back("");
      continue;
    }
    FailureOr<std::string> text = valueOf(operand);
    if (failed(text))
      return failure();
    operands.push_back(*text);
  }
  Type result = op->getResult(0).getType();
  Type operand0 = op->getNumOperands() ? op->getOperand(0).getType() : result;
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    std::string text = literal(constant.getValue(), result);
    if (!text.empty())
      return text;
  }
  if (auto cmp = dyn_cast<arith::CmpFOp>(op))
    return cmpfExpression(cmp.getPredicate(), operands[0], operands[1]);
  if (auto cmp = dyn_cast<arith::CmpIOp>(op))
    return cmpiExpression(cmp.getPredicate(), operand0, operands[0],
                          operands[1]);
  if (auto index = dyn_cast<linalg::IndexOp>(op))
    return valueOf(op->getResult(0)); // bound by the kernel's loops
  if (auto apply = dyn_cast<affine::AffineApplyOp>(op)) {
    AffineMap map = apply.getAffineMap();
    ArrayRef<std::string> all(operands);
    return affineText(map.getResult(0), all.take_front(map.getNumDims()),
                      all.drop_front(map.getNumDims()));
  }
  if (isa<arith::TruncFOp>(op)) {
    // Round to the narrow type, keep computing in float.
    if (result.isF16())
      return "__half2float(__float2half_rn(" + operands[0] + "))";
    if (result.isBF16())
      return "__bfloat162float(__float2bfloat16_rn(" + operands[0] + "))";
    return "((" + computeType(result) + ")" + operands[0] + ")";
  }
  if (isa<arith::TruncIOp>(op) && result.isInteger(1))
    return "((" + operands[0] + " & 1) != 0)";
  if (isa<arith::TruncIOp>(op))
    return "((" + computeType(result) + ")" + operands[0] + ")";
  if (isa<arith::ExtUIOp>(op) && operand0.isInteger(1))
    return "((" + computeType(result) + ")" + operands[0] + ")";
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    if (!load_) {
      op->emitError("CUDA code generation: this kernel cannot load");
      return failure();
    }
    SmallVector<std::string> indices(operands.begin() + 1, operands.end());
    std::string lvalue = load_(load.getMemRef(), indices);
    if (lvalue.empty())
      return failure();
    return loadAs(result, lvalue);
  }
  if (const Spelling *spelling =
          findSpelling(op->getName().getStringRef())) {
    // Half types compute in float, so pick the float spellings for them.
    return substitute(spelling->pattern, operands, result, operand0);
  }
  op->emitError("CUDA code generation does not support '")
      << op->getName() << "' yet";
  return failure();
}

LogicalResult ScalarCode::emit(Operation *op) {
  if (op->getNumResults() != 1) {
    op->emitError("CUDA code generation: expected an op with one result");
    return failure();
  }
  if (isa<linalg::IndexOp>(op))
    return success(names_.count(op->getResult(0)) != 0);
  FailureOr<std::string> text = expression(op);
  if (failed(text))
    return failure();
  std::string name = prefix_ + std::to_string(next_++);
  os_ << indent_ << computeType(op->getResult(0).getType()) << " " << name
      << " = " << *text << ";\n";
  names_[op->getResult(0)] = name;
  return success();
}

LogicalResult ScalarCode::emitBlock(Block &block, Operation *skip) {
  for (Operation &op : block.without_terminator())
    if (&op != skip && failed(emit(&op)))
      return failure();
  return success();
}

std::string ScalarCode::combine(Operation *combiner, const std::string &a,
                                const std::string &b) {
  Type type = combiner->getResult(0).getType();
  return llvm::TypeSwitch<Operation *, std::string>(combiner)
      .Case<arith::AddFOp, arith::AddIOp, arith::MulFOp, arith::MulIOp,
            arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
            arith::MinNumFOp, arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp,
            arith::MinUIOp, arith::AndIOp, arith::OrIOp, arith::XOrIOp>(
          [&](Operation *op) {
            return substitute(findSpelling(op->getName().getStringRef())
                                  ->pattern,
                              {a, b}, type, type);
          })
      .Default([](Operation *) { return std::string(); });
}

std::string ScalarCode::identity(Operation *combiner) {
  Type type = combiner->getResult(0).getType();
  std::string t = computeType(type);
  std::string inf = type.isF64() ? "__longlong_as_double(0x7ff0000000000000LL)"
                                 : "__int_as_float(0x7f800000)";
  unsigned width = type.isIntOrFloat() ? type.getIntOrFloatBitWidth() : 64;
  auto integer = [&](APInt value) {
    return literal(IntegerAttr::get(type, value), type);
  };
  return llvm::TypeSwitch<Operation *, std::string>(combiner)
      .Case<arith::AddFOp>([&](auto) { return "((" + t + ")0)"; })
      .Case<arith::MulFOp>([&](auto) { return "((" + t + ")1)"; })
      .Case<arith::MaximumFOp, arith::MaxNumFOp>(
          [&](auto) { return "(-" + inf + ")"; })
      .Case<arith::MinimumFOp, arith::MinNumFOp>(
          [&](auto) { return "(" + inf + ")"; })
      .Case<arith::AddIOp, arith::OrIOp, arith::XOrIOp, arith::MaxUIOp>(
          [&](auto) { return integer(APInt::getZero(width)); })
      .Case<arith::MulIOp>([&](auto) { return integer(APInt(width, 1)); })
      .Case<arith::AndIOp, arith::MinUIOp>(
          [&](auto) { return integer(APInt::getAllOnes(width)); })
      .Case<arith::MaxSIOp>(
          [&](auto) { return integer(APInt::getSignedMinValue(width)); })
      .Case<arith::MinSIOp>(
          [&](auto) { return integer(APInt::getSignedMaxValue(width)); })
      .Default([](Operation *) { return std::string(); });
}

} // namespace kiln::compiler::cuda

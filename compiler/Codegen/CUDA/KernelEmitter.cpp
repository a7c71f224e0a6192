//===- KernelEmitter.cpp - One linalg.generic as one CUDA kernel ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CUDA/KernelEmitter.h"
#include "compiler/Codegen/CUDA/KernelWriter.h"

#include "compiler/Codegen/CUDA/ScalarCode.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <limits>

using namespace mlir;

namespace kiln::compiler::cuda {

const char *kernelKindName(KernelKind kind) {
  switch (kind) {
  case KernelKind::kElementwise:
    return "elementwise";
  case KernelKind::kContraction:
    return "contraction";
  case KernelKind::kTensorCoreContraction:
    return "tensor-core contraction";
  case KernelKind::kWarpReduction:
    return "warp reduction";
  case KernelKind::kBlockReduction:
    return "block reduction";
  case KernelKind::kSerialReduction:
    return "serial reduction";
  }
  return "kernel";
}

LogicalResult KernelWriter::prepare() {
  ranges_ = op_.getStaticLoopRanges();
  if (llvm::any_of(ranges_, ShapedType::isDynamic))
    return op_.emitError("CUDA code generation needs static loop ranges");
  for (auto [loop, type] : llvm::enumerate(op_.getIteratorTypesArray()))
    (type == utils::IteratorType::parallel ? parallel_ : reduction_)
        .push_back(loop);
  // Outputs must be written once per parallel point, or threads race.
  for (OpOperand &init : op_.getDpsInitsMutable()) {
    AffineMap map = op_.getMatchingIndexingMap(&init);
    llvm::SmallBitVector seen(ranges_.size());
    for (AffineExpr result : map.getResults()) {
      // Kept (size-1) dimensions of a reduction are indexed by 0.
      if (auto constant = dyn_cast<AffineConstantExpr>(result))
        if (constant.getValue() == 0)
          continue;
      auto dim = dyn_cast<AffineDimExpr>(result);
      if (!dim || !llvm::is_contained(parallel_, dim.getPosition()))
        return op_.emitError("CUDA code generation: outputs must be indexed "
                             "by parallel loops only");
      seen.set(dim.getPosition());
    }
    for (unsigned loop : parallel_)
      if (!seen.test(loop))
        return op_.emitError("CUDA code generation: an output does not "
                             "cover every parallel loop");
  }
  int64_t largest =
      product(parallel_) * std::max<int64_t>(1, product(reduction_));
  for (OpOperand &operand : op_->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType())) {
      // Scalars (a fill's value) are constants folded into the source.
      Attribute constant;
      Operand scalar;
      if (matchPattern(operand.get(), m_Constant(&constant)))
        scalar.scalar = literal(constant, operand.get().getType());
      if (scalar.scalar.empty())
        return op_.emitError("CUDA code generation: scalar operands must "
                             "be constants");
      operands_.push_back(scalar);
      continue;
    }
    FailureOr<Operand> resolved = operandFor(operand.get());
    if (failed(resolved))
      return failure();
    operands_.push_back(*resolved);
    largest = std::max(largest, resolved->access.lastElement());
  }
  // The epilogue's buffers are addressed in this kernel too.
  if (linalg::GenericOp epilogue = request_.epilogue)
    for (Value value : epilogue->getOperands()) {
      if (!isa<MemRefType>(value.getType()))
        continue;
      FailureOr<BufferAccess> access = buffers_.resolve(value);
      if (failed(access))
        return failure();
      largest = std::max(largest, access->lastElement());
    }
  // 32-bit indices are much cheaper on GPUs; use them when nothing can
  // overflow (4x headroom for the vectorised flat index).
  if (largest < (int64_t(1) << 29))
    idx_ = "int";
  return success();
}

FailureOr<Operand> KernelWriter::operandFor(Value memref) {
  FailureOr<BufferAccess> access = buffers_.resolve(memref);
  if (failed(access))
    return failure();
  Operand operand;
  operand.access = *access;
  auto found = llvm::find(kernel_.params, access->root);
  unsigned param = found - kernel_.params.begin();
  if (found == kernel_.params.end())
    kernel_.params.push_back(access->root);
  Type element = access->elementType;
  kernel_.usesHalf |= needsHalfHeaders(element);
  std::string &pointer = pointers_[{param, element}];
  if (pointer.empty()) {
    pointer = "p" + std::to_string(pointers_.size() - 1);
    declarations_ += "  " + storageType(element) + " *" + pointer + " = (" +
                     storageType(element) + " *)a" + std::to_string(param) +
                     ";\n";
  }
  operand.pointer = pointer;
  return operand;
}

int64_t KernelWriter::product(ArrayRef<unsigned> loops) const {
  int64_t result = 1;
  for (unsigned loop : loops)
    result *= ranges_[loop];
  return result;
}

std::string KernelWriter::address(const BufferAccess &access, AffineMap map,
                                  ArrayRef<std::string> dims) const {
  std::string text = std::to_string(access.offset);
  for (auto [i, result] : llvm::enumerate(map.getResults())) {
    if (access.shape[i] == 1 || access.strides[i] == 0)
      continue;
    text += " + " + affineText(result, dims);
    if (access.strides[i] != 1)
      text += " * " + std::to_string(access.strides[i]);
  }
  return text;
}

std::string KernelWriter::loadCall(Value memref,
                                   ArrayRef<std::string> indices) {
  FailureOr<Operand> operand = operandFor(memref);
  if (failed(operand))
    return "";
  const BufferAccess &access = operand->access;
  std::string text = std::to_string(access.offset);
  for (auto [i, index] : llvm::enumerate(indices))
    if (access.shape[i] != 1)
      text += " + (" + idx_ + ")" + index + " * " +
              std::to_string(access.strides[i]);
  return operand->pointer + "[" + text + "]";
}

ScalarCode KernelWriter::bodyCode(llvm::raw_ostream &os,
                                  const std::string &indent,
                                  const std::string &prefix,
                                  ArrayRef<std::string> dims) {
  ScalarCode code(os, indent, prefix,
                  [this](Value memref, ArrayRef<std::string> indices) {
                    return loadCall(memref, indices);
                  });
  for (linalg::IndexOp index :
       op_.getRegion().front().getOps<linalg::IndexOp>())
    code.bind(index, "(long long)" + dims[index.getDim()]);
  return code;
}

void KernelWriter::bindOperand(llvm::raw_ostream &os, const std::string &indent,
                               ScalarCode &code, unsigned i,
                               ArrayRef<std::string> dims,
                               const std::string &suffix) {
  BlockArgument argument = op_.getRegion().front().getArgument(i);
  if (argument.use_empty())
    return;
  const Operand &operand = operands_[i];
  if (!operand.scalar.empty()) {
    code.bind(argument, operand.scalar);
    return;
  }
  std::string name = "in" + std::to_string(i) + suffix;
  os << indent << "const " << computeType(argument.getType()) << " " << name
     << " = "
     << loadAs(
            operand.access.elementType,
            operand.pointer + "[" +
                address(operand.access, op_.getIndexingMapsArray()[i], dims) +
                "]")
     << ";\n";
  code.bind(argument, name);
}

void KernelWriter::decompose(llvm::raw_ostream &os, const std::string &indent,
                             const std::string &flat, ArrayRef<unsigned> loops,
                             SmallVectorImpl<std::string> &dims,
                             const std::string &suffix) {
  std::string rest =
      "r" + suffix + "_" + std::to_string(loops.empty() ? 0 : loops.front());
  os << indent << idx_ << " " << rest << " = " << flat << ";\n";
  for (unsigned loop : llvm::reverse(loops)) {
    std::string name = "d" + std::to_string(loop) + suffix;
    dims[loop] = name;
    if (ranges_[loop] == 1) {
      os << indent << "const " << idx_ << " " << name << " = 0;\n";
      continue;
    }
    os << indent << "const " << idx_ << " " << name << " = " << rest << " % "
       << ranges_[loop] << ";\n";
    os << indent << rest << " /= " << ranges_[loop] << ";\n";
  }
}

bool KernelWriter::isVectorisable(unsigned operand) const {
  const BufferAccess &access = operands_[operand].access;
  AffineMap map = op_.getIndexingMapsArray()[operand];
  if (!operands_[operand].scalar.empty() || !access.elementType.isF32() ||
      !map.isIdentity() || access.offset % 4 != 0 ||
      access.root.byteOffset % 16 != 0)
    return false;
  if (ArrayRef<int64_t>(access.shape) != ArrayRef<int64_t>(ranges_))
    return false;
  int64_t expected = 1;
  for (int64_t i = int64_t(ranges_.size()) - 1; i >= 0; --i) {
    if (access.shape[i] != 1 && access.strides[i] != expected)
      return false;
    expected *= access.shape[i];
  }
  return true;
}

Operation *KernelWriter::findCombiner() const {
  if (op_.getNumDpsInits() != 1)
    return nullptr;
  Block &block = op_.getRegion().front();
  Value yielded = block.getTerminator()->getOperand(0);
  Operation *combiner = yielded.getDefiningOp();
  BlockArgument out = block.getArguments().back();
  if (!combiner || combiner->getBlock() != &block ||
      combiner->getNumOperands() != 2 || !out.hasOneUse() ||
      ScalarCode::combine(combiner, "a", "b").empty() ||
      computeType(out.getType()) == "bool")
    return nullptr;
  if (combiner->getOperand(0) != out && combiner->getOperand(1) != out)
    return nullptr;
  return combiner;
}

std::string KernelWriter::initOf(unsigned output, ArrayRef<std::string> dims) {
  if (request_.initValue)
    return *request_.initValue;
  unsigned operand = op_.getNumDpsInputs() + output;
  const Operand &init = operands_[operand];
  return loadAs(
      init.access.elementType,
      init.pointer + "[" +
          address(init.access, op_.getIndexingMapsArray()[operand], dims) +
          "]");
}

LogicalResult KernelWriter::emitElementwise(bool vectorised) {
  llvm::raw_string_ostream os(body_);
  unsigned lanes = vectorised ? 4 : 1;
  int64_t total = product(parallel_);
  int64_t work = total / lanes;
  kernel_.kind = KernelKind::kElementwise;
  kernel_.block[0] = kThreads;
  kernel_.grid[0] = blocksFor(work, kThreads);
  Block &block = op_.getRegion().front();
  auto maps = op_.getIndexingMapsArray();
  os << "  for (" << idx_ << " t = blockIdx.x * (" << idx_
     << ")blockDim.x + threadIdx.x; t < " << work << "; t += (" << idx_
     << ")gridDim.x * blockDim.x) {\n";
  SmallVector<bool> vector(operands_.size(), false);
  if (vectorised)
    for (unsigned i = 0; i < operands_.size(); ++i)
      vector[i] = isVectorisable(i);
  for (unsigned i = 0; i < op_.getNumDpsInputs(); ++i)
    if (vector[i] && !block.getArgument(i).use_empty())
      os << "    const float4 v" << i << " = ((const float4 *)("
         << operands_[i].pointer << " + " << operands_[i].access.offset
         << "))[t];\n";
  static const char *kLane[] = {"x", "y", "z", "w"};
  SmallVector<SmallVector<std::string>> results(lanes);
  for (unsigned lane = 0; lane < lanes; ++lane) {
    std::string suffix = vectorised ? "_" + std::to_string(lane) : "";
    SmallVector<std::string> dims(ranges_.size());
    std::string flat = vectorised ? "t * 4 + " + std::to_string(lane) : "t";
    // Dense float4 operands need no per-element indices.
    bool needsIndices = !block.getOps<linalg::IndexOp>().empty();
    for (unsigned i = 0; i < operands_.size(); ++i)
      needsIndices |=
          !vector[i] && operands_[i].scalar.empty() &&
          (i >= op_.getNumDpsInputs() || !block.getArgument(i).use_empty());
    if (needsIndices)
      decompose(os, "    ", flat, parallel_, dims, suffix);
    ScalarCode code = bodyCode(os, "    ", "s" + suffix + "_", dims);
    for (unsigned i = 0; i < operands_.size(); ++i) {
      BlockArgument argument = block.getArgument(i);
      if (argument.use_empty())
        continue;
      if (vector[i]) {
        code.bind(argument, "v" + std::to_string(i) + "." + kLane[lane]);
        continue;
      }
      bindOperand(os, "    ", code, i, dims, suffix);
    }
    if (failed(code.emitBlock(block)))
      return failure();
    for (auto [k, yielded] :
         llvm::enumerate(block.getTerminator()->getOperands())) {
      FailureOr<std::string> value = code.valueOf(yielded);
      if (failed(value))
        return failure();
      unsigned i = op_.getNumDpsInputs() + k;
      if (vectorised) {
        results[lane].push_back(*value);
        continue;
      }
      os << "    " << operands_[i].pointer << "["
         << address(operands_[i].access, maps[i], dims)
         << "] = " << storeAs(operands_[i].access.elementType, *value) << ";\n";
    }
  }
  if (vectorised)
    for (unsigned k = 0; k < op_.getNumDpsInits(); ++k) {
      unsigned i = op_.getNumDpsInputs() + k;
      os << "    ((float4 *)(" << operands_[i].pointer << " + "
         << operands_[i].access.offset << "))[t] = make_float4("
         << results[0][k] << ", " << results[1][k] << ", " << results[2][k]
         << ", " << results[3][k] << ");\n";
    }
  os << "  }\n";
  return success();
}

LogicalResult KernelWriter::emitLaneReduction(bool wholeBlock) {
  Operation *combiner = findCombiner();
  Block &block = op_.getRegion().front();
  BlockArgument out = block.getArguments().back();
  Value contribution = combiner->getOperand(0) == out ? combiner->getOperand(1)
                                                      : combiner->getOperand(0);
  std::string type = computeType(out.getType());
  std::string identity = ScalarCode::identity(combiner);
  int64_t points = product(parallel_), extent = product(reduction_);
  auto maps = op_.getIndexingMapsArray();
  kernel_.kind =
      wholeBlock ? KernelKind::kBlockReduction : KernelKind::kWarpReduction;
  kernel_.block[0] = kThreads;
  kernel_.grid[0] =
      wholeBlock ? blocksFor(points, 1) : blocksFor(points * 32, kThreads);
  llvm::raw_string_ostream os(body_);
  auto combineText = [&](const std::string &x, const std::string &y) {
    return ScalarCode::combine(combiner, x, y);
  };
  os << "  const int lane = threadIdx.x % 32;\n";
  if (wholeBlock)
    os << "  __shared__ " << type << " partial[" << kThreads / 32 << "];\n"
       << "  for (" << idx_ << " p = blockIdx.x; p < " << points
       << "; p += gridDim.x) {\n";
  else
    os << "  for (" << idx_ << " p = (blockIdx.x * (" << idx_
       << ")blockDim.x + threadIdx.x) / 32; p < " << points << "; p += ("
       << idx_ << ")gridDim.x * blockDim.x / 32) {\n";
  SmallVector<std::string> dims(ranges_.size());
  decompose(os, "    ", "p", parallel_, dims, "");
  os << "    " << type << " acc = " << identity << ";\n"
     << "    for (" << idx_ << " q = " << (wholeBlock ? "threadIdx.x" : "lane")
     << "; q < " << extent << "; q += " << (wholeBlock ? "blockDim.x" : "32")
     << ") {\n";
  decompose(os, "      ", "q", reduction_, dims, "");
  ScalarCode code = bodyCode(os, "      ", "s", dims);
  for (unsigned i = 0; i < op_.getNumDpsInputs(); ++i)
    bindOperand(os, "      ", code, i, dims);
  if (failed(code.emitBlock(block, combiner)))
    return failure();
  FailureOr<std::string> value = code.valueOf(contribution);
  if (failed(value))
    return failure();
  os << "      acc = " << combineText("acc", *value) << ";\n"
     << "    }\n"
     << "    for (int s = 16; s > 0; s /= 2)\n"
     << "      acc = "
     << combineText("acc", "__shfl_xor_sync(0xffffffffu, acc, s)") << ";\n";
  if (wholeBlock)
    os << "    if (lane == 0) partial[threadIdx.x / 32] = acc;\n"
       << "    __syncthreads();\n"
       << "    if (threadIdx.x < 32) {\n"
       << "      acc = lane < " << kThreads / 32
       << " ? partial[lane] : " << identity << ";\n"
       << "      for (int s = 16; s > 0; s /= 2)\n"
       << "        acc = "
       << combineText("acc", "__shfl_xor_sync(0xffffffffu, acc, s)") << ";\n"
       << "    }\n";
  unsigned o = op_.getNumDpsInputs();
  os << "    if (" << (wholeBlock ? "threadIdx.x" : "lane") << " == 0)\n"
     << "      " << operands_[o].pointer << "["
     << address(operands_[o].access, maps[o], dims) << "] = "
     << storeAs(operands_[o].access.elementType,
                combineText(initOf(0, dims), "acc"))
     << ";\n";
  if (wholeBlock)
    os << "    __syncthreads();\n";
  os << "  }\n";
  return success();
}

LogicalResult KernelWriter::emitSerialReduction() {
  int64_t points = product(parallel_);
  auto maps = op_.getIndexingMapsArray();
  Block &block = op_.getRegion().front();
  kernel_.kind = KernelKind::kSerialReduction;
  kernel_.block[0] = kThreads;
  kernel_.grid[0] = blocksFor(points, kThreads);
  llvm::raw_string_ostream os(body_);
  os << "  for (" << idx_ << " p = blockIdx.x * (" << idx_
     << ")blockDim.x + threadIdx.x; p < " << points << "; p += (" << idx_
     << ")gridDim.x * blockDim.x) {\n";
  SmallVector<std::string> dims(ranges_.size());
  decompose(os, "    ", "p", parallel_, dims, "");
  unsigned inputs = op_.getNumDpsInputs();
  for (unsigned k = 0; k < op_.getNumDpsInits(); ++k)
    os << "    " << computeType(block.getArgument(inputs + k).getType())
       << " acc" << k << " = " << initOf(k, dims) << ";\n";
  std::string indent = "    ";
  for (unsigned loop : reduction_) {
    dims[loop] = "d" + std::to_string(loop);
    os << indent << "for (" << idx_ << " " << dims[loop] << " = 0; "
       << dims[loop] << " < " << ranges_[loop] << "; ++" << dims[loop]
       << ") {\n";
    indent += "  ";
  }
  ScalarCode code = bodyCode(os, indent, "s", dims);
  for (unsigned i = 0; i < inputs; ++i)
    bindOperand(os, indent, code, i, dims);
  for (unsigned k = 0; k < op_.getNumDpsInits(); ++k)
    code.bind(block.getArgument(inputs + k), "acc" + std::to_string(k));
  if (failed(code.emitBlock(block)))
    return failure();
  SmallVector<std::string> updates;
  for (Value yielded : block.getTerminator()->getOperands()) {
    FailureOr<std::string> value = code.valueOf(yielded);
    if (failed(value))
      return failure();
    updates.push_back(*value);
  }
  // Assign after computing all, as the yields may read the accumulators.
  for (auto [k, update] : llvm::enumerate(updates))
    os << indent << "acc" << k << " = " << update << ";\n";
  for (size_t i = 0; i < reduction_.size(); ++i) {
    indent.resize(indent.size() - 2);
    os << indent << "}\n";
  }
  for (unsigned k = 0; k < op_.getNumDpsInits(); ++k) {
    const Operand &init = operands_[inputs + k];
    os << "    " << init.pointer << "["
       << address(init.access, maps[inputs + k], dims)
       << "] = " << storeAs(init.access.elementType, "acc" + std::to_string(k))
       << ";\n";
  }
  os << "  }\n";
  return success();
}

FailureOr<EmittedKernel> KernelWriter::emit() {
  kernel_.name = request_.name;
  LogicalResult emitted = failure();
  if (reduction_.empty()) {
    int64_t total = product(parallel_);
    bool vectorised = total % 4 == 0;
    for (unsigned k = 0; k < op_.getNumDpsInits() && vectorised; ++k)
      vectorised = isVectorisable(op_.getNumDpsInputs() + k);
    emitted = emitElementwise(vectorised);
  } else {
    if (std::optional<ContractionLoops> loops = contractionLoops()) {
      MmaKind mma = mmaKindOf(*loops);
      emitted = mma == MmaKind::kNone ? emitContraction(*loops)
                                      : emitTensorCoreContraction(*loops, mma);
      if (succeeded(emitted))
        kernel_.gemm = gemmCallOf(*loops);
    } else if (findCombiner() && product(reduction_) >= 32)
      emitted = emitLaneReduction(product(parallel_) < 1024 &&
                                  product(reduction_) >= 4096);
    else
      emitted = emitSerialReduction();
  }
  if (failed(emitted))
    return failure();
  if (request_.epilogue && !kernel_.fusedEpilogue)
    return request_.epilogue->emitError(
        "CUDA code generation: this epilogue's contraction is too large for "
        "a tiled kernel's grid, which alone applies epilogues");
  std::string &source = kernel_.source;
  source = "// " + kernel_.name + ": " + kernelKindName(kernel_.kind) + "\n";
  if (!request_.provenance.empty())
    source += "// source ops: " + request_.provenance + "\n";
  if (kernel_.fusedEpilogue)
    source += "// epilogue: " + request_.epilogueProvenance + "\n";
  source += "extern \"C\" __global__ void __launch_bounds__(" +
            std::to_string(kThreads) + ") " + kernel_.name + "(";
  for (size_t i = 0; i < kernel_.params.size(); ++i)
    source += std::string(i ? ", " : "") + "void *a" + std::to_string(i);
  source += ") {\n" + declarations_ + body_ + "}\n";
  return kernel_;
}

FailureOr<EmittedKernel> emitKernel(linalg::GenericOp op,
                                    const KernelRequest &request,
                                    BufferResolver &buffers) {
  KernelWriter writer(op, request, buffers);
  if (failed(writer.prepare()))
    return failure();
  FailureOr<EmittedKernel> kernel = writer.emit();
  if (failed(kernel))
    return failure();
  // What the schedule binds read-only: everything but the outputs.
  kernel->writes.assign(kernel->params.size(), false);
  for (linalg::GenericOp written : {op, request.epilogue}) {
    if (!written)
      continue;
    for (Value init : written.getDpsInits()) {
      FailureOr<BufferAccess> access = buffers.resolve(init);
      if (failed(access))
        return failure();
      auto found = llvm::find(kernel->params, access->root);
      if (found != kernel->params.end())
        kernel->writes[found - kernel->params.begin()] = true;
    }
  }
  return kernel;
}

} // namespace kiln::compiler::cuda

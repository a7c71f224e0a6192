//===- ContractionKernel.cpp - GEMM-like generics as tiled kernels --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A contraction (matmul, batch matmul, im2col convolution) becomes one
// kernel of 64x64 output tiles, 256 threads, K in steps of 16 staged
// through shared memory. Two inner shapes:
//   - tensor cores (WMMA), when the body is `out + a * b` on f32, f16 or
//     bf16, or `out + i32(a) * i32(b)` on int8 (int8 quantization's
//     contractions, exact in i32): eight warps, each two 16x16 accumulator
//     tiles. f32 runs as
//     3xTF32 (a = hi + lo, a*b ~ hi*hi + hi*lo + lo*hi), which keeps fp32
//     accuracy (about 2^-21 relative per product against TF32's 2^-11) at
//     three MMAs per step: still several times the SIMT FMA rate on
//     sm_80/sm_90. f16/bf16 use their native MMA with fp32 accumulation.
//   - SIMT otherwise (f64, other integers, other bodies, int8 before
//     sm_80): 4x4 outputs per thread,
//     the generic's own body as the update.
// Generated rather than cuBLASLt: the kernel reads the operands through
// the generic's indexing maps (transposed, strided, im2col views) with no
// layout copies, needs nothing but the driver at run time, and is checked
// in CI by NVRTC, ptxas and the CPU emulator. kiln-gpu-check measures it
// against cuBLASLt.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CUDA/KernelWriter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <functional>
#include <numeric>

using namespace mlir;

namespace kiln::compiler::cuda {

namespace {
/// What a tensor-core kernel is printed with.
struct MmaShape {
  const char *storage;  ///< Shared-memory element type.
  int storageBytes;     ///< Its size.
  const char *fragment; ///< WMMA fragment element type.
  int k;                ///< K of one MMA (m16n16k<k>).
  int pad;              ///< Row padding of shared tiles, in elements.
  const char *accumulator = "float"; ///< Accumulator fragment type.
  const char *zero = "0.0f";         ///< Its zero.
};

MmaShape shapeOf(MmaKind kind) {
  switch (kind) {
  case MmaKind::kF16:
    return {"__half", 2, "__half", 16, 8};
  case MmaKind::kBf16:
    return {"__nv_bfloat16", 2, "__nv_bfloat16", 16, 8};
  case MmaKind::kInt8:
    return {"signed char", 1, "signed char", 16, 16, "int", "0"};
  default:
    return {"float", 4, "nvcuda::wmma::precision::tf32", 8, 4};
  }
}

/// Whether `value` is `lhs * rhs` in either order.
bool isProductOf(Value value, Value lhs, Value rhs) {
  auto mul = value.getDefiningOp<arith::MulFOp>();
  return mul && ((mul.getLhs() == lhs && mul.getRhs() == rhs) ||
                 (mul.getLhs() == rhs && mul.getRhs() == lhs));
}

/// Whether `value` is the sign extension of `arg` to i32.
bool isWidened(Value value, Value arg) {
  auto ext = value.getDefiningOp<arith::ExtSIOp>();
  return ext && ext.getIn() == arg;
}

/// Whether a contraction body is `out + i32(a) * i32(b)` with a and b i8
/// and out i32, in either order: what linalg makes of an int8 x int8 ->
/// i32 matmul (int8 quantization's integer contractions).
bool isInt8MulAdd(Block &block) {
  if (block.getNumArguments() != 3 ||
      !block.getArgument(0).getType().isInteger(8) ||
      !block.getArgument(1).getType().isInteger(8) ||
      !block.getArgument(2).getType().isInteger(32))
    return false;
  auto add =
      block.getTerminator()->getOperand(0).getDefiningOp<arith::AddIOp>();
  if (!add)
    return false;
  Value acc = block.getArgument(2);
  Value product = add.getLhs() == acc   ? add.getRhs()
                  : add.getRhs() == acc ? add.getLhs()
                                        : Value();
  auto mul = product ? product.getDefiningOp<arith::MulIOp>() : nullptr;
  if (!mul)
    return false;
  Value lhs = block.getArgument(0), rhs = block.getArgument(1);
  return (isWidened(mul.getLhs(), lhs) && isWidened(mul.getRhs(), rhs)) ||
         (isWidened(mul.getLhs(), rhs) && isWidened(mul.getRhs(), lhs));
}

/// Where a tensor-core kernel stages its K tile in shared memory: the
/// declarations of As and Bs, the slot thread element `e` of a global
/// load fills (A: row e / 32, column e % 32; B: row e / 64, column
/// e % 64), and the WMMA load of a warp's fragment (at K offset kk, B's
/// column block j).
struct TileLayout {
  std::string declarations, aSlot, bSlot, aFragment, bFragment;
  int64_t operandBytes;
};

/// Row-major tiles padded by `shape.pad` per row: fragments start at K
/// offsets of 16 halves or 8 floats (32 bytes), so each is 256-bit aligned
/// as WMMA wants; row strides are multiples of 16 bytes, and the padding
/// spreads rows over the banks.
TileLayout rowTileLayout(const MmaShape &shape) {
  const std::string aStride = std::to_string(kTensorTileK + shape.pad),
                    bStride = std::to_string(kTile + shape.pad),
                    storage = shape.storage;
  TileLayout layout;
  int64_t aBytes = kTile * (kTensorTileK + shape.pad) * shape.storageBytes;
  layout.operandBytes =
      aBytes + kTensorTileK * (kTile + shape.pad) * shape.storageBytes;
  layout.declarations = "  " + storage + " (*As)[" + aStride + "] = (" +
                        storage + " (*)[" + aStride + "])tiles;\n  " + storage +
                        " (*Bs)[" + bStride + "] = (" + storage + " (*)[" +
                        bStride + "])(tiles + " + std::to_string(aBytes) +
                        ");\n";
  layout.aSlot = "As[e / " + std::to_string(kTensorTileK) + "][e % " +
                 std::to_string(kTensorTileK) + "]";
  layout.bSlot = "Bs[e / 64][e % 64]";
  layout.aFragment = "&As[wm][kk], " + aStride;
  layout.bFragment = "&Bs[kk][wn + 16 * j], " + bStride;
  return layout;
}

/// int8 tiles: a 16-element K offset is only 16 bytes, so row-major tiles
/// would start odd fragments half-aligned. Each 16 x 16 fragment gets 32-byte
/// rows of its own instead: A as [K / 16][64 rows][32], B as [K / 16][64 /
/// 16 column blocks][16 rows][32].
TileLayout byteTileLayout() {
  static_assert(kTensorTileK == 32 && kTile == 64, "the indices below");
  TileLayout layout;
  layout.operandBytes = 2 * 64 * 32 + 2 * 4 * 16 * 32;
  layout.declarations =
      "  signed char (*As)[64][32] = (signed char (*)[64][32])tiles;\n"
      "  signed char (*Bs)[4][16][32] =\n"
      "      (signed char (*)[4][16][32])(tiles + 4096);\n";
  layout.aSlot = "As[e % 32 / 16][e / 32][e % 16]";
  layout.bSlot = "Bs[e / 1024][e % 64 / 16][e / 64 % 16][e % 16]";
  layout.aFragment = "&As[kk / 16][wm][0], 32";
  layout.bFragment = "&Bs[kk / 16][(wn + 16 * j) / 16][0][0], 32";
  return layout;
}
} // namespace

std::optional<ContractionLoops> KernelWriter::contractionLoops() const {
  if (op_.getNumDpsInputs() != 2 || op_.getNumDpsInits() != 1 ||
      !linalg::isaContractionOpInterface(op_))
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op_);
  if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.empty())
    return std::nullopt;
  // The tiles hold one compute type; a mixed body stays serial, but for
  // int8 products summed in i32 (the tiles then hold i32).
  Block &block = op_.getRegion().front();
  std::string type = computeType(block.getArgument(0).getType());
  bool mixed = llvm::any_of(block.getArguments(), [&](BlockArgument a) {
    return computeType(a.getType()) != type;
  });
  if (type == "bool" || (mixed && !isInt8MulAdd(block)))
    return std::nullopt;
  ContractionLoops loops;
  loops.m.assign(dims->m.begin(), dims->m.end());
  loops.n.assign(dims->n.begin(), dims->n.end());
  loops.k.assign(dims->k.begin(), dims->k.end());
  loops.batch.assign(dims->batch.begin(), dims->batch.end());
  auto maps = op_.getIndexingMapsArray();
  loops.a = maps[0].isFunctionOfDim(loops.m.front()) ? 0 : 1;
  loops.b = 1 - loops.a;
  // One input runs along M only, the other along N only.
  for (unsigned loop : loops.m)
    if (maps[loops.b].isFunctionOfDim(loop))
      return std::nullopt;
  for (unsigned loop : loops.n)
    if (maps[loops.a].isFunctionOfDim(loop))
      return std::nullopt;
  loops.rows = product(loops.m);
  loops.cols = product(loops.n);
  loops.depth = product(loops.k);
  if (product(loops.batch) > kMaxBlocks ||
      ceilDiv(loops.rows, kTile) > kMaxBlocks ||
      ceilDiv(loops.cols, kTile) > std::numeric_limits<int32_t>::max())
    return std::nullopt;
  return loops;
}

Type KernelWriter::mulAddOperandType(const ContractionLoops &loops) const {
  Block &block = op_.getRegion().front();
  Type a = block.getArgument(loops.a).getType();
  Type b = block.getArgument(loops.b).getType();
  Type out = block.getArgument(2).getType();
  auto add =
      block.getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || a != b || !isa<FloatType>(out))
    return nullptr;
  Value acc = block.getArgument(2), lhs = block.getArgument(0),
        rhs = block.getArgument(1);
  bool mulAdd = (add.getLhs() == acc && isProductOf(add.getRhs(), lhs, rhs)) ||
                (add.getRhs() == acc && isProductOf(add.getLhs(), lhs, rhs));
  return mulAdd ? a : nullptr;
}

MmaKind KernelWriter::mmaKindOf(const ContractionLoops &loops) const {
  if (!request_.tensorCores)
    return MmaKind::kNone;
  if (isInt8MulAdd(op_.getRegion().front()))
    return MmaKind::kInt8;
  Type a = mulAddOperandType(loops);
  if (!a)
    return MmaKind::kNone;
  if (a.isF32())
    return MmaKind::kTf32x3;
  if (a.isF16())
    return MmaKind::kF16;
  if (a.isBF16())
    return MmaKind::kBf16;
  return MmaKind::kNone;
}

std::string KernelWriter::unflatten(const std::string &indent,
                                    const std::string &flat,
                                    ArrayRef<unsigned> loops,
                                    SmallVectorImpl<std::string> &names) const {
  if (loops.size() == 1) {
    names[loops.front()] = flat;
    return "";
  }
  std::string text;
  int64_t stride = 1;
  for (size_t i = loops.size(); i-- > 0;) {
    unsigned loop = loops[i];
    names[loop] = "d" + std::to_string(loop);
    std::string value =
        stride == 1 ? flat : "(" + flat + " / " + std::to_string(stride) + ")";
    if (i != 0)
      value += " % " + std::to_string(ranges_[loop]);
    text +=
        indent + "const " + idx_ + " " + names[loop] + " = " + value + ";\n";
    stride *= ranges_[loop];
  }
  return text;
}

std::string KernelWriter::tileLoad(
    const std::string &indent, const std::string &slot,
    const std::string &split, const std::string &position,
    const std::string &inside, unsigned operand, int64_t count,
    bool keepStorage,
    ArrayRef<std::pair<std::string, ArrayRef<unsigned>>> flats,
    SmallVectorImpl<std::string> &names) {
  const Operand &source = operands_[operand];
  Type element = source.access.elementType;
  const std::string inner = indent + "  ";
  std::string text = indent + "for (int l = 0; l < " +
                     std::to_string(count / kThreads) + "; ++l) {\n" + inner +
                     "const int e = threadIdx.x + l * " +
                     std::to_string(kThreads) + ", " + split + ";\n" + inner +
                     "const " + idx_ + " " + position + ";\n";
  for (auto [flat, loops] : flats)
    text += unflatten(inner, flat, loops, names);
  std::string value =
      "(" + inside + ") ? " +
      loadAs(element, source.pointer + "[" +
                          address(source.access,
                                  op_.getIndexingMapsArray()[operand], names) +
                          "]") +
      " : (" + computeType(element) + ")0";
  text += inner + slot + " = " +
          (keepStorage ? storeAs(element, value) : value) + ";\n" + indent +
          "}\n";
  return text;
}

LogicalResult KernelWriter::emitContraction(const ContractionLoops &loops) {
  const unsigned a = loops.a, b = loops.b;
  const std::string rows = std::to_string(loops.rows),
                    cols = std::to_string(loops.cols),
                    depth = std::to_string(loops.depth);
  Block &block = op_.getRegion().front();
  std::string type = computeType(block.getArgument(2).getType());
  beginContraction(loops, KernelKind::kContraction);
  llvm::raw_string_ostream os(body_);
  SmallVector<std::string> names(ranges_.size(), "0");
  os << "  __shared__ " << type << " As[" << kTileK << "][" << kTile + 4
     << "];\n"
     << "  __shared__ " << type << " Bs[" << kTileK << "][" << kTile + 4
     << "];\n"
     << "  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;\n"
     << "  const " << idx_ << " m0 = (" << idx_ << ")blockIdx.y * " << kTile
     << ", n0 = (" << idx_ << ")blockIdx.x * " << kTile << ";\n";
  decompose(os, "  ", "blockIdx.z", loops.batch, names, "");
  std::string outputIndices = unflatten("      ", "fm", loops.m, names) +
                              unflatten("      ", "fn", loops.n, names);
  os << "  " << type << " acc[4][4];\n"
     << "  for (int i = 0; i < 4; ++i)\n"
     << "    for (int j = 0; j < 4; ++j) {\n"
     << "      const " << idx_
     << " fm = m0 + ty + 16 * i, fn = n0 + tx + 16 * j;\n";
  if (!request_.initValue)
    os << outputIndices;
  os << "      acc[i][j] = (fm < " << rows << " && fn < " << cols << ") ? "
     << initOf(0, names) << " : (" << type << ")0;\n"
     << "    }\n"
     << "  for (" << idx_ << " k0 = 0; k0 < " << depth << "; k0 += " << kTileK
     << ") {\n"
     << tileLoad("    ", "As[kk][mm]", "mm = e / 16, kk = e % 16",
                 "fm = m0 + mm, fk = k0 + kk",
                 "fm < " + rows + " && fk < " + depth, a, kTile * kTileK, false,
                 {{"fm", loops.m}, {"fk", loops.k}}, names)
     << tileLoad("    ", "Bs[kk][nn]", "kk = e / 64, nn = e % 64",
                 "fk = k0 + kk, fn = n0 + nn",
                 "fk < " + depth + " && fn < " + cols, b, kTile * kTileK, false,
                 {{"fk", loops.k}, {"fn", loops.n}}, names)
     << "    __syncthreads();\n"
     << "#pragma unroll\n"
     << "    for (int kk = 0; kk < " << kTileK << "; ++kk) {\n"
     << "      " << type << " ra[4], rb[4];\n"
     << "      for (int i = 0; i < 4; ++i) ra[i] = As[kk][ty + 16 * i];\n"
     << "      for (int j = 0; j < 4; ++j) rb[j] = Bs[kk][tx + 16 * j];\n"
     << "#pragma unroll\n"
     << "      for (int i = 0; i < 4; ++i)\n"
     << "#pragma unroll\n"
     << "        for (int j = 0; j < 4; ++j) {\n";
  ScalarCode code(os, "          ", "s", nullptr);
  code.bind(block.getArgument(a), "ra[i]");
  code.bind(block.getArgument(b), "rb[j]");
  code.bind(block.getArgument(2), "acc[i][j]");
  if (failed(code.emitBlock(block)))
    return failure();
  FailureOr<std::string> update =
      code.valueOf(block.getTerminator()->getOperand(0));
  if (failed(update))
    return failure();
  os << "          acc[i][j] = " << *update << ";\n"
     << "        }\n"
     << "    }\n"
     << "    __syncthreads();\n"
     << "  }\n"
     << "  for (int i = 0; i < 4; ++i)\n"
     << "    for (int j = 0; j < 4; ++j) {\n"
     << "      const " << idx_
     << " fm = m0 + ty + 16 * i, fn = n0 + tx + 16 * j;\n"
     << "      if (fm >= " << rows << " || fn >= " << cols << ") continue;\n"
     << outputIndices;
  if (failed(storeResult(os, "      ", "acc[i][j]", names)))
    return failure();
  os << "    }\n";
  return success();
}

LogicalResult
KernelWriter::emitTensorCoreContraction(const ContractionLoops &loops,
                                        MmaKind mma) {
  const MmaShape shape = shapeOf(mma);
  const std::string rows = std::to_string(loops.rows),
                    cols = std::to_string(loops.cols),
                    depth = std::to_string(loops.depth);
  const std::string cStride = std::to_string(kTile + 4);
  const int64_t perThread = kTile * kTensorTileK / kThreads;
  beginContraction(loops, KernelKind::kTensorCoreContraction);
  kernel_.usesTensorCores = true;
  llvm::raw_string_ostream os(body_);
  SmallVector<std::string> names(ranges_.size(), "0");
  auto fragment = [&](const char *use) {
    return std::string("nvcuda::wmma::fragment<nvcuda::wmma::") + use +
           ", 16, 16, " + std::to_string(shape.k) + ", " + shape.fragment +
           ", nvcuda::wmma::row_major>";
  };
  // Global loads of K tile `kNext` into registers (aNext, bNext).
  auto loadNext = [&](const std::string &indent) {
    return tileLoad(indent, "aNext[l]",
                    "mm = e / " + std::to_string(kTensorTileK) + ", kk = e % " +
                        std::to_string(kTensorTileK),
                    "fm = m0 + mm, fk = kNext + kk",
                    "fm < " + rows + " && fk < " + depth, loops.a,
                    kTile * kTensorTileK, true,
                    {{"fm", loops.m}, {"fk", loops.k}}, names) +
           tileLoad(indent, "bNext[l]", "kk = e / 64, nn = e % 64",
                    "fk = kNext + kk, fn = n0 + nn",
                    "fk < " + depth + " && fn < " + cols, loops.b,
                    kTile * kTensorTileK, true,
                    {{"fk", loops.k}, {"fn", loops.n}}, names);
  };
  bool split = mma == MmaKind::kTf32x3;
  TileLayout tiles =
      mma == MmaKind::kInt8 ? byteTileLayout() : rowTileLayout(shape);
  // The result tile reuses the operand tiles' memory (they are dead by
  // then), so a block needs half the shared memory.
  int64_t sharedBytes = std::max(tiles.operandBytes, kTile * (kTile + 4) * 4);
  os << "  __shared__ __align__(32) unsigned char tiles[" << sharedBytes
     << "];\n"
     << tiles.declarations << "  " << shape.accumulator << " (*Cs)[" << cStride
     << "] = (" << shape.accumulator << " (*)[" << cStride << "])tiles;\n"
     << "  // Warp w owns rows wm..wm+15 and columns wn..wn+31 of the tile.\n"
     << "  const int warp = threadIdx.x / 32;\n"
     << "  const int wm = warp % 4 * 16, wn = warp / 4 * 32;\n"
     << "  const " << idx_ << " m0 = (" << idx_ << ")blockIdx.y * " << kTile
     << ", n0 = (" << idx_ << ")blockIdx.x * " << kTile << ";\n";
  decompose(os, "  ", "blockIdx.z", loops.batch, names, "");
  os << "  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, "
     << shape.k << ", " << shape.accumulator << "> c[2];\n"
     << "  nvcuda::wmma::fill_fragment(c[0], " << shape.zero << ");\n"
     << "  nvcuda::wmma::fill_fragment(c[1], " << shape.zero << ");\n"
     << "  // Software pipeline: the next K tile's global loads are in flight\n"
     << "  // while the tensor cores work on this one.\n"
     << "  " << shape.storage << " aNext[" << perThread << "], bNext["
     << perThread << "];\n"
     << "  {\n"
     << "    const " << idx_ << " kNext = 0;\n"
     << loadNext("    ") << "  }\n"
     << "  for (" << idx_ << " k0 = 0; k0 < " << depth
     << "; k0 += " << kTensorTileK << ") {\n"
     << "    for (int l = 0; l < " << perThread << "; ++l) {\n"
     << "      const int e = threadIdx.x + l * " << kThreads << ";\n"
     << "      " << tiles.aSlot << " = aNext[l];\n"
     << "      " << tiles.bSlot << " = bNext[l];\n"
     << "    }\n"
     << "    __syncthreads();\n"
     << "    if (k0 + " << kTensorTileK << " < " << depth << ") {\n"
     << "      const " << idx_ << " kNext = k0 + " << kTensorTileK << ";\n"
     << loadNext("      ") << "    }\n"
     << "#pragma unroll\n"
     << "    for (int kk = 0; kk < " << kTensorTileK << "; kk += " << shape.k
     << ") {\n"
     << "      " << fragment("matrix_a") << (split ? " a, aLo;\n" : " a;\n")
     << "      nvcuda::wmma::load_matrix_sync(a, " << tiles.aFragment << ");\n";
  if (split)
    os << "      kiln_tf32_split(a, aLo);\n";
  os << "#pragma unroll\n"
     << "      for (int j = 0; j < 2; ++j) {\n"
     << "        " << fragment("matrix_b") << (split ? " b, bLo;\n" : " b;\n")
     << "        nvcuda::wmma::load_matrix_sync(b, " << tiles.bFragment
     << ");\n";
  if (split)
    os << "        kiln_tf32_split(b, bLo);\n"
       << "        // Small terms first: they are below the big one's "
          "rounding.\n"
       << "        nvcuda::wmma::mma_sync(c[j], aLo, b, c[j]);\n"
       << "        nvcuda::wmma::mma_sync(c[j], a, bLo, c[j]);\n";
  os << "        nvcuda::wmma::mma_sync(c[j], a, b, c[j]);\n"
     << "      }\n"
     << "    }\n"
     << "    __syncthreads();\n"
     << "  }\n"
     << "  // Through shared memory: fragment layouts are opaque, and the\n"
     << "  // store below then writes whole rows of the output.\n"
     << "  for (int j = 0; j < 2; ++j)\n"
     << "    nvcuda::wmma::store_matrix_sync(&Cs[wm][wn + 16 * j], c[j], "
     << cStride << ", nvcuda::wmma::mem_row_major);\n"
     << "  __syncthreads();\n"
     << "  for (int l = 0; l < " << kTile * kTile / kThreads << "; ++l) {\n"
     << "    const int e = threadIdx.x + l * " << kThreads
     << ", r = e / 64, cc = e % 64;\n"
     << "    const " << idx_ << " fm = m0 + r, fn = n0 + cc;\n"
     << "    if (fm >= " << rows << " || fn >= " << cols << ") continue;\n"
     << unflatten("    ", "fm", loops.m, names)
     << unflatten("    ", "fn", loops.n, names);
  if (failed(storeResult(os, "    ", "(" + initOf(0, names) + ") + Cs[r][cc]",
                         names)))
    return failure();
  os << "  }\n";
  return success();
}

void KernelWriter::beginContraction(const ContractionLoops &loops,
                                    KernelKind kind) {
  kernel_.kind = kind;
  kernel_.block[0] = kThreads;
  kernel_.grid[0] = uint32_t(ceilDiv(loops.cols, kTile));
  kernel_.grid[1] = uint32_t(ceilDiv(loops.rows, kTile));
  kernel_.grid[2] = uint32_t(product(loops.batch));
  epilogue_ = bool(request_.epilogue);
  kernel_.fusedEpilogue = epilogue_;
}

LogicalResult KernelWriter::storeResult(llvm::raw_ostream &os,
                                        const std::string &indent,
                                        const std::string &value,
                                        ArrayRef<std::string> names) {
  const Operand &out = operands_[2];
  auto maps = op_.getIndexingMapsArray();
  Type outType = out.access.elementType;
  if (!epilogue_) {
    os << indent << out.pointer << "[" << address(out.access, maps[2], names)
       << "] = " << storeAs(outType, value) << ";\n";
    return success();
  }
  linalg::GenericOp epilogue = request_.epilogue;
  // The product as the epilogue would have read it back (rounded to f16
  // when the buffer is f16), and the epilogue's point from its position.
  os << indent << "const " << computeType(outType)
     << " product = " << loadAs(outType, storeAs(outType, value)) << ";\n"
     << indent << "const " << idx_
     << " position = " << address(out.access, maps[2], names) << ";\n";
  SmallVector<int64_t> ranges = epilogue.getStaticLoopRanges();
  SmallVector<std::string> dims(ranges.size());
  int64_t stride = 1;
  for (size_t i = ranges.size(); i-- > 0;) {
    dims[i] = "e" + std::to_string(i);
    os << indent << "const " << idx_ << " " << dims[i] << " = ";
    os << (stride == 1 ? std::string("position")
                       : "position / " + std::to_string(stride));
    if (i != 0)
      os << " % " << ranges[i];
    os << ";\n";
    stride *= ranges[i];
  }
  ScalarCode code(os, indent, "v",
                  [this](Value memref, ArrayRef<std::string> indices) {
                    return loadCall(memref, indices);
                  });
  Block &block = epilogue.getRegion().front();
  for (linalg::IndexOp index : block.getOps<linalg::IndexOp>())
    code.bind(index, "(long long)" + dims[index.getDim()]);
  SmallVector<Operand> operands;
  auto epilogueMaps = epilogue.getIndexingMapsArray();
  for (OpOperand &operand : epilogue->getOpOperands()) {
    unsigned i = operand.getOperandNumber();
    BlockArgument argument = block.getArgument(i);
    Value source = operand.get();
    if (!isa<MemRefType>(source.getType())) {
      Attribute constant;
      matchPattern(source, m_Constant(&constant));
      code.bind(argument, literal(constant, source.getType()));
      operands.emplace_back();
      continue;
    }
    FailureOr<Operand> resolved = operandFor(source);
    if (failed(resolved))
      return failure();
    operands.push_back(*resolved);
    if (argument.use_empty())
      continue;
    if (resolved->access.root == out.access.root) {
      code.bind(argument, "product");
      continue;
    }
    std::string name = "epi" + std::to_string(i);
    os << indent << "const " << computeType(argument.getType()) << " " << name
       << " = "
       << loadAs(resolved->access.elementType,
                 resolved->pointer + "[" +
                     address(resolved->access, epilogueMaps[i], dims) + "]")
       << ";\n";
    code.bind(argument, name);
  }
  if (failed(code.emitBlock(block)))
    return failure();
  unsigned inputs = epilogue.getNumDpsInputs();
  for (auto [k, yielded] :
       llvm::enumerate(block.getTerminator()->getOperands())) {
    FailureOr<std::string> result = code.valueOf(yielded);
    if (failed(result))
      return failure();
    const Operand &target = operands[inputs + k];
    os << indent << target.pointer << "["
       << address(target.access, epilogueMaps[inputs + k], dims)
       << "] = " << storeAs(target.access.elementType, *result) << ";\n";
  }
  return success();
}
} // namespace kiln::compiler::cuda

//===- Passes.td - CPU code generation passes ---------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CPU_PASSES_TD
#define KILN_COMPILER_CODEGEN_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def VectorizeLinalgPass : Pass<"kiln-vectorize-linalg", "::mlir::func::FuncOp"> {
  let summary = "Tile linalg ops on buffers into static register tiles and "
                "vectorise them";
  let description = [{
    Runs after the memory plan, on buffers: tiling makes subviews and
    vectorising makes vector transfers, so kernels still never allocate.
    Contractions (matmul, batch matmul, gemm, im2col convolutions) are
    blocked for the caches first (column panels as wide as the register
    tile outermost, then blocks of the reduction), then cut into register
    tiles of rows x columns (the columns contiguous), the reduction stepped
    one at a time with the accumulator tile hoisted into registers:
    vector.contract, lowered to outer products and FMAs by
    `kiln-lower-vector-ops`. The tile follows the host's vectors: 8x32 with
    AVX-512, 4x16 with AVX2 (RegisterTile.h); the options override it.
    Other generics, fills and copies are tiled by 16 along their innermost
    loop. A size that does not divide its loop leaves one partial tile,
    peeled off and vectorised at its own static size: no loop is cut into
    tiles of a divisor. Ops that cannot be vectorised this way (dynamic
    shapes, loads in the body, non-unit innermost strides, i1 buffers, an
    innermost range under 4) are left to convert-linalg-to-loops.
    Column panels or reduction blocks go outermost, whichever streams fewer
    bytes from beyond L2. A reduction loop whose accumulators make fewer
    than 8 FMA chains is unrolled onto partial accumulators summed after it
    (SplitAccumulatorChains.h); its dense operand streams are prefetched
    ahead (PrefetchWeightStreams.h).
  }];
  let options = [
    Option<"registerRows", "register-rows", "int64_t", "0",
           "Rows of a contraction's register tile (0: for this CPU)">,
    Option<"registerColumns", "register-columns", "int64_t", "0",
           "Columns (f32 lanes) of the register tile (0: for this CPU)">,
    Option<"vectorLanes", "vector-lanes", "int64_t", "0",
           "f32 lanes of one vector register (0: for this CPU)">,
    Option<"cacheDepth", "cache-depth", "int64_t", "0",
           "Largest reduction block of a contraction (0: 256)">,
    Option<"accumulatorChains", "accumulator-chains", "int64_t", "0",
           "Dependency chains a reduction loop's accumulators should make; "
           "fewer are split into partial accumulators (0: 8, 1: off)">,
    Option<"prefetchDistance", "prefetch-distance", "int64_t", "-1",
           "Bytes ahead of a register tile's dense operand streams that "
           "its reduction loop prefetches (-1: 8192, 0: off)">
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def FoldAccumulatorFillsPass
    : Pass<"kiln-fold-accumulator-fills", "::mlir::func::FuncOp"> {
  let summary = "Move the fill that initialises a reduction's output onto "
                "the reduction";
  let description = [{
    On buffers, before dispatches are formed: a `linalg.fill` of a constant
    directly followed by an f32 linalg op with reduction loops (a
    contraction, a depthwise convolution, a pooling window) writing the
    same buffer, and not reading it as an input, is erased, and the op
    carries the constant as `kiln.accumulator_init`. `kiln-vectorize-linalg`
    then fills each register tile in registers before its reduction loops,
    so the output is written once instead of filled in a pass of its own
    and read back; where it does not tile the op so, it puts the fill back
    in front of it. Only for the CPU pipeline, with `kiln-vectorize-linalg`
    after it.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def LowerVectorOpsPass : Pass<"kiln-lower-vector-ops", "::mlir::func::FuncOp"> {
  let summary = "Lower contractions, reductions and transposes to 1-D vector "
                "ops and FMAs";
  let description = [{
    vector.contract becomes outer products and those `vector.fma`;
    multi-reductions reduce along their innermost dimension; transfers get
    minor identity maps; broadcasts, transposes and shape casts become 1-D
    operations. A read along a dimension of stride 2 to 4 becomes one
    contiguous (masked) read of the span it covers and a shuffle. What
    remains (n-D transfers) is unrolled by
    convert-vector-to-scf and lowered by convert-vector-to-llvm.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect"];
}

def ApproximateMathPass : Pass<"kiln-approximate-math", "::mlir::func::FuncOp"> {
  let summary = "Replace f32 transcendental math ops by polynomial "
                "approximations";
  let description = [{
    exp, expm1, tanh and erf on f32 scalars and vectors become MLIR's
    polynomial approximations, so that vectorised loops stay in registers
    instead of calling libm per element. Other element types and other
    functions (log's polynomial flushes subnormal inputs) keep their LLVM
    intrinsics or libm calls.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def WeightOnlyGemmCallsPass
    : Pass<"kiln-cpu-weight-only-gemm-calls", "::mlir::ModuleOp"> {
  let summary = "Run weight-only quantized GEMMs on the weight-only kernel";
  let description = [{
    On planned buffers, before tiling, the generic kiln.weight_only_matmul
    lowers to, `out[..., m, n] += lhs[..., m, k] * (sitofp(q[k, n]) *
    s[k floordiv G, n])` with f32 lhs and out, where q (i8) and s (f32) are
    all the rows of constant globals (or a workgroup's column slice of
    them), becomes a call to `kiln_weight_only_gemm`
    (Kernels/WeightOnlyGemm.h). q and s are packed at compile time into the
    kernel's layout (Kernels/WeightOnlyGemmLayout.h) as one new global
    `NAME_wo_packed`, at 4 bits when every value of q fits in 4 bits, else
    at 8; views of the unpacked globals that nothing else reads are erased
    (the artifact keeps only the packed bytes). Batch dimensions are folded
    into the rows when lhs and out are contiguous over them; other forms
    keep the generated loops.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect"];
}

def Int8GemmCallsPass : Pass<"kiln-cpu-int8-gemm-calls", "::mlir::ModuleOp"> {
  let summary = "Run int8 x int8 -> i32 GEMMs on the int8 GEMM kernels";
  let description = [{
    On planned buffers, before tiling, a contraction generic that reads
    int8 operands (sign-extended) and accumulates into i32 becomes a call
    into the kernel library (Kernels/Int8Gemm.h):
    - (m, k) x (k, n) -> (m, n) where B is all the rows of a constant
      global (or a workgroup's column slice of them): `kiln_int8_gemm`,
      with B packed at compile time into the kernels' layout
      (Kernels/Int8GemmLayout.h) as a new global `NAME_int8_packed`;
    - any other (m, k) x (k, n) -> (m, n), and (m, k) x (b, k, n) ->
      (b, m, n) (a convolution's weights times each image's patches):
      `kiln_int8_gemm_batched`, which packs B block by block as it goes.
    Views are passed as pointers with their row (and batch) strides. Which
    instructions run (AMX, AVX-512 VNNI, portable) is the library's choice
    at run time; the library is linked into the generated code
    (CpuKernelLibrary.h). Other integer contractions keep the generated
    loops.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect"];
}

def ShareIdenticalKernelsPass
    : Pass<"kiln-share-identical-kernels", "::mlir::ModuleOp"> {
  let summary = "Compile dispatches with identical bodies once";
  let description = [{
    Runs on the dispatch functions of kiln-form-cpu-dispatches (on buffers,
    before tiling). A dispatch reaches its buffers as views of the arena at
    constant byte offsets (the memory plan) and as globals (the weights);
    with each distinct one of those as a parameter instead, two dispatches
    of the same ops on the same shapes have the same body (ResNet-50's
    bottleneck blocks repeat their convolutions). A static window of such a
    buffer (a subview, e.g. the output rows of one convolution chunk) is a
    parameter of its own, its layout offset left open, when every user
    takes it so (accesses, and subviews whose offset is open already): the
    chunks of one convolution then share one kernel too. Each body shared by two
    or more dispatches becomes one private kernel function
    `@<first dispatch>_kernel`, LLVM `noinline` (inlined, it would be
    compiled once per caller), and each of those dispatches keeps its name and
    signature (the runtime calls it) but only builds its buffers and calls
    the kernel. A dispatch whose body is unique is left as it was: constant
    offsets and globals tell LLVM more than parameters. A dispatch that
    already only calls a kernel is left alone (the pass is idempotent).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect"];
}

def FlattenConstantGlobalsPass
    : Pass<"kiln-flatten-constant-globals", "::mlir::ModuleOp"> {
  let summary = "Give constant LLVM globals a one-dimensional array type";
  let description = [{
    A constant `llvm.mlir.global` of a nested array type with a dense
    initialiser (a weight, `!llvm.array<64 x array<27 x array<8 x f32>>>`)
    becomes its raw bytes as one flat array (`!llvm.array<55296 x i8>`; a
    splat stays a splat, flattened). LLVM IR builds a nested initialiser as
    one uniqued constant per innermost row, hashed by its bytes (ResNet-50's
    weights were millions of eight-float constants), and writes a float
    array to the object element by element: seconds of a compile. Uses of a global take its
    address (`llvm.mlir.addressof`, an opaque pointer) and compute byte
    offsets themselves, so the type change is invisible to them; a global
    whose type is read otherwise is left alone. With `leave-from-bytes`,
    globals at least that large are left as they are: the CPU artifact
    writes their bytes to an object itself (ConstantsObject.h), and a
    flattened copy would be one more copy and hash of every weight.
  }];
  let options = [
    Option<"leaveFromBytes", "leave-from-bytes", "uint64_t", /*default=*/"0",
           "Leave globals of at least this many bytes alone (0: none)">
  ];
}

#endif // KILN_COMPILER_CODEGEN_CPU_PASSES_TD

//===- Passes.td - Memory planning passes --------------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Device-neutral: the CPU and CUDA pipelines both bufferise, plan one arena
// and hand planned buffers to their code generators.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_MEMORYPLANNING_PASSES_TD
#define KILN_COMPILER_MEMORYPLANNING_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerMemRefCopyPass : Pass<"kiln-lower-memref-copy", "::mlir::ModuleOp"> {
  let summary = "Turn memref.copy into linalg.copy so that it becomes loops";
  let description = [{
    Bufferisation and buffer-results-to-out-params copy buffers with
    `memref.copy`. Between strided buffers (a slice or an inner-axis
    concatenation) upstream lowers that op to a call into MLIR's runner
    library (`memrefCopy`), which neither the JIT nor `.kiln` kernels link.
    As `linalg.copy` it is lowered to plain loops like every other kernel.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def WriteIntoPaddedBuffersPass
    : Pass<"kiln-write-into-padded-buffers", "::mlir::func::FuncOp"> {
  let summary = "Let the op producing a tensor that is padded write it into "
                "the padded buffer's interior";
  let description = [{
    On tensors, before bufferisation. Constant padding is lowered to a fill
    of a fresh tensor and a `tensor.insert_slice` of the padded tensor into
    it: bufferised as it stands, the producer writes a buffer of its own,
    the whole padded buffer is filled and a copy moves the producer's
    buffer into its interior. This pass fills only the border instead (one
    slab per padded side, in front of the producer) and leaves the
    interior to the producer: upstream's empty-tensor elimination, run
    next, hands the producer a slice of the padded tensor as its
    destination, so it writes the interior directly; the copy, the
    producer's own buffer and the interior's fill are gone. Only where the
    producer is a destination-style op in the same block, the slice is
    static with unit strides, and the fill has no other use.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ElideResultCopiesPass : Pass<"kiln-elide-result-copies", "::mlir::ModuleOp"> {
  let summary = "Let the kernel that computes a result write it straight into "
                "the caller's output buffer";
  let description = [{
    After buffer-results-to-out-params each result is a `memref.copy` from
    the buffer holding it into a trailing out-parameter. (The pass's own
    `hoist-static-allocs` only handles a returned `memref.alloc` with the
    `AllocationOpInterface`, not a reshaped view of one.) Where the copy's
    source is a whole statically shaped `memref.alloc`, possibly seen
    through `memref.collapse_shape`/`expand_shape`, and the destination is a
    function argument used by nothing but this copy, the allocation is
    replaced by the argument (reshaped back to the allocation's shape) and
    the copy is erased: the last kernel writes the caller's buffer, and the
    result takes no arena memory.

    Only when that is unobservable: the copy is the allocation's last use,
    the allocation does not escape, and the function is one block.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def RecordGraphTensorBytesPass
    : Pass<"kiln-record-graph-tensor-bytes", "::mlir::ModuleOp"> {
  let summary = "Record what one buffer per intermediate graph tensor would "
                "take: the unplanned figure of the memory plan";
  let description = [{
    Sets `kiln.graph_tensor_bytes` on every public function: the total size
    of the tensors an op-by-op executor without memory planning would
    allocate, one buffer per intermediate tensor of the graph. Counted: every
    statically shaped tensor result of an op in the function, ops inside
    `kiln.fusion` groups counted as if unfused (so the figure is the same
    with and without fusion). Not counted: constants (weights), the
    function's results and whatever reaches them only through reshapes (the
    caller owns those buffers), and `kiln.reshape` results (a view of their
    operand, as op-by-op runtimes alias them). i1 elements take a byte.

    `kiln-plan-memory` reports this as the plan's `unplanned_bytes`
    (docs/memory-planning.md). Runs on the graph, before lowering.
  }];
}

def PlanMemoryPass : Pass<"kiln-plan-memory", "::mlir::ModuleOp"> {
  let summary = "Place every intermediate buffer in one planned arena the "
                "caller owns";
  let description = [{
    Replaces each statically shaped `memref.alloc` of a public function with
    a `memref.view` into a new trailing argument, the arena (`memref<Nxi8>`),
    and records N as the module attribute `kiln.arena_bytes`. Kernels then
    never allocate: the runtime allocates the arena once per executable and
    reuses it for every run.

    Offsets come from a memory plan. The execution order is the order of the
    function body's top-level ops; a buffer is live from the first to the
    last of those ops touching it or any view of it (to the end if it
    escapes or is used by an op the pass cannot see through). An output of
    an elementwise `linalg.generic` may take over an input buffer of the
    same size that dies there. Buffers are then packed greedily, largest
    first, each into the smallest gap left by buffers live at the same time,
    every offset 64-byte aligned (docs/memory-planning.md).

    The plan (per buffer: offset, size, first and last step, producing op
    and its location; per function: peak, lower bound, the buffers' total
    `unplanned_kernel_buffers_bytes`, steps, kernels, and `unplanned_bytes`
    taken from the function's `kiln.graph_tensor_bytes` when
    kiln-record-graph-tensor-bytes set it) is recorded as the module
    attribute `kiln.memory_plan`.
    Runs after bufferisation and before buffer deallocation (views of an
    argument are not deallocated).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // KILN_COMPILER_MEMORYPLANNING_PASSES_TD

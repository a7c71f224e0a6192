//===- ExecOps.td - Ops of the exec schedule dialect ----------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_EXEC_IR_EXECOPS_TD
#define KILN_DIALECTS_EXEC_IR_EXECOPS_TD

include "dialects/Exec/IR/ExecBase.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// The step interface
//===----------------------------------------------------------------------===//

def KilnExec_StepOpInterface : OpInterface<"StepOpInterface"> {
  let cppNamespace = "::kiln::exec";
  let description = [{
    A step of an `exec.program`: it waits for the tokens in `after`, touches
    the buffers its bindings name and produces a token when it is done.
  }];
  let methods = [
    InterfaceMethod<"The buffers the step touches.",
      "::llvm::SmallVector<::kiln::exec::BindingAttr>", "getStepBindings">,
    InterfaceMethod<"The steps it waits for.",
      "::mlir::OperandRange", "getAfter">,
  ];
}

class KilnExec_Op<string mnemonic, list<Trait> traits = []>
    : Op<KilnExec_Dialect, mnemonic, traits>;

class KilnExec_StepOp<string mnemonic, list<Trait> traits = []>
    : KilnExec_Op<mnemonic, !listconcat(traits,
          [HasParent<"ProgramOp">, KilnExec_StepOpInterface])> {
  let results = (outs KilnExec_TokenType:$done);
}

//===----------------------------------------------------------------------===//
// Programs and kernels
//===----------------------------------------------------------------------===//

def KilnExec_ProgramOp : KilnExec_Op<"program", [
    Symbol, SingleBlock, NoTerminator, IsolatedFromAbove, NoRegionArguments]> {
  let summary = "the schedule of one device: steps in a valid execution order";
  let description = [{
    A device program. Its body lists steps in an order that respects their
    `after` dependencies (tokens are SSA values, so a step can only wait for
    one listed before it); a runtime may run steps whose dependencies are
    met concurrently. The program's interface is `inputs` tensors and
    `outputs` tensors in host order, plus one arena of `arena` bytes that
    holds every intermediate buffer and, on devices that need them uploaded,
    `constants` bytes of weights.

    ```mlir
    exec.program @mlp device(cpu) inputs(1) outputs(1) arena(512) {
      %0 = exec.dispatch @mlp_d0 grid [4, 1, 1]
             bindings [#exec.binding<input 0[0 : 64] read>,
                       #exec.binding<arena[0 : 512] write>]
      %1 = exec.dispatch @mlp_d1 grid [1, 1, 1] after(%0)
             bindings [#exec.binding<arena[0 : 512] read>,
                       #exec.binding<output 0[0 : 32] write>]
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       KilnExec_Device:$device,
                       I32Attr:$num_inputs,
                       I32Attr:$num_outputs,
                       I64Attr:$arena_bytes,
                       DefaultValuedAttr<I64Attr, "0">:$constants_bytes);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name `device` `(` $device `)` `inputs` `(` $num_inputs `)`
    `outputs` `(` $num_outputs `)` `arena` `(` $arena_bytes `)`
    (`constants` `(` $constants_bytes^ `)`)? attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Checks that `binding` lies inside this program's buffers; `what`
    /// names the step in the message.
    ::mlir::LogicalResult verifyBinding(::mlir::Operation *step,
                                        BindingAttr binding);
  }];
}

def KilnExec_KernelOp : KilnExec_Op<"kernel", [Symbol]> {
  let summary = "a device kernel whose code lives outside the IR";
  let description = [{
    Declares a kernel that `exec.dispatch` can launch on a device whose
    kernels are not MLIR functions (CUDA: printed CUDA C++, compiled by
    NVRTC). `source_ops` names the graph ops it computes, for tools.

    ```mlir
    exec.kernel @kiln_k0 source_ops ["linalg.matmul"]
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       DefaultValuedAttr<StrArrayAttr, "{}">:$source_ops);
  let assemblyFormat = "$sym_name (`source_ops` $source_ops^)? attr-dict";
}

//===----------------------------------------------------------------------===//
// Steps
//===----------------------------------------------------------------------===//

def KilnExec_DispatchOp : KilnExec_StepOp<"dispatch", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "run a kernel over a grid of workgroups";
  let description = [{
    Runs `callee` once per workgroup of `grid` (x, y, z). Workgroups are
    independent: a runtime may run them in any order and in parallel.

    On the CPU, `callee` is a `func.func` taking the program's inputs, its
    outputs and the arena, then the first and one-past-last workgroup ids
    (`index`) it must run; `grid` is [n, 1, 1]. The split of the work into
    workgroups is fixed by the compiler, so a result never depends on how
    many threads ran them. On CUDA, `callee` is an `exec.kernel`, `grid` the
    launch grid, `block` the thread block and `shared` its dynamic shared
    memory.

    Optionally, `results` names the typed buffers the kernel computes, one
    element type each in `types`: every one inside a binding the dispatch
    writes. They are debug information, serialised with the step for
    numerics checks and profiles, as is the op's location (its source ops)
    and `flops`, the arithmetic operations all workgroups together perform
    (an estimate from the loop nests: iterations times body operations).
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       DenseI32ArrayAttr:$grid,
                       OptionalAttr<DenseI32ArrayAttr>:$block,
                       DefaultValuedAttr<I32Attr, "0">:$shared_bytes,
                       KilnExec_BindingArrayAttr:$bindings,
                       OptionalAttr<KilnExec_BindingArrayAttr>:$result_ranges,
                       OptionalAttr<TypeArrayAttr>:$result_elements,
                       OptionalAttr<I64Attr>:$flops,
                       Variadic<KilnExec_TokenType>:$after);
  let assemblyFormat = [{
    $callee `grid` $grid (`block` $block^)? (`shared` `(` $shared_bytes^ `)`)?
    (`after` `(` $after^ `)`)? `bindings` $bindings
    (`results` $result_ranges^ `types` $result_elements)?
    (`flops` `(` $flops^ `)`)? attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::llvm::SmallVector<BindingAttr> getStepBindings() {
      return ::llvm::to_vector(
          getBindings().getAsRange<BindingAttr>());
    }
    /// Workgroups in all: grid x * y * z.
    int64_t getWorkgroupCount();
    /// The checks of `result_ranges` and `result_elements`.
    ::llvm::LogicalResult verifyResults();
  }];
}

def KilnExec_CopyOp : KilnExec_StepOp<"copy"> {
  let summary = "copy bytes from one binding to another";
  let description = [{
    Copies `source` to `target` (same size, not overlapping). Between
    devices a runtime makes it a transfer.

    ```mlir
    %0 = exec.copy #exec.binding<arena[0 : 64] read>
           to #exec.binding<output 0[0 : 64] write>
    ```
  }];
  let arguments = (ins KilnExec_BindingAttr:$source,
                       KilnExec_BindingAttr:$target,
                       Variadic<KilnExec_TokenType>:$after);
  let assemblyFormat = [{
    $source `to` $target (`after` `(` $after^ `)`)? attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::llvm::SmallVector<BindingAttr> getStepBindings() {
      return {getSource(), getTarget()};
    }
  }];
}

def KilnExec_FillOp : KilnExec_StepOp<"fill"> {
  let summary = "fill a binding with a repeated bit pattern";
  let description = [{
    Writes `pattern` (an integer of 8, 16, 32 or 64 bits: the bits of one
    element) over and over into `target`, whose size is a multiple of the
    pattern's.

    ```mlir
    %0 = exec.fill #exec.binding<arena[0 : 64] write> pattern(0 : i32)
    ```
  }];
  let arguments = (ins KilnExec_BindingAttr:$target,
                       APIntAttr:$pattern,
                       Variadic<KilnExec_TokenType>:$after);
  let assemblyFormat = [{
    $target `pattern` `(` $pattern `)` (`after` `(` $after^ `)`)? attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::llvm::SmallVector<BindingAttr> getStepBindings() {
      return {getTarget()};
    }
  }];
}

def KilnExec_CollectiveOp : KilnExec_StepOp<"collective"> {
  let summary = "a collective over the ranks of a device group";
  let description = [{
    Every rank of a group of `ranks` devices runs the same collective step.
    `send` is this rank's contribution and `recv` its result; element type
    `element` says how bytes are combined by `reduction`.

    | kind           | bindings    | sizes                      |
    |----------------|-------------|----------------------------|
    | all_reduce     | send, recv  | recv = send                |
    | all_gather     | send, recv  | recv = send x ranks        |
    | reduce_scatter | send, recv  | send = recv x ranks        |
    | broadcast      | send, recv  | recv = send (from `peer`)  |
    | send           | send        | to `peer`                  |
    | recv           | recv        | from `peer`                |

    all_reduce and reduce_scatter need a reduction, the others none. On a
    group of one rank every collective is a copy (or nothing when it is in
    place). Lowerings to NCCL and MPI belong to the sharding work; the
    runtime hands these steps to a collectives hook.

    ```mlir
    %0 = exec.collective all_reduce sum ranks(2) element(f32)
           send #exec.binding<arena[0 : 64] read>
           recv #exec.binding<arena[64 : 64] write>
    ```
  }];
  let arguments = (ins KilnExec_CollectiveKind:$kind,
                       DefaultValuedAttr<KilnExec_ReductionKind,
                           "::kiln::exec::ReductionKind::none">:$reduction,
                       I32Attr:$ranks,
                       OptionalAttr<I32Attr>:$peer,
                       TypeAttr:$element,
                       OptionalAttr<KilnExec_BindingAttr>:$send,
                       OptionalAttr<KilnExec_BindingAttr>:$recv,
                       Variadic<KilnExec_TokenType>:$after);
  let assemblyFormat = [{
    $kind ($reduction^)? `ranks` `(` $ranks `)` (`peer` `(` $peer^ `)`)?
    `element` `(` $element `)` (`send` $send^)? (`recv` $recv^)?
    (`after` `(` $after^ `)`)? attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::llvm::SmallVector<BindingAttr> getStepBindings() {
      ::llvm::SmallVector<BindingAttr> bindings;
      if (auto send = getSendAttr())
        bindings.push_back(send);
      if (auto recv = getRecvAttr())
        bindings.push_back(recv);
      return bindings;
    }
  }];
}

def KilnExec_CommunicateOp : KilnExec_Op<"communicate", [
    DestinationStyleOpInterface,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "a collective inside a function, before scheduling";
  let description = [{
    What `kiln.all_reduce` and `kiln.all_gather` lower to, in destination
    style so that bufferisation and the memory plan treat it like a loop
    nest: on tensors it returns the new value of `init`; on buffers it has
    no result and writes `init`. `kiln-form-cpu-dispatches` turns each one
    into an `exec.collective` step binding `input` as send and `init` as
    recv. Sizes follow `exec.collective`: all_gather's `init` holds
    `ranks` times `input`'s elements (rank after rank), reduce_scatter's
    `input` `ranks` times `init`'s; element types match.

    ```mlir
    %r = exec.communicate all_reduce sum ranks(2)
           ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    exec.communicate all_gather ranks(2)
           ins(%a : memref<4x8xf32>) outs(%b : memref<8x8xf32>)
    ```
  }];
  let arguments = (ins KilnExec_CollectiveKind:$kind,
                       DefaultValuedAttr<KilnExec_ReductionKind,
                           "::kiln::exec::ReductionKind::none">:$reduction,
                       I32Attr:$ranks,
                       AnyTypeOf<[AnyRankedTensor, AnyMemRef]>:$input,
                       AnyTypeOf<[AnyRankedTensor, AnyMemRef]>:$init);
  let results = (outs Variadic<AnyRankedTensor>:$result);
  let assemblyFormat = [{
    $kind ($reduction^)? `ranks` `(` $ranks `)`
    `ins` `(` $input `:` type($input) `)`
    `outs` `(` $init `:` type($init) `)` attr-dict (`->` type($result)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getInitMutable();
    }
  }];
}

def KilnExec_BarrierOp : KilnExec_StepOp<"barrier"> {
  let summary = "wait for steps before going on";
  let description = [{
    Completes once the steps in `after` have — or, with none listed, once
    every earlier step of the program has. It touches no buffer; later steps
    wait for it to order themselves after a whole phase.

    ```mlir
    %2 = exec.barrier
    ```
  }];
  let arguments = (ins Variadic<KilnExec_TokenType>:$after);
  let assemblyFormat = "(`after` `(` $after^ `)`)? attr-dict";
  let extraClassDeclaration = [{
    ::llvm::SmallVector<BindingAttr> getStepBindings() { return {}; }
  }];
}

#endif // KILN_DIALECTS_EXEC_IR_EXECOPS_TD

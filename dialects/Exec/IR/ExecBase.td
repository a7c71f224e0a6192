//===- ExecBase.td - Types, enums and attributes of exec ------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_EXEC_IR_EXECBASE_TD
#define KILN_DIALECTS_EXEC_IR_EXECBASE_TD

include "dialects/Exec/IR/ExecDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums (values are part of the artifact format: never renumber)
//===----------------------------------------------------------------------===//

def KilnExec_Device : I32EnumAttr<"Device", "the device a program runs on", [
      I32EnumAttrCase<"cpu", 1>, I32EnumAttrCase<"cuda", 2>]> {
  let cppNamespace = "::kiln::exec";
}

def KilnExec_BufferBase : I32EnumAttr<"BufferBase",
    "the runtime-owned buffer a binding lies in", [
      I32EnumAttrCase<"input", 1>, I32EnumAttrCase<"output", 2>,
      I32EnumAttrCase<"arena", 3>, I32EnumAttrCase<"constants", 4>]> {
  let cppNamespace = "::kiln::exec";
  let genSpecializedAttr = 0;
}

def KilnExec_Access : I32EnumAttr<"Access", "how a step uses a binding", [
      I32EnumAttrCase<"read", 1>, I32EnumAttrCase<"write", 2>,
      I32EnumAttrCase<"read_write", 3>]> {
  let cppNamespace = "::kiln::exec";
  let genSpecializedAttr = 0;
}

def KilnExec_CollectiveKind : I32EnumAttr<"CollectiveKind",
    "what a collective computes across the ranks of a group", [
      I32EnumAttrCase<"all_reduce", 1>, I32EnumAttrCase<"all_gather", 2>,
      I32EnumAttrCase<"reduce_scatter", 3>, I32EnumAttrCase<"broadcast", 4>,
      I32EnumAttrCase<"send", 5>, I32EnumAttrCase<"recv", 6>]> {
  let cppNamespace = "::kiln::exec";
}

def KilnExec_ReductionKind : I32EnumAttr<"ReductionKind",
    "how a reducing collective combines elements", [
      I32EnumAttrCase<"none", 0>, I32EnumAttrCase<"sum", 1>,
      I32EnumAttrCase<"max", 2>, I32EnumAttrCase<"min", 3>,
      I32EnumAttrCase<"prod", 4>]> {
  let cppNamespace = "::kiln::exec";
}

//===----------------------------------------------------------------------===//
// Types and attributes
//===----------------------------------------------------------------------===//

class KilnExec_Type<string name, string typeMnemonic>
    : TypeDef<KilnExec_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def KilnExec_TokenType : KilnExec_Type<"Token", "token"> {
  let summary = "completion of a step";
  let description = [{
    Produced by every step; a step that lists tokens in `after(...)` starts
    only once those steps have finished. Tokens are the schedule's edges.
  }];
}

class KilnExec_Attr<string name, string attrMnemonic>
    : AttrDef<KilnExec_Dialect, name> {
  let mnemonic = attrMnemonic;
}

def KilnExec_BindingAttr : KilnExec_Attr<"Binding", "binding"> {
  let summary = "a byte range of a runtime-owned buffer and how a step uses it";
  let description = [{
    `#exec.binding<arena[64 : 4096] read_write>`: bytes [64, 64 + 4096) of
    the arena. Inputs and outputs carry an index: `input 1[0 : 256] read`.
    The arena and the constants are single buffers (no index).
  }];
  let parameters = (ins
    EnumParameter<KilnExec_BufferBase>:$base,
    "uint32_t":$index,
    "uint64_t":$offset,
    "uint64_t":$bytes,
    EnumParameter<KilnExec_Access>:$access);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    bool reads() const {
      return getAccess() != ::kiln::exec::Access::write;
    }
    bool writes() const {
      return getAccess() != ::kiln::exec::Access::read;
    }
    /// Inputs and outputs are numbered; the arena and the constants are
    /// single buffers.
    bool hasIndex() const {
      return getBase() == ::kiln::exec::BufferBase::input ||
             getBase() == ::kiln::exec::BufferBase::output;
    }
    /// Whether both name the same buffer and their byte ranges intersect.
    bool overlaps(BindingAttr other) const;
  }];
}

def KilnExec_BindingArrayAttr
    : TypedArrayAttrBase<KilnExec_BindingAttr, "array of bindings">;

#endif // KILN_DIALECTS_EXEC_IR_EXECBASE_TD

//===- GraphBase.td - Base classes and type constraints -----*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_GRAPH_IR_GRAPHBASE_TD
#define KILN_DIALECTS_GRAPH_IR_GRAPHBASE_TD

include "dialects/Graph/IR/GraphDialect.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

//===----------------------------------------------------------------------===//
// Element types and tensor constraints
//===----------------------------------------------------------------------===//

def Kiln_FloatElement : AnyTypeOf<[F16, BF16, F32, F64], "floating-point">;
// Unsigned integers come from the importer; kiln-lower-unsigned rewrites
// them into signless ones (with unsigned semantics) before lowering.
def Kiln_IntElement : AnyTypeOf<[I8, I16, I32, I64, UI8, UI16, UI32, UI64],
                                "integer">;
def Kiln_BoolElement : AnyTypeOf<[I1], "boolean (i1)">;
def Kiln_IndexElement : AnyTypeOf<[I32, I64], "i32 or i64 index">;

def Kiln_NumericElement : AnyTypeOf<[Kiln_FloatElement, Kiln_IntElement],
                                    "numeric">;
def Kiln_Element : AnyTypeOf<[Kiln_NumericElement, Kiln_BoolElement],
                             "supported element">;

// Graph-level tensors are ranked and statically shaped: symbolic dimensions
// are specialised by the importer before anything reaches the dialect.
def Kiln_Tensor : StaticShapeTensorOf<[Kiln_Element]>;
def Kiln_NumericTensor : StaticShapeTensorOf<[Kiln_NumericElement]>;
def Kiln_FloatTensor : StaticShapeTensorOf<[Kiln_FloatElement]>;
def Kiln_IntTensor : StaticShapeTensorOf<[Kiln_IntElement]>;
def Kiln_BoolTensor : StaticShapeTensorOf<[Kiln_BoolElement]>;
def Kiln_IndexTensor : StaticShapeTensorOf<[Kiln_IndexElement]>;
def Kiln_I64Tensor : StaticShapeTensorOf<[I64]>;

//===----------------------------------------------------------------------===//
// Base op class
//===----------------------------------------------------------------------===//

// Every graph op has value semantics and no side effects.
class Kiln_Op<string mnemonic, list<Trait> traits = []>
    : Op<Kiln_Dialect, mnemonic, !listconcat(traits, [Pure])>;

// An op whose single result type is computed by a shared rule in
// TypeInference.cpp. `inferCall` is a C++ expression over `adaptor`,
// `location` and `inferred` (the output vector) returning LogicalResult.
class Kiln_InferredOp<string mnemonic, string inferCall,
                      list<Trait> traits = []>
    : Kiln_Op<mnemonic, !listconcat(traits, [InferTypeOpAdaptor])> {
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context,
        ::std::optional<::mlir::Location> location, Adaptor adaptor,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferred) {
      return }] # inferCall # [{;
    }
  }];
}

#endif // KILN_DIALECTS_GRAPH_IR_GRAPHBASE_TD

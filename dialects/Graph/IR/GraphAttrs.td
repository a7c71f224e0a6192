//===- GraphAttrs.td - Attributes of the kiln dialect --------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_GRAPH_IR_GRAPHATTRS_TD
#define KILN_DIALECTS_GRAPH_IR_GRAPHATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "dialects/Graph/IR/GraphDialect.td"

def Kiln_ShardingAttr : AttrDef<Kiln_Dialect, "Sharding"> {
  let mnemonic = "sharding";
  let summary = "how a value is laid out over one axis of ranks";
  let description = [{
    The three states of GSPMD's and upstream MLIR's shardings:

    * `#kiln.sharding<replicated>`: every rank holds all of the value;
    * `#kiln.sharding<split D>`: rank r holds the r-th of N equal slices
      along dimension D;
    * `#kiln.sharding<partial sum>` (or `max`, `min`, `prod`): every rank
      holds a full-shaped operand of that reduction over the ranks.

    As `kiln.shard` on a function argument or on a `kiln.constant`, it is a
    user's annotation: `kiln-shard` starts that value with that layout
    (only `replicated` and `split` are meaningful there), and the rules
    carry it through the graph (docs/sharding.md).

    `over "AXIS"` names the axis of the module's `kiln.mesh` the layout is
    over, e.g. `#kiln.sharding<split 1 over "tensor">`; without it, the
    axis that `kiln-shard` splits.
  }];
  let parameters = (ins "::kiln::ShardingKind":$kind, "int64_t":$dim,
                        "::kiln::CollectiveReduction":$reduction,
                        StringRefParameter<"mesh axis", "\"\"">:$axis);
  let builders = [
    AttrBuilder<(ins), [{
      return $_get($_ctxt, ::kiln::ShardingKind::replicated, -1,
                   ::kiln::CollectiveReduction::sum, "");
    }]>,
    AttrBuilder<(ins "int64_t":$dim), [{
      return $_get($_ctxt, ::kiln::ShardingKind::split, dim,
                   ::kiln::CollectiveReduction::sum, "");
    }]>,
    AttrBuilder<(ins "::kiln::CollectiveReduction":$reduction), [{
      return $_get($_ctxt, ::kiln::ShardingKind::partial, -1, reduction, "");
    }]>,
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isReplicated() const {
      return getKind() == ::kiln::ShardingKind::replicated;
    }
    bool isSplit() const { return getKind() == ::kiln::ShardingKind::split; }
    bool isPartial() const {
      return getKind() == ::kiln::ShardingKind::partial;
    }
    /// The same layout over mesh axis `axis` ("": the one kiln-shard splits).
    ShardingAttr overAxis(::llvm::StringRef axis) const {
      return get(getContext(), getKind(), getDim(), getReduction(), axis);
    }
  }];
}

#endif // KILN_DIALECTS_GRAPH_IR_GRAPHATTRS_TD

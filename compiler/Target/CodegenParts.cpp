//===- CodegenParts.cpp - An LLVM module cut for parallel codegen ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CodegenParts.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <algorithm>

namespace kiln::compiler {

namespace {

using GlobalSet = llvm::DenseSet<const llvm::GlobalValue *>;

/// Adds to `reached` the local globals `root` uses, directly or through
/// other locals (their bodies or initializers).
void addReachedLocals(const llvm::GlobalValue &root, GlobalSet &reached) {
  llvm::SmallVector<const llvm::Value *> work;
  llvm::DenseSet<const llvm::Value *> seen;
  auto pushOperands = [&](const llvm::GlobalValue &global) {
    if (auto *function = llvm::dyn_cast<llvm::Function>(&global)) {
      for (const llvm::Instruction &instruction : llvm::instructions(function))
        for (const llvm::Value *operand : instruction.operands())
          work.push_back(operand);
    } else if (auto *variable = llvm::dyn_cast<llvm::GlobalVariable>(&global)) {
      if (variable->hasInitializer())
        work.push_back(variable->getInitializer());
    }
  };
  pushOperands(root);
  while (!work.empty()) {
    const llvm::Value *value = work.pop_back_val();
    if (!llvm::isa<llvm::Constant>(value) || !seen.insert(value).second)
      continue;
    if (auto *global = llvm::dyn_cast<llvm::GlobalValue>(value)) {
      if (global->hasLocalLinkage() && !global->isDeclaration() &&
          reached.insert(global).second)
        pushOperands(*global);
      continue;
    }
    for (const llvm::Value *operand :
         llvm::cast<llvm::Constant>(value)->operands())
      work.push_back(operand);
  }
}

} // namespace

std::vector<llvm::SmallVector<char, 0>> cutForCodegen(llvm::Module &module,
                                                      unsigned parts) {
  if (!module.alias_empty() || !module.ifunc_empty() ||
      !module.getComdatSymbolTable().empty() || parts < 2)
    return {};
  // A linkonce, weak or available_externally definition may be dropped
  // by the -O3 of the one part it lives in while another part calls it:
  // such a module is compiled whole.
  for (const llvm::GlobalValue &global : module.global_values())
    if (!global.isDeclaration() && !global.hasLocalLinkage() &&
        !global.hasExternalLinkage() && !global.hasAppendingLinkage())
      return {};
  // A local variable that can change is state: copies of it in several
  // parts would diverge. It becomes a hidden non-local one, kept once.
  for (llvm::GlobalVariable &variable : module.globals())
    if (variable.hasLocalLinkage() && !variable.isConstant()) {
      if (!variable.hasName())
        variable.setName("kiln.state");
      variable.setLinkage(llvm::GlobalValue::ExternalLinkage);
      variable.setVisibility(llvm::GlobalValue::HiddenVisibility);
    }
  // Each non-local definition is a root of exactly one part: functions to
  // the least loaded part, largest first; variables (tables, appending
  // globals) to part 0.
  std::vector<const llvm::Function *> functions;
  for (const llvm::Function &function : module)
    if (!function.isDeclaration() && !function.hasLocalLinkage())
      functions.push_back(&function);
  // Largest first; names (unique among non-local definitions) break ties
  // so that the assignment does not depend on the module's order.
  std::sort(functions.begin(), functions.end(),
            [](const llvm::Function *a, const llvm::Function *b) {
              unsigned aSize = a->getInstructionCount();
              unsigned bSize = b->getInstructionCount();
              return aSize != bSize ? aSize > bSize
                                    : a->getName() < b->getName();
            });
  std::vector<GlobalSet> members(parts);
  std::vector<uint64_t> load(parts, 0);
  for (const llvm::Function *function : functions) {
    size_t lightest = std::min_element(load.begin(), load.end()) - load.begin();
    members[lightest].insert(function);
    load[lightest] += function->getInstructionCount();
  }
  for (const llvm::GlobalVariable &variable : module.globals())
    if (!variable.isDeclaration() && !variable.hasLocalLinkage())
      members[0].insert(&variable);

  std::vector<llvm::SmallVector<char, 0>> bitcode;
  for (GlobalSet &part : members) {
    if (part.empty())
      continue;
    GlobalSet locals;
    for (const llvm::GlobalValue *root : part)
      addReachedLocals(*root, locals);
    part.insert(locals.begin(), locals.end());
    llvm::ValueToValueMapTy map;
    std::unique_ptr<llvm::Module> cut =
        llvm::CloneModule(module, map, [&](const llvm::GlobalValue *global) {
          return part.contains(global);
        });
    // Locals of other parts came along as unused declarations.
    llvm::SmallVector<llvm::GlobalValue *> unused;
    for (const llvm::GlobalValue &original : module.global_values())
      if (original.hasLocalLinkage() && !part.contains(&original))
        if (auto *copy =
                llvm::cast_or_null<llvm::GlobalValue>(map.lookup(&original));
            copy && copy->use_empty())
          unused.push_back(copy);
    for (llvm::GlobalValue *global : unused)
      global->eraseFromParent();
    bitcode.emplace_back();
    llvm::raw_svector_ostream os(bitcode.back());
    llvm::WriteBitcodeToFile(*cut, os);
  }
  return bitcode;
}

} // namespace kiln::compiler

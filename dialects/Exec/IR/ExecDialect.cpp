//===- ExecDialect.cpp - The exec schedule dialect ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/Exec/IR/ExecDialect.h"
#include "dialects/Exec/IR/ExecOps.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kiln::exec;

#include "dialects/Exec/IR/ExecOpsDialect.cpp.inc"

#include "dialects/Exec/IR/ExecEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/Exec/IR/ExecOpsTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Exec/IR/ExecAttrs.cpp.inc"

void KilnExecDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/Exec/IR/ExecOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/Exec/IR/ExecOpsTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/Exec/IR/ExecAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// BindingAttr: `<arena[64 : 4096] read>`, `<input 1[0 : 256] read>`
//===----------------------------------------------------------------------===//

Attribute BindingAttr::parse(AsmParser &parser, Type) {
  StringRef baseName, accessName;
  uint32_t index = 0;
  uint64_t offset = 0, bytes = 0;
  SMLoc baseLoc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseKeyword(&baseName))
    return {};
  std::optional<BufferBase> base = symbolizeBufferBase(baseName);
  if (!base) {
    parser.emitError(baseLoc, "unknown buffer '")
        << baseName << "' (expected input, output, arena or constants)";
    return {};
  }
  bool indexed = *base == BufferBase::input || *base == BufferBase::output;
  if (indexed && parser.parseInteger(index))
    return {};
  if (parser.parseLSquare() || parser.parseInteger(offset) ||
      parser.parseColon() || parser.parseInteger(bytes) ||
      parser.parseRSquare())
    return {};
  SMLoc accessLoc = parser.getCurrentLocation();
  if (parser.parseKeyword(&accessName) || parser.parseGreater())
    return {};
  std::optional<Access> access = symbolizeAccess(accessName);
  if (!access) {
    parser.emitError(accessLoc, "unknown access '")
        << accessName << "' (expected read, write or read_write)";
    return {};
  }
  return BindingAttr::get(parser.getContext(), *base, index, offset, bytes,
                          *access);
}

void BindingAttr::print(AsmPrinter &printer) const {
  printer << "<" << stringifyBufferBase(getBase());
  if (hasIndex())
    printer << " " << getIndex();
  printer << "[" << getOffset() << " : " << getBytes() << "] "
          << stringifyAccess(getAccess()) << ">";
}

bool BindingAttr::overlaps(BindingAttr other) const {
  if (getBase() != other.getBase() || getIndex() != other.getIndex())
    return false;
  return getOffset() < other.getOffset() + other.getBytes() &&
         other.getOffset() < getOffset() + getBytes();
}

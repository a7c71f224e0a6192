//===- RegisterTile.cpp - Register and cache tiles for this CPU -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/RegisterTile.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"

namespace kiln::compiler {

CpuRegisterTile CpuRegisterTile::forVectorBits(unsigned bits) {
  CpuRegisterTile tile;
  if (bits >= 512)
    return tile;
  tile.rows = 4;
  tile.columns = 16;
  tile.lanes = 8;
  return tile;
}

CpuRegisterTile CpuRegisterTile::forHost() {
  // The artifact targets this CPU ("native") unless told otherwise; a tile
  // for the wrong width is slower, never wrong. Asked once: the pass that
  // uses it runs on every dispatch function.
  static const CpuRegisterTile host = [] {
    llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
    return forVectorBits(features.lookup("avx512f") ? 512 : 256);
  }();
  return host;
}

} // namespace kiln::compiler

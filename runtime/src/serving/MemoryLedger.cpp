//===- MemoryLedger.cpp - Reserved device memory, per device --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/MemoryLedger.h"

namespace kiln::rt::serving {

MemoryLedger::MemoryLedger(std::string deviceName, std::uint64_t capacityBytes,
                           std::uint64_t contextReserveBytes)
    : deviceName_(std::move(deviceName)), capacityBytes_(capacityBytes),
      contextReserveBytes_(contextReserveBytes) {}

Status MemoryLedger::reserve(const std::string &model,
                             const Footprint &footprint) {
  if (holds(model))
    return Status(StatusCode::kFailedPrecondition,
                  "model '" + model + "' is already loaded on device '" +
                      deviceName_ + "'");
  if (!fits(footprint))
    return Status(StatusCode::kResourceExhausted,
                  "cannot load model '" + model + "' on device '" +
                      deviceName_ + "': needs " +
                      std::to_string(footprint.total()) + " bytes (weights " +
                      std::to_string(footprint.weightsBytes) + ", arena " +
                      std::to_string(footprint.arenaBytes) + ", workspace " +
                      std::to_string(footprint.workspaceBytes) + "), " +
                      std::to_string(freeBytes()) + " bytes free");
  reservations_.emplace(model, footprint);
  reservedBytes_ += footprint.total();
  return Status::ok();
}

Status MemoryLedger::release(const std::string &model) {
  auto it = reservations_.find(model);
  if (it == reservations_.end())
    return notFound("model '" + model + "' holds no memory on device '" +
                    deviceName_ + "'");
  reservedBytes_ -= it->second.total();
  reservations_.erase(it);
  return Status::ok();
}

} // namespace kiln::rt::serving

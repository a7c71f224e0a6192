//===- MemoryLedger.h - Reserved device memory, per device ------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Device memory is a ledger, not a fraction: capacity minus the context
// reserve minus every loaded replica's whole footprint (weights, arena,
// workspace). A load is admitted only when it fits, so serving never meets
// a device out-of-memory error; refusals are typed (RESOURCE_EXHAUSTED) and
// say what was asked for and what was free.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SERVING_MEMORYLEDGER_H
#define KILN_RUNTIME_SERVING_MEMORYLEDGER_H

#include "kiln/runtime/Status.h"
#include "kiln/runtime/serving/ModelSpec.h"

#include <cstdint>
#include <map>
#include <string>

namespace kiln::rt::serving {

/// Thread-compatible.
class MemoryLedger {
public:
  MemoryLedger(std::string deviceName, std::uint64_t capacityBytes,
               std::uint64_t contextReserveBytes);

  /// Reserves `footprint` for `model`. RESOURCE_EXHAUSTED when it does not
  /// fit (naming model, device, bytes needed and free); FAILED_PRECONDITION
  /// when the model already holds a reservation here.
  Status reserve(const std::string &model, const Footprint &footprint);
  /// Returns a model's reservation; NOT_FOUND when it holds none.
  Status release(const std::string &model);

  bool holds(const std::string &model) const {
    return reservations_.count(model);
  }
  bool fits(const Footprint &footprint) const {
    return footprint.total() <= freeBytes();
  }
  /// Bytes models may still reserve.
  std::uint64_t freeBytes() const { return usable() - reservedBytes_; }
  /// Bytes reserved by models (the context reserve not included).
  std::uint64_t reservedBytes() const { return reservedBytes_; }
  std::uint64_t capacityBytes() const { return capacityBytes_; }
  std::size_t reservationCount() const { return reservations_.size(); }

private:
  std::uint64_t usable() const {
    return capacityBytes_ > contextReserveBytes_
               ? capacityBytes_ - contextReserveBytes_
               : 0;
  }

  std::string deviceName_;
  std::uint64_t capacityBytes_;
  std::uint64_t contextReserveBytes_;
  std::uint64_t reservedBytes_ = 0;
  std::map<std::string, Footprint> reservations_;
};

} // namespace kiln::rt::serving

#endif // KILN_RUNTIME_SERVING_MEMORYLEDGER_H

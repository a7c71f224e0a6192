//===- ExtractIf.h - Move selected elements out of a deque ------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Internal. Order-preserving on both sides, without std::stable_partition
// (libstdc++ 12's uses a deprecated buffer API, an error under our flags).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SRC_SERVING_EXTRACTIF_H
#define KILN_RUNTIME_SRC_SERVING_EXTRACTIF_H

#include <algorithm>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

namespace kiln::rt::serving {

/// Removes the elements `select` picks from `items` and returns them; both
/// keep their relative order.
template <typename T, typename Select>
std::vector<T> extractIf(std::deque<T> &items, Select select) {
  std::vector<T> taken;
  std::deque<T> kept;
  for (T &item : items) {
    if (select(static_cast<const T &>(item)))
      taken.push_back(std::move(item));
    else
      kept.push_back(std::move(item));
  }
  items = std::move(kept);
  return taken;
}

/// Removes the first element `select` picks from `items` and returns it.
template <typename T, typename Select>
std::optional<T> takeFirstIf(std::deque<T> &items, Select select) {
  auto it = std::find_if(items.begin(), items.end(), select);
  if (it == items.end())
    return std::nullopt;
  T item = std::move(*it);
  items.erase(it);
  return item;
}

} // namespace kiln::rt::serving

#endif // KILN_RUNTIME_SRC_SERVING_EXTRACTIF_H

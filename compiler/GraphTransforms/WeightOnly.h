//===- WeightOnly.h - Parsing --weight-only ---------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_GRAPHTRANSFORMS_WEIGHTONLY_H
#define KILN_COMPILER_GRAPHTRANSFORMS_WEIGHTONLY_H

#include <cstdint>
#include <optional>
#include <string>

namespace kiln::compiler {

/// What `--weight-only int8|int4[:gGROUP]` asks for.
struct WeightOnlyScheme {
  int64_t bits = 4;
  int64_t group = 128;
};

/// Parses `text` ("int4", "int8:g64", ...); on failure returns nullopt and
/// sets `error` to a sentence naming what is wrong.
std::optional<WeightOnlyScheme> parseWeightOnlyScheme(const std::string &text,
                                                      std::string &error);

} // namespace kiln::compiler

#endif // KILN_COMPILER_GRAPHTRANSFORMS_WEIGHTONLY_H

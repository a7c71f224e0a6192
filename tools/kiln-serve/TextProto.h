//===- TextProto.h - Protocol buffers' text format, read as a tree -*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Triton keeps a model's configuration in config.pbtxt, protocol buffers'
// text format. kiln-serve reads the few fields it acts on and leaves the
// others alone, so it reads the text without the schema: a tree of named
// fields, each a scalar or a message, with the place each came from for
// errors. A list `f: [a, b]` is read as the repeated field f twice, as
// protobuf reads it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_SERVE_TEXTPROTO_H
#define KILN_TOOLS_KILN_SERVE_TEXTPROTO_H

#include "kiln/runtime/Status.h"

#include <string>
#include <vector>

namespace kiln::serve {

struct TextProtoField {
  std::string name;
  int line = 0, column = 0; ///< Of the name, from 1.
  bool isMessage = false;
  /// A scalar: the token (a number, an enum name, true/false) or a
  /// string's value (quotes and escapes removed; `quoted` then).
  std::string scalar;
  bool quoted = false;
  std::vector<TextProtoField> fields; ///< A message's fields, in order.

  /// The fields named `name`, in order.
  std::vector<const TextProtoField *> all(const std::string &name) const;
};

/// The top-level fields of `text`; INVALID_ARGUMENT "FILE:LINE:COLUMN:
/// what" (FILE is `source`) for text that is not protobuf's text format.
rt::StatusOr<TextProtoField> parseTextProto(const std::string &text,
                                            const std::string &source);

} // namespace kiln::serve

#endif // KILN_TOOLS_KILN_SERVE_TEXTPROTO_H

//===- Json.h - A small JSON reader and writer ------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The runtime takes no third-party JSON dependency: simulator configs,
// reports and kiln-serve's protocol use this. It reads RFC 8259 JSON into a
// tree (objects keep their key order) with line:column errors, depth-limited,
// and quotes strings for output.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SERVING_JSON_H
#define KILN_RUNTIME_SERVING_JSON_H

#include "kiln/runtime/Status.h"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kiln::rt::serving::json {

class Value {
public:
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };

  Kind kind() const { return kind_; }
  bool isNull() const { return kind_ == Kind::kNull; }
  bool isBool() const { return kind_ == Kind::kBool; }
  bool isNumber() const { return kind_ == Kind::kNumber; }
  bool isString() const { return kind_ == Kind::kString; }
  bool isArray() const { return kind_ == Kind::kArray; }
  bool isObject() const { return kind_ == Kind::kObject; }

  bool asBool() const { return boolean_; }
  double asNumber() const { return number_; }
  const std::string &asString() const { return string_; }
  const std::vector<Value> &items() const { return items_; }
  const std::vector<std::pair<std::string, Value>> &members() const {
    return members_;
  }
  /// The member named `key`, or null when absent (objects only).
  const Value *find(const std::string &key) const;
  Value *find(const std::string &key);
  /// Replaces member `key`, or appends it (objects only).
  void set(const std::string &key, Value value);

  static Value null() { return Value(); }
  static Value boolean(bool value);
  static Value number(double value);
  static Value string(std::string value);
  static Value array(std::vector<Value> items);
  static Value object(std::vector<std::pair<std::string, Value>> members);

private:
  Kind kind_ = Kind::kNull;
  bool boolean_ = false;
  double number_ = 0;
  std::string string_;
  std::vector<Value> items_;
  std::vector<std::pair<std::string, Value>> members_;
};

/// Parses one JSON document. INVALID_ARGUMENT naming line:column on error;
/// duplicate keys are an error too (a config must say one thing).
StatusOr<Value> parse(const std::string &text);

/// `text` as a JSON string literal, quotes included.
std::string quote(const std::string &text);
/// A number as JSON: integers without a fraction, others with up to 6
/// significant decimals; non-finite values as null.
std::string number(double value);

} // namespace kiln::rt::serving::json

#endif // KILN_RUNTIME_SERVING_JSON_H

//===- Record.h - One JSON record of the GPU check ----------------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// JSON text built by hand: the runner links the runtime alone, which has no
// JSON library. Keys keep the order they are added in (tests match on it).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_GPU_CHECK_RECORD_H
#define KILN_TOOLS_KILN_GPU_CHECK_RECORD_H

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace kiln::gpucheck {

/// `value` as a JSON string literal, quotes included.
inline std::string jsonString(const std::string &value) {
  std::string out = "\"";
  for (unsigned char c : value) {
    if (c == '"' || c == '\\')
      out += std::string("\\") + char(c);
    else if (c == '\n')
      out += "\\n";
    else if (c < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else
      out += char(c);
  }
  return out + "\"";
}

class Record {
public:
  Record &add(const std::string &key, const std::string &value) {
    return raw(key, jsonString(value));
  }
  Record &add(const std::string &key, const char *value) {
    return raw(key, jsonString(value));
  }
  /// Non-finite numbers become null (JSON has no NaN).
  Record &add(const std::string &key, double value) {
    char text[64];
    std::snprintf(text, sizeof text, std::isfinite(value) ? "%.6g" : "null",
                  value);
    return raw(key, text);
  }
  Record &flag(const std::string &key, bool value) {
    return raw(key, value ? "true" : "false");
  }
  Record &list(const std::string &key, const std::vector<std::string> &items) {
    std::string text = "[";
    for (size_t i = 0; i < items.size(); ++i)
      text += (i ? ", " : "") + jsonString(items[i]);
    return raw(key, text + "]");
  }
  /// `json` must already be JSON text (a nested record's text()).
  Record &raw(const std::string &key, const std::string &json) {
    fields_.push_back(jsonString(key) + ": " + json);
    return *this;
  }
  std::string text() const {
    std::string out = "{";
    for (size_t i = 0; i < fields_.size(); ++i)
      out += (i ? ", " : "") + fields_[i];
    return out + "}";
  }

private:
  std::vector<std::string> fields_;
};

} // namespace kiln::gpucheck

#endif // KILN_TOOLS_KILN_GPU_CHECK_RECORD_H

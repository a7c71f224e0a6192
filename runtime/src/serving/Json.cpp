//===- Json.cpp - A small JSON reader and writer for configs --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/Json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

namespace kiln::rt::serving::json {

const Value *Value::find(const std::string &key) const {
  for (const auto &[name, value] : members_)
    if (name == key)
      return &value;
  return nullptr;
}

Value *Value::find(const std::string &key) {
  for (auto &[name, value] : members_)
    if (name == key)
      return &value;
  return nullptr;
}

void Value::set(const std::string &key, Value value) {
  if (Value *existing = find(key))
    *existing = std::move(value);
  else
    members_.emplace_back(key, std::move(value));
}

Value Value::boolean(bool value) {
  Value v;
  v.kind_ = Kind::kBool;
  v.boolean_ = value;
  return v;
}

Value Value::number(double value) {
  Value v;
  v.kind_ = Kind::kNumber;
  v.number_ = value;
  return v;
}

Value Value::string(std::string value) {
  Value v;
  v.kind_ = Kind::kString;
  v.string_ = std::move(value);
  return v;
}

Value Value::array(std::vector<Value> items) {
  Value v;
  v.kind_ = Kind::kArray;
  v.items_ = std::move(items);
  return v;
}

Value Value::object(std::vector<std::pair<std::string, Value>> members) {
  Value v;
  v.kind_ = Kind::kObject;
  v.members_ = std::move(members);
  return v;
}

namespace {

/// Recursive descent over the text; depth-limited so hostile input cannot
/// overflow the stack.
class Parser {
public:
  explicit Parser(const std::string &text) : text_(text) {}

  StatusOr<Value> document() {
    Value value;
    KILN_RETURN_IF_ERROR(parseValue(value, 0));
    skipSpace();
    if (pos_ != text_.size())
      return error("unexpected text after the JSON value");
    return value;
  }

private:
  Status error(const std::string &what) const {
    int line = 1, column = 1;
    for (std::size_t i = 0; i < pos_ && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    return invalidArgument("JSON " + std::to_string(line) + ":" +
                           std::to_string(column) + ": " + what);
  }

  void skipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }

  bool consume(const char *word) {
    std::size_t length = std::char_traits<char>::length(word);
    if (text_.compare(pos_, length, word) != 0)
      return false;
    pos_ += length;
    return true;
  }

  Status parseValue(Value &out, int depth) {
    if (depth > 64)
      return error("nesting deeper than 64 levels");
    skipSpace();
    if (pos_ >= text_.size())
      return error("unexpected end of input");
    char c = text_[pos_];
    if (c == '{')
      return parseObject(out, depth);
    if (c == '[')
      return parseArray(out, depth);
    if (c == '"') {
      std::string s;
      KILN_RETURN_IF_ERROR(parseString(s));
      out = Value::string(std::move(s));
      return Status::ok();
    }
    if (consume("true")) {
      out = Value::boolean(true);
      return Status::ok();
    }
    if (consume("false")) {
      out = Value::boolean(false);
      return Status::ok();
    }
    if (consume("null")) {
      out = Value::null();
      return Status::ok();
    }
    if (c == '-' || (c >= '0' && c <= '9'))
      return parseNumber(out);
    return error(std::string("unexpected character '") + c + "'");
  }

  Status parseNumber(Value &out) {
    std::size_t start = pos_;
    if (text_[pos_] == '-')
      ++pos_;
    auto digits = [&] {
      std::size_t first = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9')
        ++pos_;
      return pos_ > first;
    };
    if (!digits())
      return error("malformed number");
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      if (!digits())
        return error("malformed number");
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-'))
        ++pos_;
      if (!digits())
        return error("malformed number");
    }
    double value =
        std::strtod(text_.substr(start, pos_ - start).c_str(), nullptr);
    if (!std::isfinite(value))
      return error("number out of range");
    out = Value::number(value);
    return Status::ok();
  }

  static void appendUtf8(std::string &out, unsigned code) {
    if (code < 0x80) {
      out += char(code);
    } else if (code < 0x800) {
      out += char(0xC0 | (code >> 6));
      out += char(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += char(0xE0 | (code >> 12));
      out += char(0x80 | ((code >> 6) & 0x3F));
      out += char(0x80 | (code & 0x3F));
    } else {
      out += char(0xF0 | (code >> 18));
      out += char(0x80 | ((code >> 12) & 0x3F));
      out += char(0x80 | ((code >> 6) & 0x3F));
      out += char(0x80 | (code & 0x3F));
    }
  }

  Status parseHex4(unsigned &code) {
    if (pos_ + 4 > text_.size())
      return error("truncated \\u escape");
    code = 0;
    for (int i = 0; i < 4; ++i) {
      char h = text_[pos_++];
      code <<= 4;
      if (h >= '0' && h <= '9')
        code |= unsigned(h - '0');
      else if (h >= 'a' && h <= 'f')
        code |= unsigned(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        code |= unsigned(h - 'A' + 10);
      else
        return error("bad hex digit in \\u escape");
    }
    return Status::ok();
  }

  Status parseString(std::string &out) {
    ++pos_; // Opening quote.
    while (true) {
      if (pos_ >= text_.size())
        return error("unterminated string");
      char c = text_[pos_++];
      if (c == '"')
        return Status::ok();
      if (static_cast<unsigned char>(c) < 0x20)
        return error("control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size())
        return error("unterminated escape");
      char e = text_[pos_++];
      switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        unsigned code;
        KILN_RETURN_IF_ERROR(parseHex4(code));
        if (code >= 0xD800 && code < 0xDC00 && consume("\\u")) {
          unsigned low;
          KILN_RETURN_IF_ERROR(parseHex4(low));
          if (low < 0xDC00 || low >= 0xE000)
            return error("unpaired surrogate in \\u escape");
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        }
        appendUtf8(out, code);
        break;
      }
      default:
        return error(std::string("unknown escape '\\") + e + "'");
      }
    }
  }

  Status parseArray(Value &out, int depth) {
    ++pos_;
    std::vector<Value> items;
    skipSpace();
    if (pos_ < text_.size() && text_[pos_] == ']') {
      ++pos_;
      out = Value::array(std::move(items));
      return Status::ok();
    }
    while (true) {
      Value item;
      KILN_RETURN_IF_ERROR(parseValue(item, depth + 1));
      items.push_back(std::move(item));
      skipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == ']') {
        ++pos_;
        out = Value::array(std::move(items));
        return Status::ok();
      }
      return error("expected ',' or ']' in array");
    }
  }

  Status parseObject(Value &out, int depth) {
    ++pos_;
    std::vector<std::pair<std::string, Value>> members;
    std::set<std::string> keys;
    skipSpace();
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
      out = Value::object(std::move(members));
      return Status::ok();
    }
    while (true) {
      skipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '"')
        return error("expected a string key in object");
      std::string key;
      KILN_RETURN_IF_ERROR(parseString(key));
      if (!keys.insert(key).second)
        return error("duplicate key \"" + key + "\"");
      skipSpace();
      if (pos_ >= text_.size() || text_[pos_] != ':')
        return error("expected ':' after key \"" + key + "\"");
      ++pos_;
      Value value;
      KILN_RETURN_IF_ERROR(parseValue(value, depth + 1));
      members.emplace_back(std::move(key), std::move(value));
      skipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == '}') {
        ++pos_;
        out = Value::object(std::move(members));
        return Status::ok();
      }
      return error("expected ',' or '}' in object");
    }
  }

  const std::string &text_;
  std::size_t pos_ = 0;
};

} // namespace

StatusOr<Value> parse(const std::string &text) {
  return Parser(text).document();
}

std::string quote(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char buffer[8];
        std::snprintf(buffer, sizeof buffer, "\\u%04x", unsigned(c));
        out += buffer;
      } else {
        out += c;
      }
    }
  }
  return out + "\"";
}

std::string number(double value) {
  if (!std::isfinite(value))
    return "null";
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
    return buffer;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

} // namespace kiln::rt::serving::json

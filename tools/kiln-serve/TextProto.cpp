//===- TextProto.cpp - Protocol buffers' text format, read as a tree ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "TextProto.h"

#include <cctype>

namespace kiln::serve {

std::vector<const TextProtoField *>
TextProtoField::all(const std::string &wanted) const {
  std::vector<const TextProtoField *> found;
  for (const TextProtoField &field : fields)
    if (field.name == wanted)
      found.push_back(&field);
  return found;
}

namespace {

/// Nesting deeper than this is refused (a hostile file must not exhaust
/// the stack).
constexpr int kMaxDepth = 64;

class Parser {
public:
  Parser(const std::string &text, const std::string &source)
      : text_(text), source_(source) {}

  rt::StatusOr<TextProtoField> parseAll() {
    TextProtoField root;
    root.isMessage = true;
    root.line = root.column = 1;
    KILN_RETURN_IF_ERROR(parseFields(root, /*closing=*/'\0', 0));
    return root;
  }

private:
  rt::Status error(const std::string &what) const {
    return rt::invalidArgument(source_ + ":" + std::to_string(line_) + ":" +
                               std::to_string(column_) + ": " + what);
  }

  bool atEnd() const { return at_ >= text_.size(); }
  char peek() const { return atEnd() ? '\0' : text_[at_]; }
  void advance() {
    if (text_[at_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++at_;
  }

  /// Skips blanks and # comments.
  void skipSpace() {
    while (!atEnd()) {
      if (std::isspace(static_cast<unsigned char>(peek()))) {
        advance();
      } else if (peek() == '#') {
        while (!atEnd() && peek() != '\n')
          advance();
      } else {
        return;
      }
    }
  }

  static bool isWordChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
           c == '.' || c == '-' || c == '+';
  }

  /// Identifiers, numbers and enum names.
  std::string word() {
    size_t start = at_;
    while (!atEnd() && isWordChar(peek()))
      advance();
    return text_.substr(start, at_ - start);
  }

  rt::Status quotedString(std::string &value) {
    char quote = peek();
    advance();
    while (true) {
      if (atEnd() || peek() == '\n')
        return error("a string without its closing quote");
      char c = peek();
      advance();
      if (c == quote)
        return rt::Status::ok();
      if (c != '\\') {
        value += c;
        continue;
      }
      if (atEnd())
        return error("a string without its closing quote");
      char escaped = peek();
      advance();
      switch (escaped) {
      case 'n':
        value += '\n';
        break;
      case 't':
        value += '\t';
        break;
      case 'r':
        value += '\r';
        break;
      case '\\':
      case '\'':
      case '"':
        value += escaped;
        break;
      default:
        return error(std::string("unknown escape '\\") + escaped + "'");
      }
    }
  }

  /// Fields up to `closing` ('}' or '>'; '\0': the end of the text).
  rt::Status parseFields(TextProtoField &message, char closing, int depth) {
    if (depth > kMaxDepth)
      return error("messages nested more than " + std::to_string(kMaxDepth) +
                   " deep");
    while (true) {
      skipSpace();
      if (atEnd()) {
        if (closing == '\0')
          return rt::Status::ok();
        return error(std::string("the message has no closing '") + closing +
                     "'");
      }
      if (peek() == closing) {
        advance();
        return rt::Status::ok();
      }
      KILN_RETURN_IF_ERROR(parseField(message, depth));
      skipSpace();
      if (peek() == ',' || peek() == ';')
        advance();
    }
  }

  rt::Status parseField(TextProtoField &message, int depth) {
    TextProtoField field;
    field.line = line_;
    field.column = column_;
    if (!std::isalpha(static_cast<unsigned char>(peek())) && peek() != '_')
      return error(std::string("expected a field name, found '") + peek() +
                   "'");
    field.name = word();
    skipSpace();
    bool colon = peek() == ':';
    if (colon) {
      advance();
      skipSpace();
    }
    if (peek() == '[') {
      advance();
      skipSpace();
      if (peek() == ']') {
        advance();
        return rt::Status::ok();
      }
      while (true) {
        // Without a colon, a list holds messages only (`input [ {...} ]`).
        if (!colon && peek() != '{' && peek() != '<')
          return error("expected ':' before the list of field '" + field.name +
                       "' (a list without one holds messages)");
        TextProtoField element = field;
        KILN_RETURN_IF_ERROR(parseValue(element, depth));
        message.fields.push_back(std::move(element));
        skipSpace();
        if (peek() == ']') {
          advance();
          return rt::Status::ok();
        }
        if (peek() != ',')
          return error("expected ',' or ']' in the list of field '" +
                       field.name + "'");
        advance();
        skipSpace();
      }
    }
    if (!colon && peek() != '{' && peek() != '<')
      return error("expected ':' or '{' after field name '" + field.name + "'");
    KILN_RETURN_IF_ERROR(parseValue(field, depth));
    message.fields.push_back(std::move(field));
    return rt::Status::ok();
  }

  rt::Status parseValue(TextProtoField &field, int depth) {
    if (peek() == '{' || peek() == '<') {
      char closing = peek() == '{' ? '}' : '>';
      advance();
      field.isMessage = true;
      return parseFields(field, closing, depth + 1);
    }
    if (peek() == '"' || peek() == '\'') {
      field.quoted = true;
      KILN_RETURN_IF_ERROR(quotedString(field.scalar));
      // Adjacent strings are one string, as in C.
      while (true) {
        skipSpace();
        if (peek() != '"' && peek() != '\'')
          return rt::Status::ok();
        KILN_RETURN_IF_ERROR(quotedString(field.scalar));
      }
    }
    field.scalar = word();
    if (field.scalar.empty())
      return error(atEnd() ? "the text ends where field '" + field.name +
                                 "' needs a value"
                           : std::string("expected a value for field '") +
                                 field.name + "', found '" + peek() + "'");
    return rt::Status::ok();
  }

  const std::string &text_;
  const std::string &source_;
  size_t at_ = 0;
  int line_ = 1, column_ = 1;
};

} // namespace

rt::StatusOr<TextProtoField> parseTextProto(const std::string &text,
                                            const std::string &source) {
  return Parser(text, source).parseAll();
}

} // namespace kiln::serve

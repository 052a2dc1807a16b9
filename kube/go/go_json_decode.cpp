#include "kube/go/go_json_decode.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "kube/go/byte_runs.h"
#include "kube/go/go_format.h"
#include "kube/go/utf8.h"

namespace convcheck {
namespace {

// encoding/json quoteChar: the offending byte as the scanner's error shows it.
std::string quoteChar(unsigned char c) {
  if (c == '\'') return "'\\''";
  if (c == '"') return "'\"'";
  std::string rune;
  appendRune(rune, c);  // Go: string(c) converts the byte to the rune U+00XX
  std::string quoted = goQuote(rune);
  return "'" + quoted.substr(1, quoted.size() - 2) + "'";
}

bool isSpace(unsigned char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool isDigit(unsigned char c) { return c >= '0' && c <= '9'; }
bool isHex(unsigned char c) {
  return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// The state machine of encoding/json/scanner.go, one function per Go state.
class Scanner {
 public:
  std::optional<std::string> run(std::string_view text) {
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n; ++i) {
      // The bytes of a string that stateInString takes without a change of state, at once.
      if (step_ == &Scanner::stateInString) {
        i = plainStringRunEnd(text, i);
        if (i == n) break;
      }
      (this->*step_)(static_cast<unsigned char>(text[i]));
      if (!err_.empty()) return err_;
    }
    // eof()
    if (endTop_) return std::nullopt;
    (this->*step_)(' ');
    if (!err_.empty()) return err_;
    if (endTop_) return std::nullopt;
    return std::string("unexpected end of JSON input");
  }

 private:
  enum Parse { ObjectKey, ObjectValue, ArrayValue };
  using Step = void (Scanner::*)(unsigned char);

  void error(unsigned char c, const char* context) {
    step_ = &Scanner::stateError;
    err_ = "invalid character " + quoteChar(c) + " " + context;
  }
  void stateError(unsigned char) {}

  void push(unsigned char c, Parse p) {
    parse_.push_back(p);
    if (parse_.size() > 10000) error(c, "exceeded max depth");
  }
  void pop() {
    parse_.pop_back();
    if (parse_.empty()) {
      step_ = &Scanner::stateEndTop;
      endTop_ = true;
    } else {
      step_ = &Scanner::stateEndValue;
    }
  }

  void stateBeginValueOrEmpty(unsigned char c) {
    if (isSpace(c)) return;
    if (c == ']') return stateEndValue(c);
    stateBeginValue(c);
  }
  void stateBeginValue(unsigned char c) {
    if (isSpace(c)) return;
    switch (c) {
      case '{':
        step_ = &Scanner::stateBeginStringOrEmpty;
        return push(c, ObjectKey);
      case '[':
        step_ = &Scanner::stateBeginValueOrEmpty;
        return push(c, ArrayValue);
      case '"':
        step_ = &Scanner::stateInString;
        return;
      case '-':
        step_ = &Scanner::stateNeg;
        return;
      case '0':
        step_ = &Scanner::state0;
        return;
      case 't':
        step_ = &Scanner::stateT;
        return;
      case 'f':
        step_ = &Scanner::stateF;
        return;
      case 'n':
        step_ = &Scanner::stateN;
        return;
    }
    if (c >= '1' && c <= '9') {
      step_ = &Scanner::state1;
      return;
    }
    error(c, "looking for beginning of value");
  }
  void stateBeginStringOrEmpty(unsigned char c) {
    if (isSpace(c)) return;
    if (c == '}') {
      parse_.back() = ObjectValue;
      return stateEndValue(c);
    }
    stateBeginString(c);
  }
  void stateBeginString(unsigned char c) {
    if (isSpace(c)) return;
    if (c == '"') {
      step_ = &Scanner::stateInString;
      return;
    }
    error(c, "looking for beginning of object key string");
  }
  void stateEndValue(unsigned char c) {
    if (parse_.empty()) {
      step_ = &Scanner::stateEndTop;
      endTop_ = true;
      return stateEndTop(c);
    }
    if (isSpace(c)) {
      step_ = &Scanner::stateEndValue;
      return;
    }
    switch (parse_.back()) {
      case ObjectKey:
        if (c == ':') {
          parse_.back() = ObjectValue;
          step_ = &Scanner::stateBeginValue;
          return;
        }
        return error(c, "after object key");
      case ObjectValue:
        if (c == ',') {
          parse_.back() = ObjectKey;
          step_ = &Scanner::stateBeginString;
          return;
        }
        if (c == '}') return pop();
        return error(c, "after object key:value pair");
      case ArrayValue:
        if (c == ',') {
          step_ = &Scanner::stateBeginValue;
          return;
        }
        if (c == ']') return pop();
        return error(c, "after array element");
    }
  }
  void stateEndTop(unsigned char c) {
    if (!isSpace(c)) error(c, "after top-level value");
  }
  void stateInString(unsigned char c) {
    if (c == '"') {
      step_ = &Scanner::stateEndValue;
      return;
    }
    if (c == '\\') {
      step_ = &Scanner::stateInStringEsc;
      return;
    }
    if (c < 0x20) error(c, "in string literal");
  }
  void stateInStringEsc(unsigned char c) {
    switch (c) {
      case 'b':
      case 'f':
      case 'n':
      case 'r':
      case 't':
      case '\\':
      case '/':
      case '"':
        step_ = &Scanner::stateInString;
        return;
      case 'u':
        step_ = &Scanner::stateInStringEscU;
        hexLeft_ = 4;
        return;
    }
    error(c, "in string escape code");
  }
  void stateInStringEscU(unsigned char c) {
    if (!isHex(c)) return error(c, "in \\u hexadecimal character escape");
    if (--hexLeft_ == 0) step_ = &Scanner::stateInString;
  }
  void stateNeg(unsigned char c) {
    if (c == '0') {
      step_ = &Scanner::state0;
      return;
    }
    if (c >= '1' && c <= '9') {
      step_ = &Scanner::state1;
      return;
    }
    error(c, "in numeric literal");
  }
  void state1(unsigned char c) {
    if (isDigit(c)) return;
    state0(c);
  }
  void state0(unsigned char c) {
    if (c == '.') {
      step_ = &Scanner::stateDot;
      return;
    }
    if (c == 'e' || c == 'E') {
      step_ = &Scanner::stateE;
      return;
    }
    stateEndValue(c);
  }
  void stateDot(unsigned char c) {
    if (isDigit(c)) {
      step_ = &Scanner::stateDot0;
      return;
    }
    error(c, "after decimal point in numeric literal");
  }
  void stateDot0(unsigned char c) {
    if (isDigit(c)) return;
    if (c == 'e' || c == 'E') {
      step_ = &Scanner::stateE;
      return;
    }
    stateEndValue(c);
  }
  void stateE(unsigned char c) {
    if (c == '+' || c == '-') {
      step_ = &Scanner::stateESign;
      return;
    }
    stateESign(c);
  }
  void stateESign(unsigned char c) {
    if (isDigit(c)) {
      step_ = &Scanner::stateE0;
      return;
    }
    error(c, "in exponent of numeric literal");
  }
  void stateE0(unsigned char c) {
    if (isDigit(c)) return;
    stateEndValue(c);
  }
  void literal(unsigned char c, char want, Step next, const char* context) {
    if (c == static_cast<unsigned char>(want)) {
      step_ = next;
      return;
    }
    error(c, context);
  }
  void stateT(unsigned char c) {
    literal(c, 'r', &Scanner::stateTr, "in literal true (expecting 'r')");
  }
  void stateTr(unsigned char c) {
    literal(c, 'u', &Scanner::stateTru, "in literal true (expecting 'u')");
  }
  void stateTru(unsigned char c) {
    literal(c, 'e', &Scanner::stateEndValue, "in literal true (expecting 'e')");
  }
  void stateF(unsigned char c) {
    literal(c, 'a', &Scanner::stateFa, "in literal false (expecting 'a')");
  }
  void stateFa(unsigned char c) {
    literal(c, 'l', &Scanner::stateFal, "in literal false (expecting 'l')");
  }
  void stateFal(unsigned char c) {
    literal(c, 's', &Scanner::stateFals, "in literal false (expecting 's')");
  }
  void stateFals(unsigned char c) {
    literal(c, 'e', &Scanner::stateEndValue, "in literal false (expecting 'e')");
  }
  void stateN(unsigned char c) {
    literal(c, 'u', &Scanner::stateNu, "in literal null (expecting 'u')");
  }
  void stateNu(unsigned char c) {
    literal(c, 'l', &Scanner::stateNul, "in literal null (expecting 'l')");
  }
  void stateNul(unsigned char c) {
    literal(c, 'l', &Scanner::stateEndValue, "in literal null (expecting 'l')");
  }

  Step step_ = &Scanner::stateBeginValue;
  std::vector<Parse> parse_;
  bool endTop_ = false;
  int hexLeft_ = 0;
  std::string err_;
};

int hex4(std::string_view s) {
  if (s.size() < 4) return -1;
  int r = 0;
  for (int i = 0; i < 4; ++i) {
    char c = s[i];
    int v = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : -1;
    if (v < 0) return -1;
    r = r * 16 + v;
  }
  return r;
}

void decodeInto(GoJsonCursor& cursor, nlohmann::json& out, std::string& error) {
  switch (cursor.peek()) {
    case GoJsonKind::Object: {
      out = nlohmann::json::object();
      cursor.enterObject();
      std::string key;
      while (cursor.nextKey(key))
        decodeInto(cursor, out[std::move(key)], error);  // duplicate keys: last wins (replaced)
      return;
    }
    case GoJsonKind::Array: {
      out = nlohmann::json::array();
      cursor.enterArray();
      while (cursor.nextElement()) {
        out.push_back(nullptr);
        decodeInto(cursor, out.back(), error);
      }
      return;
    }
    case GoJsonKind::String:
      out = cursor.readString();
      return;
    case GoJsonKind::True:
      cursor.readLiteral();
      out = true;
      return;
    case GoJsonKind::False:
      cursor.readLiteral();
      out = false;
      return;
    case GoJsonKind::Null:
      cursor.readLiteral();
      out = nullptr;
      return;
    case GoJsonKind::Number: {
      auto literal = cursor.readLiteral();
      auto number = goNumberValue(literal);
      if (number) {
        out = std::move(*number);
      } else {
        out = nullptr;
        if (error.empty())
          error = "json: cannot unmarshal number " + std::string(literal) +
                  " into Go value of type float64";
      }
      return;
    }
  }
}

}  // namespace

std::optional<std::string> goJsonSyntaxError(std::string_view text) { return Scanner().run(text); }

std::string goJsonUnquote(std::string_view literal) {
  std::string_view s = literal.substr(1, literal.size() - 2);
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\\' && i + 1 < s.size()) {
      char e = s[i + 1];
      i += 2;
      switch (e) {
        case '"':
        case '\\':
        case '/':
        case '\'':
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
          int r = hex4(s.substr(i));
          if (r < 0) return out;  // unreachable for valid text
          i += 4;
          char32_t rune = static_cast<char32_t>(r);
          if (rune >= 0xD800 && rune < 0xE000) {
            // utf16.IsSurrogate: try to pair with a following \uDC00-\uDFFF.
            int r2 = -1;
            if (rune < 0xDC00 && i + 1 < s.size() && s[i] == '\\' && s[i + 1] == 'u')
              r2 = hex4(s.substr(i + 2));
            if (r2 >= 0xDC00 && r2 < 0xE000) {
              appendRune(out, 0x10000 + ((rune - 0xD800) << 10) + (char32_t(r2) - 0xDC00));
              i += 6;
              break;
            }
            rune = kRuneError;
          }
          appendRune(out, rune);
          break;
        }
        default:
          out += e;
      }
      continue;
    }
    if (c < 0x80) {  // a run of ASCII bytes without escapes, appended at once
      const std::size_t end = asciiRunEnd(s, i + 1);
      out.append(s.substr(i, end - i));
      i = end;
      continue;
    }
    auto [rune, width] = decodeRune(s.substr(i));
    if (width == 1 && rune == kRuneError) {
      appendRune(out, kRuneError);
      ++i;
      continue;
    }
    out.append(s.substr(i, width));
    i += width;
  }
  return out;
}

void GoJsonCursor::skipSpace() {
  while (pos_ < text_.size() && isSpace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
}

GoJsonKind GoJsonCursor::peek() {
  skipSpace();
  switch (text_[pos_]) {
    case '{':
      return GoJsonKind::Object;
    case '[':
      return GoJsonKind::Array;
    case '"':
      return GoJsonKind::String;
    case 't':
      return GoJsonKind::True;
    case 'f':
      return GoJsonKind::False;
    case 'n':
      return GoJsonKind::Null;
    default:
      return GoJsonKind::Number;
  }
}

std::string_view GoJsonCursor::readLiteral() {
  skipSpace();
  std::size_t start = pos_;
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (isSpace(static_cast<unsigned char>(c)) || c == ',' || c == ']' || c == '}' || c == ':')
      break;
    ++pos_;
  }
  return text_.substr(start, pos_ - start);
}

std::string GoJsonCursor::readString() {
  skipSpace();
  std::size_t start = pos_;
  skipString();
  return goJsonUnquote(text_.substr(start, pos_ - start));
}

void GoJsonCursor::skipString() {
  const std::size_t content = ++pos_;
  for (;;) {
    const std::size_t quote = text_.find('"', pos_);
    // In valid text every backslash starts an escape and no escape ends in one: the quote is
    // escaped exactly when an odd run of backslashes precedes it.
    std::size_t run = quote;
    while (run > content && text_[run - 1] == '\\') --run;
    pos_ = quote + 1;
    if ((quote - run) % 2 == 0) return;
  }
}

std::string_view GoJsonCursor::skipValue() {
  skipSpace();
  std::size_t start = pos_;
  switch (peek()) {
    case GoJsonKind::String:
      skipString();
      break;
    case GoJsonKind::Object:
    case GoJsonKind::Array: {
      int depth = 0;
      do {
        char c = text_[pos_];
        if (c == '"') {
          skipString();
          continue;
        }
        if (c == '{' || c == '[') ++depth;
        if (c == '}' || c == ']') --depth;
        ++pos_;
      } while (depth > 0);
      break;
    }
    default:
      readLiteral();
  }
  return text_.substr(start, pos_ - start);
}

void GoJsonCursor::enterObject() {
  skipSpace();
  ++pos_;
}

bool GoJsonCursor::nextKey(std::string& key) {
  skipSpace();
  if (text_[pos_] == '}') {
    ++pos_;
    return false;
  }
  if (text_[pos_] == ',') ++pos_;
  key = readString();
  skipSpace();
  ++pos_;  // ':'
  return true;
}

void GoJsonCursor::enterArray() {
  skipSpace();
  ++pos_;
}

bool GoJsonCursor::nextElement() {
  skipSpace();
  if (text_[pos_] == ']') {
    ++pos_;
    return false;
  }
  if (text_[pos_] == ',') ++pos_;
  return true;
}

std::optional<nlohmann::json> goNumberValue(std::string_view literal) {
  if (literal.find_first_of(".eE") == std::string_view::npos) {
    std::int64_t i = 0;
    auto res = std::from_chars(literal.data(), literal.data() + literal.size(), i);
    if (res.ec == std::errc() && res.ptr == literal.data() + literal.size())
      return nlohmann::json(i);
  }
  std::string text(literal);
  errno = 0;
  double d = std::strtod(text.c_str(), nullptr);
  if (std::isinf(d)) return std::nullopt;  // strconv.ParseFloat: ErrRange only on overflow
  return nlohmann::json(d);
}

GoInterfaceValue goDecodeInterface(std::string_view validText) {
  GoInterfaceValue result;
  GoJsonCursor cursor(validText);
  decodeInto(cursor, result.value, result.error);
  return result;
}

}  // namespace convcheck

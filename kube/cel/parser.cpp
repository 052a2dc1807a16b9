#include "kube/cel/parser.h"

#include <cerrno>
#include <cstdlib>
#include <set>
#include <stdexcept>

namespace convcheck::cel {

namespace {

enum class Tok {
  End,
  Ident,
  Int,
  Uint,
  Double,
  String,
  Bytes,
  Punct,  // text holds the operator
};

struct Token {
  Tok kind = Tok::End;
  std::string text;  // identifier, operator, decoded string literal
  std::string raw;   // the number as written
  int position = 0;
};

struct SyntaxError : std::runtime_error {
  int position;
  SyntaxError(int p, const std::string& m) : std::runtime_error(m), position(p) {}
};

bool isIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isHex(char c) { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
int hexValue(char c) {
  if (isDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

void appendUtf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  Token next() {
    skipSpace();
    Token t;
    t.position = static_cast<int>(i_);
    if (i_ >= s_.size()) return t;
    const char c = s_[i_];
    // String and bytes literals, with r/b prefixes.
    {
      std::size_t j = i_;
      bool raw = false, bytes = false;
      for (int k = 0; k < 2 && j < s_.size(); ++k) {
        const char p = s_[j];
        if ((p == 'r' || p == 'R') && !raw) {
          raw = true;
          ++j;
        } else if ((p == 'b' || p == 'B') && !bytes) {
          bytes = true;
          ++j;
        } else {
          break;
        }
      }
      if (j < s_.size() && (s_[j] == '"' || s_[j] == '\'') && (raw || bytes || j == i_)) {
        i_ = j;
        t.kind = bytes ? Tok::Bytes : Tok::String;
        t.text = stringLiteral(raw, bytes, t.position);
        return t;
      }
    }
    if (isIdentStart(c)) {
      std::size_t j = i_;
      while (j < s_.size() && (isIdentStart(s_[j]) || isDigit(s_[j]))) ++j;
      t.kind = Tok::Ident;
      t.text = std::string(s_.substr(i_, j - i_));
      i_ = j;
      return t;
    }
    if (isDigit(c) || (c == '.' && i_ + 1 < s_.size() && isDigit(s_[i_ + 1]))) return number(t);
    static const char* const kOps[] = {"&&", "||", "==", "!=", "<=", ">=", ".?", "[?", "<",
                                       ">",  "+",  "-",  "*",  "/",  "%",  "!",  "?",  ":",
                                       ".",  ",",  "(",  ")",  "[",  "]",  "{",  "}"};
    for (const char* op : kOps) {
      const std::string_view o(op);
      if (s_.substr(i_, o.size()) == o) {
        // "[?" only before an element (not "[?" inside "a[?b]" ambiguity: both are optional forms).
        t.kind = Tok::Punct;
        t.text = std::string(o);
        i_ += o.size();
        return t;
      }
    }
    throw SyntaxError(t.position, std::string("token recognition error at: '") + c + "'");
  }

 private:
  void skipSpace() {
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
        ++i_;
      } else if (c == '/' && i_ + 1 < s_.size() && s_[i_ + 1] == '/') {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      } else {
        break;
      }
    }
  }

  Token number(Token t) {
    std::size_t j = i_;
    if (s_[j] == '0' && j + 1 < s_.size() && (s_[j + 1] == 'x' || s_[j + 1] == 'X')) {
      j += 2;
      const std::size_t start = j;
      while (j < s_.size() && isHex(s_[j])) ++j;
      if (j == start) throw SyntaxError(t.position, "invalid hex literal");
      t.raw = std::string(s_.substr(i_, j - i_));
      t.kind = Tok::Int;
      if (j < s_.size() && (s_[j] == 'u' || s_[j] == 'U')) {
        t.kind = Tok::Uint;
        ++j;
      }
      i_ = j;
      return t;
    }
    while (j < s_.size() && isDigit(s_[j])) ++j;
    bool isDouble = false;
    if (j + 1 < s_.size() && s_[j] == '.' && isDigit(s_[j + 1])) {
      isDouble = true;
      ++j;
      while (j < s_.size() && isDigit(s_[j])) ++j;
    }
    if (j < s_.size() && (s_[j] == 'e' || s_[j] == 'E')) {
      std::size_t k = j + 1;
      if (k < s_.size() && (s_[k] == '+' || s_[k] == '-')) ++k;
      if (k < s_.size() && isDigit(s_[k])) {
        isDouble = true;
        j = k;
        while (j < s_.size() && isDigit(s_[j])) ++j;
      }
    }
    t.raw = std::string(s_.substr(i_, j - i_));
    t.kind = isDouble ? Tok::Double : Tok::Int;
    if (!isDouble && j < s_.size() && (s_[j] == 'u' || s_[j] == 'U')) {
      t.kind = Tok::Uint;
      ++j;
    }
    i_ = j;
    return t;
  }

  std::string stringLiteral(bool raw, bool bytes, int position) {
    const char q = s_[i_];
    const bool triple = s_.substr(i_, 3) == std::string(3, q);
    i_ += triple ? 3 : 1;
    std::string out;
    for (;;) {
      if (i_ >= s_.size()) throw SyntaxError(position, "unterminated string literal");
      const char c = s_[i_];
      if (triple ? s_.substr(i_, 3) == std::string(3, q) : c == q) {
        i_ += triple ? 3 : 1;
        return out;
      }
      if (!triple && (c == '\n' || c == '\r'))
        throw SyntaxError(position, "newline in single-quoted string literal");
      if (c != '\\' || raw) {
        out += c;
        ++i_;
        continue;
      }
      escape(out, bytes, position);
    }
  }

  void escape(std::string& out, bool bytes, int position) {
    ++i_;
    if (i_ >= s_.size()) throw SyntaxError(position, "unterminated escape sequence");
    const char e = s_[i_++];
    switch (e) {
      case 'a':
        out += '\a';
        return;
      case 'b':
        out += '\b';
        return;
      case 'f':
        out += '\f';
        return;
      case 'n':
        out += '\n';
        return;
      case 'r':
        out += '\r';
        return;
      case 't':
        out += '\t';
        return;
      case 'v':
        out += '\v';
        return;
      case '\\':
        out += '\\';
        return;
      case '\'':
        out += '\'';
        return;
      case '"':
        out += '"';
        return;
      case '`':
        out += '`';
        return;
      case '?':
        out += '?';
        return;
      default:
        break;
    }
    auto digits = [&](int n, bool hex) {
      std::uint32_t v = 0;
      for (int k = 0; k < n; ++k) {
        if (i_ >= s_.size() || !(hex ? isHex(s_[i_]) : (s_[i_] >= '0' && s_[i_] <= '7')))
          throw SyntaxError(position, "invalid escape sequence");
        v = v * (hex ? 16 : 8) + static_cast<std::uint32_t>(hexValue(s_[i_++]));
      }
      return v;
    };
    std::uint32_t cp = 0;
    if (e == 'x' || e == 'X') {
      cp = digits(2, true);
    } else if (e == 'u') {
      if (bytes) throw SyntaxError(position, "\\u escape in a bytes literal");
      cp = digits(4, true);
    } else if (e == 'U') {
      if (bytes) throw SyntaxError(position, "\\U escape in a bytes literal");
      cp = digits(8, true);
    } else if (e >= '0' && e <= '3') {
      --i_;
      cp = digits(3, false);
    } else {
      throw SyntaxError(position, std::string("invalid escape sequence: \\") + e);
    }
    if (!bytes && ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF))
      throw SyntaxError(position, "invalid unicode code point in escape");
    if (bytes) {
      out += static_cast<char>(cp);
    } else {
      appendUtf8(out, cp);
    }
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

const std::set<std::string>& reservedWords() {
  static const std::set<std::string> words = {
      "as",  "break", "const",   "continue",  "else",   "for", "function", "if",   "import",
      "let", "loop",  "package", "namespace", "return", "var", "void",     "while"};
  return words;
}

class Parser {
 public:
  Parser(std::string_view s, const ParseOptions& o) : lexer_(s), options_(o) { advance(); }

  ExprPtr parseAll() {
    ExprPtr e = expr();
    if (tok_.kind != Tok::End) fail("mismatched input '" + tokenText() + "' expecting <EOF>");
    return e;
  }

 private:
  struct Depth {
    Parser& p;
    explicit Depth(Parser& parser) : p(parser) {
      if (++p.depth_ > p.options_.maxRecursionDepth)
        throw SyntaxError(p.tok_.position, "expression recursion limit exceeded: " +
                                               std::to_string(p.options_.maxRecursionDepth));
    }
    ~Depth() { --p.depth_; }
  };

  void advance() { tok_ = lexer_.next(); }
  bool isPunct(const char* p) const { return tok_.kind == Tok::Punct && tok_.text == p; }
  std::string tokenText() const {
    if (tok_.kind == Tok::End) return "<EOF>";
    return tok_.raw.empty() ? tok_.text : tok_.raw;
  }
  [[noreturn]] void fail(const std::string& m) { throw SyntaxError(tok_.position, m); }
  void expect(const char* p) {
    if (!isPunct(p)) fail("mismatched input '" + tokenText() + "' expecting '" + p + "'");
    advance();
  }

  static ExprPtr node(Expr::Op op, int pos) {
    auto e = std::make_unique<Expr>();
    e->op = op;
    e->position = pos;
    return e;
  }
  static ExprPtr call(const std::string& fn, int pos, std::vector<ExprPtr> args) {
    auto e = node(Expr::Op::Call, pos);
    e->name = fn;
    e->args = std::move(args);
    return e;
  }
  static std::vector<ExprPtr> two(ExprPtr a, ExprPtr b) {
    std::vector<ExprPtr> v;
    v.push_back(std::move(a));
    v.push_back(std::move(b));
    return v;
  }

  ExprPtr expr() {
    Depth d(*this);
    ExprPtr cond = orExpr();
    if (!isPunct("?")) return cond;
    const int pos = tok_.position;
    advance();
    ExprPtr a = orExpr();
    expect(":");
    ExprPtr b = expr();
    std::vector<ExprPtr> args;
    args.push_back(std::move(cond));
    args.push_back(std::move(a));
    args.push_back(std::move(b));
    return call("_?_:_", pos, std::move(args));
  }

  ExprPtr orExpr() {
    ExprPtr l = andExpr();
    while (isPunct("||")) {
      const int pos = tok_.position;
      advance();
      l = call("_||_", pos, two(std::move(l), andExpr()));
    }
    return l;
  }

  ExprPtr andExpr() {
    ExprPtr l = relation();
    while (isPunct("&&")) {
      const int pos = tok_.position;
      advance();
      l = call("_&&_", pos, two(std::move(l), relation()));
    }
    return l;
  }

  ExprPtr relation() {
    Depth d(*this);
    ExprPtr l = addition();
    for (;;) {
      std::string fn;
      if (isPunct("<"))
        fn = "_<_";
      else if (isPunct("<="))
        fn = "_<=_";
      else if (isPunct(">"))
        fn = "_>_";
      else if (isPunct(">="))
        fn = "_>=_";
      else if (isPunct("=="))
        fn = "_==_";
      else if (isPunct("!="))
        fn = "_!=_";
      else if (tok_.kind == Tok::Ident && tok_.text == "in")
        fn = "@in";
      else
        return l;
      const int pos = tok_.position;
      advance();
      l = call(fn, pos, two(std::move(l), addition()));
    }
  }

  ExprPtr addition() {
    ExprPtr l = multiplication();
    for (;;) {
      std::string fn;
      if (isPunct("+"))
        fn = "_+_";
      else if (isPunct("-"))
        fn = "_-_";
      else
        return l;
      const int pos = tok_.position;
      advance();
      l = call(fn, pos, two(std::move(l), multiplication()));
    }
  }

  ExprPtr multiplication() {
    ExprPtr l = unary();
    for (;;) {
      std::string fn;
      if (isPunct("*"))
        fn = "_*_";
      else if (isPunct("/"))
        fn = "_/_";
      else if (isPunct("%"))
        fn = "_%_";
      else
        return l;
      const int pos = tok_.position;
      advance();
      l = call(fn, pos, two(std::move(l), unary()));
    }
  }

  ExprPtr unary() {
    Depth d(*this);
    const int pos = tok_.position;
    if (isPunct("!")) {
      advance();
      std::vector<ExprPtr> a;
      a.push_back(unary());
      return call("!_", pos, std::move(a));
    }
    if (isPunct("-")) {
      advance();
      // A negative literal is one constant (so that -9223372036854775808 is an int).
      if (tok_.kind == Tok::Int || tok_.kind == Tok::Double) {
        Token lit = tok_;
        advance();
        ExprPtr e = literalNumber(lit, true);
        return member(std::move(e));
      }
      std::vector<ExprPtr> a;
      a.push_back(unary());
      return call("-_", pos, std::move(a));
    }
    return member(primary());
  }

  ExprPtr literalNumber(const Token& t, bool negative) {
    auto e = node(Expr::Op::Literal, t.position);
    const std::string text = (negative ? "-" : "") + t.raw;
    errno = 0;
    if (t.kind == Tok::Double) {
      e->literal = Value::dbl(std::strtod(text.c_str(), nullptr));
      return e;
    }
    const bool hex = t.raw.size() > 2 && (t.raw[1] == 'x' || t.raw[1] == 'X');
    std::string digits = hex ? (negative ? "-" : "") + t.raw.substr(2) : text;
    if (t.kind == Tok::Uint) {
      if (!digits.empty() && (digits.back() == 'u' || digits.back() == 'U')) digits.pop_back();
      char* end = nullptr;
      const unsigned long long v = std::strtoull(digits.c_str(), &end, hex ? 16 : 10);
      if (errno == ERANGE) throw SyntaxError(t.position, "invalid uint literal");
      e->literal = Value::uinteger(v);
      return e;
    }
    char* end = nullptr;
    const long long v = std::strtoll(digits.c_str(), &end, hex ? 16 : 10);
    if (errno == ERANGE) throw SyntaxError(t.position, "invalid int literal");
    e->literal = Value::integer(v);
    return e;
  }

  std::vector<ExprPtr> exprList(const char* close) {
    std::vector<ExprPtr> out;
    if (isPunct(close)) {
      advance();
      return out;
    }
    for (;;) {
      out.push_back(expr());
      if (isPunct(",")) {
        advance();
        continue;
      }
      expect(close);
      return out;
    }
  }

  ExprPtr member(ExprPtr e) {
    for (;;) {
      const int pos = tok_.position;
      if (isPunct(".") || isPunct(".?")) {
        const bool optional = isPunct(".?");
        advance();
        if (tok_.kind != Tok::Ident)
          fail("mismatched input '" + tokenText() + "' expecting IDENTIFIER");
        const std::string name = tok_.text;
        advance();
        if (!optional && isPunct("(")) {
          advance();
          std::vector<ExprPtr> args = exprList(")");
          e = memberCall(std::move(e), name, std::move(args), pos);
          continue;
        }
        auto s = node(optional ? Expr::Op::OptionalSelect : Expr::Op::Select, pos);
        s->name = name;
        s->args.push_back(std::move(e));
        e = std::move(s);
      } else if (isPunct("[") || isPunct("[?")) {
        const bool optional = isPunct("[?");
        advance();
        ExprPtr index = expr();
        expect("]");
        e = call(optional ? "_[?_]" : "_[_]", pos, two(std::move(e), std::move(index)));
      } else {
        return e;
      }
    }
  }

  ExprPtr primary() {
    Depth d(*this);
    const Token t = tok_;
    switch (t.kind) {
      case Tok::Int:
      case Tok::Uint:
      case Tok::Double:
        advance();
        return literalNumber(t, false);
      case Tok::String: {
        advance();
        auto e = node(Expr::Op::Literal, t.position);
        e->literal = Value::string(t.text);
        return e;
      }
      case Tok::Bytes: {
        advance();
        auto e = node(Expr::Op::Literal, t.position);
        e->literal = Value::bytes(t.text);
        return e;
      }
      case Tok::Ident:
        return identOrCall();
      case Tok::Punct:
        break;
      case Tok::End:
        fail("mismatched input '<EOF>' expecting an expression");
    }
    if (isPunct(".")) {  // a leading dot names the root scope: .name
      advance();
      if (tok_.kind != Tok::Ident) fail("expected an identifier after '.'");
      return identOrCall();
    }
    if (isPunct("(")) {
      advance();
      ExprPtr e = expr();
      expect(")");
      return e;
    }
    if (isPunct("[")) {
      advance();
      auto e = node(Expr::Op::List, t.position);
      while (!isPunct("]")) {
        bool optional = false;
        if (isPunct("?")) {
          optional = true;
          advance();
        }
        e->args.push_back(expr());
        e->optionalAt.push_back(optional);
        if (!isPunct(",")) break;
        advance();
      }
      expect("]");
      return e;
    }
    if (isPunct("[?")) {  // "[?x]" lexed as one token at the start of a list
      advance();
      auto e = node(Expr::Op::List, t.position);
      e->args.push_back(expr());
      e->optionalAt.push_back(true);
      while (isPunct(",")) {
        advance();
        if (isPunct("]")) break;
        bool optional = false;
        if (isPunct("?")) {
          optional = true;
          advance();
        }
        e->args.push_back(expr());
        e->optionalAt.push_back(optional);
      }
      expect("]");
      return e;
    }
    if (isPunct("{")) {
      advance();
      auto e = node(Expr::Op::MapLit, t.position);
      while (!isPunct("}")) {
        bool optional = false;
        if (isPunct("?")) {
          optional = true;
          advance();
        }
        e->args.push_back(expr());
        expect(":");
        e->args.push_back(expr());
        e->optionalAt.push_back(optional);
        if (!isPunct(",")) break;
        advance();
      }
      expect("}");
      return e;
    }
    fail("mismatched input '" + tokenText() + "' expecting an expression");
  }

  ExprPtr identOrCall() {
    const Token t = tok_;
    advance();
    if (t.text == "true" || t.text == "false") {
      auto e = node(Expr::Op::Literal, t.position);
      e->literal = Value::boolean(t.text == "true");
      return e;
    }
    if (t.text == "null") return node(Expr::Op::Literal, t.position);
    if (t.text == "in" || reservedWords().count(t.text))
      throw SyntaxError(t.position, "reserved identifier: " + t.text);
    if (isPunct("(")) {
      advance();
      std::vector<ExprPtr> args = exprList(")");
      if (t.text == "has") return hasMacro(std::move(args), t.position);
      return call(t.text, t.position, std::move(args));
    }
    // Qualified names of functions: cel.bind(…), optional.of(…), strings.quote(…), …
    if (isPunct(".")) {
      static const std::set<std::string> namespaces = {"cel",  "optional", "strings", "sets",
                                                       "math", "format",   "ip",      "base64"};
      if (namespaces.count(t.text)) {
        Lexer saved = lexer_;
        const Token dot = tok_;
        advance();
        if (tok_.kind == Tok::Ident) {
          const Token fn = tok_;
          advance();
          if (isPunct("(")) {
            advance();
            std::vector<ExprPtr> args = exprList(")");
            if (t.text == "cel" && fn.text == "bind") return bindMacro(std::move(args), t.position);
            return call(t.text + "." + fn.text, t.position, std::move(args));
          }
        }
        lexer_ = saved;
        tok_ = dot;
      }
    }
    auto e = node(Expr::Op::Ident, t.position);
    e->name = t.text;
    return e;
  }

  ExprPtr hasMacro(std::vector<ExprPtr> args, int pos) {
    if (args.size() != 1 || args[0]->op != Expr::Op::Select)
      throw SyntaxError(pos, "invalid argument to has() macro");
    args[0]->testOnly = true;
    return std::move(args[0]);
  }

  ExprPtr bindMacro(std::vector<ExprPtr> args, int pos) {
    if (args.size() != 3 || args[0]->op != Expr::Op::Ident)
      throw SyntaxError(pos, "cel.bind() variable name must be a simple identifier");
    auto e = node(Expr::Op::Bind, pos);
    e->name = args[0]->name;
    e->args.push_back(std::move(args[1]));
    e->args.push_back(std::move(args[2]));
    return e;
  }

  static std::string varName(const ExprPtr& e, int pos, const std::string& macro) {
    if (e->op != Expr::Op::Ident)
      throw SyntaxError(pos, macro + "() variable name must be a simple identifier");
    return e->name;
  }

  ExprPtr memberCall(ExprPtr target, const std::string& fn, std::vector<ExprPtr> args, int pos) {
    struct Shape {
      const char* name;
      Macro macro;
      std::size_t vars;
      std::size_t argc;
      bool filter;
    };
    static const Shape shapes[] = {
        {"all", Macro::All, 1, 2, false},
        {"all", Macro::All, 2, 3, false},
        {"exists", Macro::Exists, 1, 2, false},
        {"exists", Macro::Exists, 2, 3, false},
        {"exists_one", Macro::ExistsOne, 1, 2, false},
        {"exists_one", Macro::ExistsOne, 2, 3, false},
        {"existsOne", Macro::ExistsOne, 1, 2, false},
        {"existsOne", Macro::ExistsOne, 2, 3, false},
        {"map", Macro::Map, 1, 2, false},
        {"map", Macro::Map, 1, 3, true},
        {"filter", Macro::Filter, 1, 2, false},
        {"transformList", Macro::TransformList, 2, 3, false},
        {"transformList", Macro::TransformList, 2, 4, true},
        {"transformMap", Macro::TransformMap, 2, 3, false},
        {"transformMap", Macro::TransformMap, 2, 4, true},
    };
    for (const auto& s : shapes) {
      if (fn != s.name || args.size() != s.argc) continue;
      auto e = node(Expr::Op::Comprehension, pos);
      e->macro = s.macro;
      e->name = varName(args[0], pos, fn);
      if (s.vars == 2) e->name2 = varName(args[1], pos, fn);
      if (e->name == "__result__" || e->name2 == "__result__")
        throw SyntaxError(pos, "iteration variable overwrites accumulator variable");
      e->hasFilter = s.filter;
      e->args.push_back(std::move(target));
      for (std::size_t i = s.vars; i < args.size(); ++i) e->args.push_back(std::move(args[i]));
      return e;
    }
    if ((fn == "optMap" || fn == "optFlatMap") && args.size() == 2) {
      auto e = node(Expr::Op::OptMap, pos);
      e->name = varName(args[0], pos, fn);
      e->flat = fn == "optFlatMap";
      e->args.push_back(std::move(target));
      e->args.push_back(std::move(args[1]));
      return e;
    }
    auto e = call(fn, pos, {});
    e->member = true;
    e->args.push_back(std::move(target));
    for (auto& a : args) e->args.push_back(std::move(a));
    return e;
  }

  Lexer lexer_;
  const ParseOptions& options_;
  Token tok_;
  int depth_ = 0;
};

std::string locate(std::string_view source, int position) {
  int line = 1, column = 1;
  for (int i = 0; i < position && i < static_cast<int>(source.size()); ++i) {
    if (source[static_cast<std::size_t>(i)] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "<input>:" + std::to_string(line) + ":" + std::to_string(column);
}

std::size_t codePoints(std::string_view s) {
  std::size_t n = 0;
  for (char c : s)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  return n;
}

}  // namespace

std::variant<ExprPtr, std::string> parse(std::string_view source, const ParseOptions& options) {
  if (codePoints(source) > options.maxCodePoints)
    return "expression code point size exceeds limit: size: " + std::to_string(codePoints(source)) +
           ", limit " + std::to_string(options.maxCodePoints);
  try {
    Parser p(source, options);
    return p.parseAll();
  } catch (const SyntaxError& e) {
    return locate(source, e.position) + ": Syntax error: " + e.what();
  }
}

}  // namespace convcheck::cel

#include "generators/pattern/regex_parser.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "kube/go/utf8.h"

namespace convcheck::pattern {
namespace {

constexpr unsigned kFoldCase = 1;
constexpr unsigned kMultiLine = 2;
constexpr unsigned kDotNewline = 4;
constexpr unsigned kNonGreedy = 8;
constexpr int kMaxRepeat = 1000;  // Go and RE2 both reject larger counts
constexpr std::size_t kMaxHintsPerClass = 64;

struct ParseFailure {
  std::size_t offset;
  std::string what;
};

bool isAsciiAlnum(char32_t c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string hexEscape(char32_t rune) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "\\x{%X}", static_cast<unsigned>(rune));
  return buffer;
}

bool isPosixClassName(std::string_view name) {
  static constexpr std::array<std::string_view, 14> kNames = {
      "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph",
      "lower", "print", "punct", "space", "upper", "word",  "xdigit"};
  return std::find(kNames.begin(), kNames.end(), name) != kNames.end();
}

bool isValidCaptureName(std::string_view name) {
  if (name.empty()) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return c == '_' || isAsciiAlnum(static_cast<char32_t>(c)); });
}

// Recursive descent over the grammar of Go's regexp/syntax (Perl flags). Each method documents
// where pos_ stands on entry and exit; every failure throws ParseFailure, caught in parseRegex.
class Parser {
 public:
  Parser(std::string_view src, const ParseLimits& limits) : src_(src), limits_(limits) {}

  Regex run() {
    if (src_.size() > limits_.maxPatternBytes) {
      throw ParseFailure{
          0, "pattern is longer than " + std::to_string(limits_.maxPatternBytes) + " bytes"};
    }
    for (std::size_t p = 0; p < src_.size();) {
      char32_t rune = 0;
      if (!nextRune(src_, p, rune)) throw ParseFailure{p, "invalid UTF-8"};
    }
    out_.root = parseAlternation(0);
    if (pos_ < src_.size()) throw ParseFailure{pos_, "unexpected ) without matching ("};
    out_.re2Source = std::string(src_);
    // Go (>= 1.22) accepts (?<name>...); the RE2 we verify with only knows (?P<name>...).
    for (auto it = re2Inserts_.rbegin(); it != re2Inserts_.rend(); ++it) {
      out_.re2Source.insert(*it, 1, 'P');
    }
    return std::move(out_);
  }

 private:
  std::size_t size() const { return src_.size(); }
  bool startsWith(std::string_view prefix) const { return src_.substr(pos_).starts_with(prefix); }
  std::string excerpt(std::size_t from, std::size_t to) const {
    return "`" + std::string(src_.substr(from, std::min(to, size()) - from)) + "`";
  }

  Node make(Node::Kind kind) {
    if (++nodes_ > limits_.maxNodes) {
      throw ParseFailure{pos_,
                         "expression has more than " + std::to_string(limits_.maxNodes) + " nodes"};
    }
    Node node;
    node.kind = kind;
    return node;
  }

  Node assertion(AssertKind kind) {
    Node node = make(Node::Kind::kAssert);
    node.assertion = kind;
    return node;
  }

  Node classNode(std::string source, std::vector<char32_t> hints, bool fold, bool dotNewline) {
    Node node = make(Node::Kind::kClass);
    const auto key = std::make_tuple(source, fold, dotNewline);
    if (auto found = classIds_.find(key); found != classIds_.end()) {
      node.classId = found->second;
      return node;
    }
    node.classId = out_.classes.size();
    classIds_.emplace(key, node.classId);
    out_.classes.push_back(CharClassSpec{std::move(source), fold, dotNewline, std::move(hints)});
    return node;
  }

  // A literal rune; under (?i) letters become a one-rune class whose fold orbit RE2 decides.
  Node literalNode(char32_t rune) {
    const bool letter =
        (rune >= 'a' && rune <= 'z') || (rune >= 'A' && rune <= 'Z') || rune >= 0x80;
    if ((flags_ & kFoldCase) != 0 && letter) {
      std::vector<char32_t> hints{rune};
      if (rune < 0x80) hints.push_back(rune ^ 0x20);
      return classNode(hexEscape(rune), std::move(hints), true, false);
    }
    Node node = make(Node::Kind::kLiteral);
    node.rune = rune;
    return node;
  }

  // alternation := concat ('|' concat)*   (stops before ')' or at the end)
  Node parseAlternation(int depth) {
    std::vector<Node> branches;
    branches.push_back(parseConcat(depth));
    while (pos_ < size() && src_[pos_] == '|') {
      ++pos_;
      branches.push_back(parseConcat(depth));
    }
    if (branches.size() == 1) return std::move(branches.front());
    Node node = make(Node::Kind::kAlternate);
    node.children = std::move(branches);
    return node;
  }

  Node parseConcat(int depth) {
    std::vector<Node> items;
    bool previousWasRepeat = false;
    while (pos_ < size() && src_[pos_] != '|' && src_[pos_] != ')') {
      const std::size_t start = pos_;
      bool isRepeat = false;
      switch (src_[pos_]) {
        case '(':
          parseParen(depth, items);
          break;
        case '*':
        case '+':
        case '?': {
          const char op = src_[pos_++];
          applyRepeat(items, start, op == '+' ? 1 : 0, op == '?' ? 1 : -1, false,
                      previousWasRepeat);
          isRepeat = true;
          break;
        }
        case '{': {
          int min = 0;
          int max = 0;
          if (!parseRepeatBraces(min, max)) {  // not a valid {n,m}: a literal '{'
            ++pos_;
            items.push_back(literalNode('{'));
            break;
          }
          if (min < 0 || min > kMaxRepeat || max > kMaxRepeat || (max >= 0 && min > max)) {
            throw ParseFailure{start, "invalid repeat count " + excerpt(start, pos_)};
          }
          applyRepeat(items, start, min, max, true, previousWasRepeat);
          isRepeat = true;
          break;
        }
        case '^':
          ++pos_;
          items.push_back(
              assertion((flags_ & kMultiLine) ? AssertKind::kBeginLine : AssertKind::kBeginText));
          break;
        case '$':
          ++pos_;
          items.push_back(
              assertion((flags_ & kMultiLine) ? AssertKind::kEndLine : AssertKind::kEndText));
          break;
        case '.':
          ++pos_;
          items.push_back(classNode(".", {}, false, (flags_ & kDotNewline) != 0));
          break;
        case '[':
          items.push_back(parseBracketClass());
          break;
        case '\\':
          parseEscapeAtom(items);
          break;
        default: {
          char32_t rune = 0;
          nextRune(src_, pos_, rune);  // validated in run()
          items.push_back(literalNode(rune));
        }
      }
      previousWasRepeat = isRepeat;
    }
    if (items.empty()) return make(Node::Kind::kEmpty);
    if (items.size() == 1) return std::move(items.front());
    Node node = make(Node::Kind::kConcat);
    node.children = std::move(items);
    return node;
  }

  // On entry pos_ is just past the operator; a trailing '?' (lazy) is consumed here.
  void applyRepeat(std::vector<Node>& items, std::size_t start, int min, int max, bool braces,
                   bool previousWasRepeat) {
    bool lazy = false;
    if (pos_ < size() && src_[pos_] == '?') {
      lazy = true;
      ++pos_;
    }
    if (previousWasRepeat) {
      throw ParseFailure{start, "invalid nested repetition operator " + excerpt(start, pos_)};
    }
    if (items.empty()) {
      throw ParseFailure{start, "missing argument to repetition operator " + excerpt(start, pos_)};
    }
    Node node = make(Node::Kind::kRepeat);
    node.min = min;
    node.max = max;
    node.braces = braces;
    node.greedy = lazy == ((flags_ & kNonGreedy) != 0);
    node.children.push_back(std::move(items.back()));
    if (braces && (min >= 2 || max >= 2) && !repeatIsValid(node, kMaxRepeat)) {
      throw ParseFailure{start, "invalid repeat count " + excerpt(start, pos_) +
                                    ": nested counts multiply beyond 1000"};
    }
    items.back() = std::move(node);
  }

  // Go's repeatIsValid: the product of nested {n,m} counts may not exceed `budget`.
  static bool repeatIsValid(const Node& node, int budget) {
    if (node.kind == Node::Kind::kRepeat && node.braces) {
      int m = node.max;
      if (m == 0) return true;
      if (m < 0) m = node.min;
      if (m > budget) return false;
      if (m > 0) budget /= m;
    }
    return std::all_of(node.children.begin(), node.children.end(),
                       [budget](const Node& child) { return repeatIsValid(child, budget); });
  }

  // Go's parseInt: decimal without leading zeros; values >= 1e8 become -1 (too big).
  bool parseInt(std::size_t& p, int& value) const {
    if (p >= size() || src_[p] < '0' || src_[p] > '9') return false;
    if (p + 1 < size() && src_[p] == '0' && src_[p + 1] >= '0' && src_[p + 1] <= '9') return false;
    value = 0;
    for (; p < size() && src_[p] >= '0' && src_[p] <= '9'; ++p) {
      if (value >= 100'000'000 || value < 0) {
        value = -1;
      } else {
        value = value * 10 + (src_[p] - '0');
      }
    }
    return true;
  }

  // pos_ at '{'. On success pos_ moves past '}'; on failure nothing moves.
  bool parseRepeatBraces(int& min, int& max) {
    std::size_t p = pos_ + 1;
    if (!parseInt(p, min)) return false;
    if (p >= size()) return false;
    if (src_[p] != ',') {
      max = min;
    } else {
      ++p;
      if (p >= size()) return false;
      if (src_[p] == '}') {
        max = -1;
      } else if (!parseInt(p, max)) {
        return false;
      } else if (max < 0) {
        min = -1;
      }
    }
    if (p >= size() || src_[p] != '}') return false;
    pos_ = p + 1;
    return true;
  }

  // pos_ at '('. Pushes a group, or nothing for a bare flag change like (?i).
  void parseParen(int depth, std::vector<Node>& items) {
    const std::size_t start = pos_;
    if (depth + 1 > limits_.maxNesting) {
      throw ParseFailure{start, "groups nested deeper than " + std::to_string(limits_.maxNesting)};
    }
    if (!startsWith("(?")) {
      ++pos_;
      const int index = ++out_.captureCount;
      items.push_back(parseGroupBody(depth, start, index, "", flags_));
      return;
    }
    const bool goSpelling = startsWith("(?<") && !startsWith("(?<=") && !startsWith("(?<!");
    if (startsWith("(?P<") || goSpelling) {
      const std::size_t nameStart = pos_ + (goSpelling ? 3 : 4);
      const std::size_t close = src_.find('>', nameStart);
      if (close == std::string_view::npos) {
        throw ParseFailure{start, "invalid named capture " + excerpt(start, size())};
      }
      std::string name(src_.substr(nameStart, close - nameStart));
      if (!isValidCaptureName(name)) {
        throw ParseFailure{start, "invalid named capture " + excerpt(start, close + 1)};
      }
      if (!names_.insert(name).second) {
        throw ParseFailure{start, "duplicate capture group name `" + name + "`"};
      }
      if (goSpelling) re2Inserts_.push_back(pos_ + 2);
      pos_ = close + 1;
      const int index = ++out_.captureCount;
      items.push_back(parseGroupBody(depth, start, index, std::move(name), flags_));
      return;
    }
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 11> kUnsupported = {{
        {"(?P=", "named backreference"},
        {"(?P>", "recursive subpattern call"},
        {"(?=", "lookahead"},
        {"(?!", "negative lookahead"},
        {"(?<=", "lookbehind"},
        {"(?<!", "negative lookbehind"},
        {"(?#", "comment group"},
        {"(?>", "atomic group"},
        {"(?|", "branch reset group"},
        {"(?'", "quoted named group"},
        {"(?R", "recursion"},
    }};
    for (const auto& [prefix, what] : kUnsupported) {
      if (startsWith(prefix)) {
        throw ParseFailure{start, std::string(what) + " `" + std::string(prefix) +
                                      "` is not supported by Go's RE2 syntax"};
      }
    }
    parseFlags(depth, start, items);
  }

  // pos_ at "(?". Go's flag grammar: [imsU]* ('-' [imsU]+)? followed by ')' or ':'.
  void parseFlags(int depth, std::size_t start, std::vector<Node>& items) {
    std::size_t i = pos_ + 2;
    unsigned flags = flags_;
    bool negated = false;
    bool sawFlag = false;
    const auto bad = [&](std::size_t end) {
      return ParseFailure{start, "invalid or unsupported Perl syntax " + excerpt(start, end)};
    };
    while (i < size()) {
      const char c = src_[i++];
      unsigned bit = 0;
      switch (c) {
        case 'i':
          bit = kFoldCase;
          break;
        case 'm':
          bit = kMultiLine;
          break;
        case 's':
          bit = kDotNewline;
          break;
        case 'U':
          bit = kNonGreedy;
          break;
        case '-':
          if (negated) throw bad(i);
          negated = true;
          sawFlag = false;
          continue;
        case ':':
        case ')': {
          if (negated && !sawFlag) throw bad(i);
          pos_ = i;
          if (c == ')') {
            flags_ = flags;  // lasts until the enclosing group closes
            return;
          }
          const unsigned outer = flags_;
          flags_ = flags;
          items.push_back(parseGroupBody(depth, start, 0, "", outer));
          return;
        }
        default:
          throw bad(i);
      }
      flags = negated ? (flags & ~bit) : (flags | bit);
      sawFlag = true;
    }
    throw ParseFailure{start, "missing closing ) " + excerpt(start, size())};
  }

  // pos_ just past the group's opening syntax; flags_ hold the body's flags. Restores
  // `outerFlags` after the closing ')'.
  Node parseGroupBody(int depth, std::size_t start, int capture, std::string name,
                      unsigned outerFlags) {
    Node body = parseAlternation(depth + 1);
    if (pos_ >= size() || src_[pos_] != ')') {
      throw ParseFailure{start, "missing closing ) " + excerpt(start, start + 40)};
    }
    ++pos_;
    flags_ = outerFlags;
    Node node = make(Node::Kind::kGroup);
    node.capture = capture;
    node.name = std::move(name);
    node.children.push_back(std::move(body));
    return node;
  }

  // pos_ at '\\' outside a class.
  void parseEscapeAtom(std::vector<Node>& items) {
    const std::size_t start = pos_;
    if (pos_ + 1 >= size()) throw ParseFailure{start, "trailing backslash at end of expression"};
    const char c = src_[pos_ + 1];
    switch (c) {
      case 'A':
      case 'z':
      case 'b':
      case 'B': {
        pos_ += 2;
        const AssertKind kind = c == 'A'   ? AssertKind::kBeginText
                                : c == 'z' ? AssertKind::kEndText
                                : c == 'b' ? AssertKind::kWordBoundary
                                           : AssertKind::kNotWordBoundary;
        items.push_back(assertion(kind));
        return;
      }
      case 'C':
        throw ParseFailure{start, "invalid escape `\\C` (any byte) is not supported by Go"};
      case 'Z':
        throw ParseFailure{start, "invalid escape `\\Z` (Go has only `\\z`)"};
      case 'Q': {
        const std::size_t body = pos_ + 2;
        const std::size_t end = src_.find("\\E", body);
        const std::size_t stop = end == std::string_view::npos ? size() : end;
        for (std::size_t p = body; p < stop;) {
          char32_t rune = 0;
          nextRune(src_, p, rune);
          items.push_back(literalNode(rune));
        }
        pos_ = end == std::string_view::npos ? size() : end + 2;
        return;
      }
      case 'p':
      case 'P': {
        const std::string_view source = scanUnicodeClass();
        items.push_back(classNode(std::string(source), {}, (flags_ & kFoldCase) != 0, false));
        return;
      }
      default:
        break;
    }
    if (std::string_view("dDsSwW").find(c) != std::string_view::npos) {
      pos_ += 2;
      items.push_back(
          classNode(std::string(src_.substr(start, 2)), {}, (flags_ & kFoldCase) != 0, false));
      return;
    }
    items.push_back(literalNode(parseEscape()));
  }

  // Go's parseEscape: pos_ at '\\'; returns the rune and moves past the escape.
  char32_t parseEscape() {
    const std::size_t start = pos_;
    std::size_t p = pos_ + 1;
    char32_t c = 0;
    if (!nextRune(src_, p, c)) throw ParseFailure{start, "trailing backslash at end of expression"};
    if (c < 0x80 && !isAsciiAlnum(c)) {  // escaped punctuation is itself
      pos_ = p;
      return c;
    }
    const auto digitAt = [&](std::size_t i) {
      return i < size() && src_[i] >= '0' && src_[i] <= '7';
    };
    switch (c) {
      case '1':
      case '2':
      case '3':
      case '4':
      case '5':
      case '6':
      case '7':
        if (!digitAt(p)) {
          throw ParseFailure{
              start, "invalid escape " + excerpt(start, p) + " (backreferences are not supported)"};
        }
        [[fallthrough]];
      case '0': {
        char32_t value = c - '0';
        for (int i = 1; i < 3 && digitAt(p); ++i) value = value * 8 + (src_[p++] - '0');
        pos_ = p;
        return value;
      }
      case 'x': {
        if (p < size() && src_[p] == '{') {
          ++p;
          char32_t value = 0;
          int digits = 0;
          while (p < size() && src_[p] != '}') {
            const int v = hexValue(src_[p++]);
            if (v < 0) throw ParseFailure{start, "invalid escape " + excerpt(start, p)};
            value = value * 16 + static_cast<char32_t>(v);
            if (value > 0x10FFFF) throw ParseFailure{start, "invalid escape " + excerpt(start, p)};
            ++digits;
          }
          if (p >= size() || digits == 0) {
            throw ParseFailure{start, "invalid escape " + excerpt(start, p + 1)};
          }
          pos_ = p + 1;
          return value;
        }
        if (p + 1 < size() && hexValue(src_[p]) >= 0 && hexValue(src_[p + 1]) >= 0) {
          pos_ = p + 2;
          return static_cast<char32_t>(hexValue(src_[p]) * 16 + hexValue(src_[p + 1]));
        }
        throw ParseFailure{start, "invalid escape " + excerpt(start, p + 2)};
      }
      case 'a':
        pos_ = p;
        return 7;
      case 'f':
        pos_ = p;
        return 12;
      case 'n':
        pos_ = p;
        return 10;
      case 'r':
        pos_ = p;
        return 13;
      case 't':
        pos_ = p;
        return 9;
      case 'v':
        pos_ = p;
        return 11;
      default:
        break;
    }
    throw ParseFailure{start, "invalid escape " + excerpt(start, p)};
  }

  // pos_ at "\p" or "\P"; moves past \pX, \p{Name} or \p{^Name} and returns its text.
  std::string_view scanUnicodeClass() {
    const std::size_t start = pos_;
    const std::size_t p = pos_ + 2;
    if (p >= size())
      throw ParseFailure{start, "invalid character class range " + excerpt(start, p)};
    std::size_t end = p;
    std::string_view name;
    if (src_[p] == '{') {
      const std::size_t close = src_.find('}', p);
      if (close == std::string_view::npos) {
        throw ParseFailure{start, "invalid character class range " + excerpt(start, size())};
      }
      name = src_.substr(p + 1, close - p - 1);
      end = close + 1;
    } else {
      char32_t rune = 0;
      nextRune(src_, end, rune);
      name = src_.substr(p, end - p);
    }
    if (name.starts_with('^')) name.remove_prefix(1);
    if (name.empty()) {
      throw ParseFailure{start, "invalid character class range " + excerpt(start, end)};
    }
    pos_ = end;
    return src_.substr(start, end - start);
  }

  void addHints(std::vector<char32_t>& hints, char32_t lo, char32_t hi) const {
    const std::array<char32_t, 4> candidates = {lo, hi, static_cast<char32_t>(lo + (hi - lo) / 2),
                                                lo < hi ? static_cast<char32_t>(lo + 1) : lo};
    for (char32_t rune : candidates) {
      if (hints.size() >= kMaxHintsPerClass || isSurrogate(rune)) continue;
      if (std::find(hints.begin(), hints.end(), rune) == hints.end()) hints.push_back(rune);
      if ((flags_ & kFoldCase) && rune < 0x80 && isAsciiAlnum(rune) && rune > '9') {
        hints.push_back(rune ^ 0x20);
      }
    }
  }

  // pos_ at '['; moves past the closing ']'.
  Node parseBracketClass() {
    const std::size_t start = pos_++;
    std::vector<char32_t> hints;
    if (pos_ < size() && src_[pos_] == '^') ++pos_;
    bool first = true;  // a ']' right after '[' or '[^' is a literal
    while (true) {
      if (pos_ >= size()) throw ParseFailure{start, "missing closing ] " + excerpt(start, size())};
      if (src_[pos_] == ']' && !first) {
        ++pos_;
        break;
      }
      first = false;
      if (startsWith("[:")) {
        const std::size_t close = src_.find(":]", pos_ + 2);
        if (close != std::string_view::npos) {
          std::string_view name = src_.substr(pos_ + 2, close - pos_ - 2);
          if (name.starts_with('^')) name.remove_prefix(1);
          if (!isPosixClassName(name)) {
            throw ParseFailure{pos_, "invalid character class range " + excerpt(pos_, close + 2)};
          }
          pos_ = close + 2;
          continue;
        }
      }
      if (src_[pos_] == '\\' && pos_ + 1 < size()) {
        const char e = src_[pos_ + 1];
        if (e == 'p' || e == 'P') {
          scanUnicodeClass();
          continue;
        }
        if (std::string_view("dDsSwW").find(e) != std::string_view::npos) {
          pos_ += 2;
          continue;
        }
      }
      const std::size_t rangeStart = pos_;
      const char32_t lo = parseClassChar(start);
      char32_t hi = lo;
      if (pos_ + 1 < size() && src_[pos_] == '-' && src_[pos_ + 1] != ']') {
        ++pos_;
        hi = parseClassChar(start);
        if (hi < lo) {
          throw ParseFailure{rangeStart,
                             "invalid character class range " + excerpt(rangeStart, pos_)};
        }
      }
      addHints(hints, lo, hi);
    }
    return classNode(std::string(src_.substr(start, pos_ - start)), std::move(hints),
                     (flags_ & kFoldCase) != 0, false);
  }

  char32_t parseClassChar(std::size_t classStart) {
    if (pos_ >= size())
      throw ParseFailure{classStart, "missing closing ] " + excerpt(classStart, size())};
    if (src_[pos_] == '\\') return parseEscape();
    char32_t rune = 0;
    nextRune(src_, pos_, rune);
    return rune;
  }

  std::string_view src_;
  ParseLimits limits_;
  std::size_t pos_ = 0;
  unsigned flags_ = 0;
  std::size_t nodes_ = 0;
  Regex out_;
  std::set<std::string> names_;
  std::vector<std::size_t> re2Inserts_;
  std::map<std::tuple<std::string, bool, bool>, std::size_t> classIds_;
};

}  // namespace

std::variant<Regex, std::string> parseRegex(std::string_view pattern, const ParseLimits& limits) {
  try {
    return Parser(pattern, limits).run();
  } catch (const ParseFailure& failure) {
    return "offset " + std::to_string(failure.offset) + ": " + failure.what;
  }
}

}  // namespace convcheck::pattern

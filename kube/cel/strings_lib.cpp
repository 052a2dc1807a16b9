// cel-go's ext.Strings as Kubernetes declares it: charAt, indexOf, lastIndexOf, lowerAscii,
// upperAscii, replace, split, substring, trim, join, reverse, strings.quote. Indices count code
// points.
#include <cctype>

#include "kube/cel/builtins.h"
#include "kube/go/utf8.h"

namespace convcheck::cel {

namespace {

using I64 = std::int64_t;

std::u32string runes(const std::string& s) {
  std::u32string out;
  std::size_t pos = 0;
  while (pos < s.size()) {
    auto [r, w] = decodeRune(std::string_view(s).substr(pos));
    out.push_back(r);
    pos += w ? w : 1;
  }
  return out;
}

Value indexError(I64 i) { return Value::error("index out of range: " + std::to_string(i)); }

Value charAt(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n != 2 || a[0].kind() != Kind::String || a[1].kind() != Kind::Int)
    return noSuchOverload("charAt");
  st.cost += traversalCost(a[0].str().size());
  const auto r = runes(a[0].str());
  const I64 i = a[1].asInt();
  if (i < 0 || static_cast<std::size_t>(i) > r.size()) return indexError(i);
  if (static_cast<std::size_t>(i) == r.size()) return Value::string("");
  return Value::string(encodeRune(r[static_cast<std::size_t>(i)]));
}

Value indexOf(const Value* a, std::size_t n, EvalState& st, bool last) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n < 2 || a[0].kind() != Kind::String || a[1].kind() != Kind::String ||
      (n == 3 && a[2].kind() != Kind::Int) || n > 3)
    return noSuchOverload(last ? "lastIndexOf" : "indexOf");
  st.cost += traversalCost(a[0].str().size());
  const auto s = runes(a[0].str());
  const auto sub = runes(a[1].str());
  I64 offset = last ? static_cast<I64>(s.size()) : 0;
  if (n == 3) {
    offset = a[2].asInt();
    if (offset < 0 || static_cast<std::size_t>(offset) > s.size()) return indexError(offset);
  }
  if (sub.empty()) return Value::integer(offset);
  if (last) {
    I64 start = std::min<I64>(offset, static_cast<I64>(s.size()) - static_cast<I64>(sub.size()));
    for (I64 i = start; i >= 0; --i)
      if (s.compare(static_cast<std::size_t>(i), sub.size(), sub) == 0) return Value::integer(i);
    return Value::integer(-1);
  }
  const auto at = s.find(sub, static_cast<std::size_t>(offset));
  return Value::integer(at == std::u32string::npos ? -1 : static_cast<I64>(at));
}

template <bool Upper>
Value asciiCase(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n != 1 || a[0].kind() != Kind::String)
    return noSuchOverload(Upper ? "upperAscii" : "lowerAscii");
  st.cost += traversalCost(a[0].str().size());
  std::string s = a[0].str();
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x80)
      c = static_cast<char>(Upper ? std::toupper(static_cast<unsigned char>(c))
                                  : std::tolower(static_cast<unsigned char>(c)));
  return Value::string(std::move(s));
}

Value replace(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n < 3 || n > 4 || !allOf(a, 3, Kind::String) || (n == 4 && a[3].kind() != Kind::Int))
    return noSuchOverload("replace");
  st.cost += traversalCost(a[0].str().size());
  const std::string& s = a[0].str();
  const std::string& from = a[1].str();
  const std::string& to = a[2].str();
  I64 limit = n == 4 ? a[3].asInt() : -1;
  std::string out;
  if (from.empty()) {  // Go inserts `to` before every rune and at the end
    std::size_t pos = 0;
    I64 done = 0;
    while (pos <= s.size()) {
      if (limit >= 0 && done >= limit) {
        out += s.substr(pos);
        break;
      }
      out += to;
      ++done;
      if (pos == s.size()) break;
      auto [r, w] = decodeRune(std::string_view(s).substr(pos));
      (void)r;
      out += s.substr(pos, w ? w : 1);
      pos += w ? w : 1;
    }
    return Value::string(std::move(out));
  }
  std::size_t pos = 0;
  I64 done = 0;
  while (limit < 0 || done < limit) {
    const auto at = s.find(from, pos);
    if (at == std::string::npos) break;
    out += s.substr(pos, at - pos) + to;
    pos = at + from.size();
    ++done;
  }
  out += s.substr(pos);
  return Value::string(std::move(out));
}

Value split(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n < 2 || n > 3 || !allOf(a, 2, Kind::String) || (n == 3 && a[2].kind() != Kind::Int))
    return noSuchOverload("split");
  st.cost += traversalCost(a[0].str().size());
  const std::string& s = a[0].str();
  const std::string& sep = a[1].str();
  const I64 limit = n == 3 ? a[2].asInt() : -1;
  std::vector<Value> parts;
  if (limit == 0) return Value::list(std::move(parts));
  if (sep.empty()) {  // Go splits into runes
    std::size_t pos = 0;
    while (pos < s.size()) {
      if (limit > 0 && static_cast<I64>(parts.size()) == limit - 1) {
        parts.push_back(Value::string(s.substr(pos)));
        return Value::list(std::move(parts));
      }
      auto [r, w] = decodeRune(std::string_view(s).substr(pos));
      (void)r;
      parts.push_back(Value::string(s.substr(pos, w ? w : 1)));
      pos += w ? w : 1;
    }
    return Value::list(std::move(parts));
  }
  std::size_t pos = 0;
  for (;;) {
    if (limit > 0 && static_cast<I64>(parts.size()) == limit - 1) break;
    const auto at = s.find(sep, pos);
    if (at == std::string::npos) break;
    parts.push_back(Value::string(s.substr(pos, at - pos)));
    pos = at + sep.size();
  }
  parts.push_back(Value::string(s.substr(pos)));
  return Value::list(std::move(parts));
}

Value substring(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n < 2 || n > 3 || a[0].kind() != Kind::String || a[1].kind() != Kind::Int ||
      (n == 3 && a[2].kind() != Kind::Int))
    return noSuchOverload("substring");
  st.cost += traversalCost(a[0].str().size());
  const auto r = runes(a[0].str());
  const I64 start = a[1].asInt();
  const I64 end = n == 3 ? a[2].asInt() : static_cast<I64>(r.size());
  if (start < 0 || static_cast<std::size_t>(start) > r.size()) return indexError(start);
  if (end < 0 || static_cast<std::size_t>(end) > r.size()) return indexError(end);
  if (start > end)
    return Value::error("invalid substring range. start: " + std::to_string(start) +
                        ", end: " + std::to_string(end));
  return Value::string(encodeRunes(std::u32string_view(r).substr(
      static_cast<std::size_t>(start), static_cast<std::size_t>(end - start))));
}

bool isUnicodeSpace(char32_t r) {
  return r == ' ' || (r >= 0x09 && r <= 0x0D) || r == 0x85 || r == 0xA0 || r == 0x1680 ||
         (r >= 0x2000 && r <= 0x200A) || r == 0x2028 || r == 0x2029 || r == 0x202F || r == 0x205F ||
         r == 0x3000;
}

Value trim(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n != 1 || a[0].kind() != Kind::String) return noSuchOverload("trim");
  st.cost += traversalCost(a[0].str().size());
  auto r = runes(a[0].str());
  std::size_t b = 0, e = r.size();
  while (b < e && isUnicodeSpace(r[b])) ++b;
  while (e > b && isUnicodeSpace(r[e - 1])) --e;
  return Value::string(encodeRunes(std::u32string_view(r).substr(b, e - b)));
}

Value join(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n < 1 || n > 2 || a[0].kind() != Kind::List || (n == 2 && a[1].kind() != Kind::String))
    return noSuchOverload("join");
  const auto& l = a[0].asList();
  std::string out;
  for (std::size_t i = 0; i < l.size(); ++i) {
    const Value v = l.at(i);
    if (v.kind() != Kind::String) return noSuchOverload("join");
    if (i && n == 2) out += a[1].str();
    out += v.str();
  }
  st.cost += traversalCost(out.size());
  return Value::string(std::move(out));
}

Value reverse(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n != 1 || a[0].kind() != Kind::String) return noSuchOverload("reverse");
  st.cost += traversalCost(a[0].str().size());
  auto r = runes(a[0].str());
  return Value::string(encodeRunes(std::u32string(r.rbegin(), r.rend())));
}

Value quote(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n != 1 || a[0].kind() != Kind::String) return noSuchOverload("strings.quote");
  st.cost += traversalCost(a[0].str().size());
  std::string out = "\"";
  for (char32_t r : runes(a[0].str())) {
    switch (r) {
      case '\a':
        out += "\\a";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
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
      case '\v':
        out += "\\v";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      default:
        appendRune(out, r);
    }
  }
  return Value::string(out + "\"");
}

}  // namespace

Value stringIndexOf(const Value* a, std::size_t n, EvalState& st, bool last) {
  return indexOf(a, n, st, last);
}

void addStringsLibrary(FunctionTable& t) {
  t.member("charAt", charAt);
  t.member("lowerAscii", asciiCase<false>);
  t.member("upperAscii", asciiCase<true>);
  t.member("replace", replace);
  t.member("split", split);
  t.member("substring", substring);
  t.member("trim", trim);
  t.member("join", join);
  t.member("reverse", reverse);
  t.global("strings.quote", quote);
}

}  // namespace convcheck::cel

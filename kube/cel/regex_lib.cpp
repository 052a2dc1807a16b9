// Regular expressions with RE2's semantics (Go's regexp is RE2): matches from the standard
// definitions, find and findAll from Kubernetes' regex library. Literal patterns are compiled
// once, when the expression is compiled.
#include <re2/re2.h>

#include "kube/cel/ast.h"
#include "kube/cel/builtins.h"

namespace convcheck::cel {

namespace {

// The compiled pattern of this call: the one made at compile time, else one made now.
std::shared_ptr<const RE2> patternOf(const Value& pattern, EvalState& st, std::string* error) {
  if (st.call && st.call->precompiled)
    return std::static_pointer_cast<const RE2>(st.call->precompiled);
  auto re = std::static_pointer_cast<const RE2>(precompileRegex(pattern.str(), error));
  return re;
}

Value matches(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n != 2 || !allOf(a, 2, Kind::String)) return noSuchOverload("matches");
  std::string error;
  auto re = patternOf(a[1], st, &error);
  if (!re) return Value::error(error);
  st.cost += traversalCost(a[0].str().size()) * traversalCost(a[1].str().size());
  return Value::boolean(RE2::PartialMatch(a[0].str(), *re));
}

Value find(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n != 2 || !allOf(a, 2, Kind::String)) return noSuchOverload("find");
  std::string error;
  auto re = patternOf(a[1], st, &error);
  if (!re) return Value::error(error);
  st.cost += traversalCost(a[0].str().size()) * traversalCost(a[1].str().size());
  re2::StringPiece match;
  if (!re->Match(a[0].str(), 0, a[0].str().size(), RE2::UNANCHORED, &match, 1))
    return Value::string("");
  return Value::string(std::string(match.data(), match.size()));
}

Value findAll(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n < 2 || n > 3 || !allOf(a, 2, Kind::String) || (n == 3 && a[2].kind() != Kind::Int))
    return noSuchOverload("findAll");
  std::string error;
  auto re = patternOf(a[1], st, &error);
  if (!re) return Value::error(error);
  st.cost += traversalCost(a[0].str().size()) * traversalCost(a[1].str().size());
  const std::int64_t limit = n == 3 ? a[2].asInt() : -1;
  std::vector<Value> out;
  const std::string& s = a[0].str();
  std::size_t pos = 0;
  std::ptrdiff_t prevEnd = -1;
  while (pos <= s.size() && (limit < 0 || static_cast<std::int64_t>(out.size()) < limit)) {
    re2::StringPiece m;
    if (!re->Match(s, pos, s.size(), RE2::UNANCHORED, &m, 1)) break;
    const std::size_t start = static_cast<std::size_t>(m.data() - s.data());
    const std::size_t end = start + m.size();
    // Go skips an empty match right after the previous match.
    if (!(m.empty() && static_cast<std::ptrdiff_t>(start) == prevEnd))
      out.push_back(Value::string(std::string(m.data(), m.size())));
    prevEnd = static_cast<std::ptrdiff_t>(end);
    pos = m.empty() ? end + 1 : end;
  }
  return Value::list(std::move(out));
}

}  // namespace

std::shared_ptr<const void> precompileRegex(const std::string& pattern, std::string* error) {
  RE2::Options options;
  options.set_log_errors(false);
  auto re = std::make_shared<const RE2>(pattern, options);
  if (!re->ok()) {
    if (error) *error = "error parsing regexp: " + re->error();
    return nullptr;
  }
  return re;
}

void addRegexLibrary(FunctionTable& t) {
  t.both("matches", matches);
  t.member("find", find);
  t.member("findAll", findAll);
}

}  // namespace convcheck::cel

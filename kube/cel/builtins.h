// The table of CEL functions by name (global `f(x)` and receiver-style `x.f()` separately), and
// what a function sees while it runs (the cost so far and its limit). Filled by the libraries
// (stdlib, strings, lists, regex, urls, ip, quantity, optional, format); read by Program.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "kube/cel/value.h"

namespace convcheck::cel {

// Runtime cost, counted as cel-go counts it (roughly one per step, strings by length), and the
// limit after which evaluation stops with kube-apiserver's cost error.
struct Expr;

struct EvalState {
  const Expr* call = nullptr;  // the call being evaluated (for precompiled arguments)
  std::uint64_t cost = 0;
  std::uint64_t limit = UINT64_MAX;
  bool exceeded() const { return cost > limit; }
};

// args[0] is the receiver of a receiver-style call.
using BuiltinFn = Value (*)(const Value* args, std::size_t n, EvalState& state);

struct Builtin {
  BuiltinFn fn = nullptr;
};

class FunctionTable {
 public:
  void global(const std::string& name, BuiltinFn fn) { globals_[name] = Builtin{fn}; }
  void member(const std::string& name, BuiltinFn fn) { members_[name] = Builtin{fn}; }
  void both(const std::string& name, BuiltinFn fn) {
    global(name, fn);
    member(name, fn);
  }
  const Builtin* find(const std::string& name, bool memberCall) const {
    const auto& t = memberCall ? members_ : globals_;
    auto it = t.find(name);
    return it == t.end() ? nullptr : &it->second;
  }

 private:
  std::unordered_map<std::string, Builtin> globals_, members_;
};

// Every library Kubernetes declares for CRD validation rules.
const FunctionTable& kubernetesFunctions();

// The libraries, each adding its functions.
void addStandardLibrary(FunctionTable& t);  // cel-spec's standard definitions
void addStringsLibrary(FunctionTable& t);   // cel-go ext.Strings
void addListsLibrary(FunctionTable& t);     // k8s lists, cel-go ext.Sets
void addRegexLibrary(FunctionTable& t);     // k8s regex: find, findAll
void addUrlsLibrary(FunctionTable& t);      // k8s urls
void addNetLibrary(FunctionTable& t);       // k8s ip and cidr
void addQuantityLibrary(FunctionTable& t);  // k8s quantity
void addOptionalLibrary(FunctionTable& t);  // cel-go optional types
void addFormatLibrary(FunctionTable& t);    // k8s format

// A literal pattern of matches/find/findAll compiled once (RE2 syntax); null and `error` set when
// RE2 rejects it.
std::shared_ptr<const void> precompileRegex(const std::string& pattern, std::string* error);

// indexOf and lastIndexOf of strings (the lists library dispatches lists and strings).
Value stringIndexOf(const Value* args, std::size_t n, EvalState& state, bool last);

// Helpers shared by the libraries.
Value noSuchOverload(const char* function);
inline bool allOf(const Value* a, std::size_t n, Kind k) {
  for (std::size_t i = 0; i < n; ++i)
    if (a[i].kind() != k) return false;
  return true;
}
// The first error among the arguments, if any (functions are strict in their arguments).
inline const Value* firstError(const Value* a, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (a[i].isError()) return &a[i];
  return nullptr;
}
// Cost of traversing a string or bytes value of `size` bytes (cel-go's factor 0.1, rounded up).
inline std::uint64_t traversalCost(std::size_t size) { return (size + 9) / 10; }

}  // namespace convcheck::cel

#include "engine/fuzz/behaviour_features.h"

#include <algorithm>
#include <bit>
#include <iterator>
#include <set>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

namespace convcheck {

std::string maskedMessage(const std::string& message) {
  std::string out;
  for (std::size_t i = 0; i < message.size() && out.size() < 200; ++i) {
    const char c = message[i];
    if (c >= '0' && c <= '9') {
      while (i + 1 < message.size() && message[i + 1] >= '0' && message[i + 1] <= '9') ++i;
      out += '0';
    } else if (c == '"') {
      std::size_t end = i + 1;
      while (end < message.size() && message[end] != '"') end += message[end] == '\\' ? 2 : 1;
      out += "\"…\"";
      i = end;
    } else {
      out += c;
    }
  }
  return out;
}

std::string foldedPath(const std::string& path) {
  std::string out;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '[') {
      const std::size_t end = path.find(']', i);
      if (end == std::string::npos) break;
      out += "[*]";
      i = end;
    } else {
      out += path[i];
    }
  }
  return out;
}

namespace {

// 0 for 0, else 1 + floor(log2(n)): latency classes.
unsigned sizeClass(std::uint64_t n) { return static_cast<unsigned>(std::bit_width(n)); }

// Answer sizes in quarter octaves (the leading bit and the two below it): an answer that grows by
// a fifth is a new class, so inputs that make the webhook write more are kept and grown further.
unsigned fineSizeClass(std::uint64_t n) {
  const unsigned width = sizeClass(n);
  if (width <= 3) return width;
  return width * 4 + static_cast<unsigned>((n >> (width - 3)) & 3);
}

std::uint64_t hashName(const std::string& name) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : name) h = (h ^ c) * 1099511628211ULL;
  return h ^ (h >> 31);
}

}  // namespace

void BehaviourFeatures::clear() { names_.clear(); }

void BehaviourFeatures::add(std::string name) { names_.push_back(std::move(name)); }

void BehaviourFeatures::join(const BehaviourFeatures& other) {
  std::unordered_map<std::string_view, int> missing;  // copies `other` has beyond this one's
  for (const auto& name : other.names_) ++missing[name];
  for (const auto& name : names_)
    if (auto it = missing.find(name); it != missing.end()) --it->second;
  std::vector<std::string> added;
  for (const auto& name : other.names_)
    if (auto it = missing.find(name); it->second > 0) {
      --it->second;
      added.push_back(name);
    }
  names_.insert(names_.end(), std::make_move_iterator(added.begin()),
                std::make_move_iterator(added.end()));
}

void BehaviourFeatures::addExchange(const Exchange& e) {
  const std::string& to = e.sent.desiredApiVersion;
  const ModelVerdict& v = e.verdict;
  add(fmt::format("{}|stage|{}", to, modelStageName(v.stage)));
  if (!v.message.empty()) add(fmt::format("{}|message|{}", to, maskedMessage(v.message)));
  if (!e.http.ok())
    add(fmt::format("{}|transport|{}", to, transportErrorKindName(e.http.transportErrorKind)));
  add(fmt::format("{}|status|{}", to, e.http.status));
  for (const auto& s : v.silent) add(fmt::format("{}|{}|{}", to, s.what, foldedPath(s.path)));
  add(fmt::format("{}|objects|{}|size|{}", to, sizeClass(e.sent.objects.size()),
                  fineSizeClass(e.http.body.size())));
  add(fmt::format("{}|latency|{}", to,
                  sizeClass(static_cast<std::uint64_t>(e.http.elapsed.count()) / 1000)));
}

namespace {

// A key as a feature names it: identifiers as they are, other keys (map entries) as "*".
std::string keyName(const std::string& key) {
  const bool plain = !key.empty() && key.size() <= 64 &&
                     key.find_first_not_of(
                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                         "0123456789_") == std::string::npos;
  return plain ? key : "*";
}

template <typename Add>
void addShape(const nlohmann::json& value, const std::string& path, int depth, const Add& add) {
  if (depth > 12) return;
  if (value.is_object()) {
    for (const auto& [key, child] : value.items()) {
      if (depth == 0 && (key == "metadata" || key == "apiVersion" || key == "kind")) continue;
      const std::string childPath = path + "." + keyName(key);
      add(childPath);
      addShape(child, childPath, depth + 1, add);
    }
  } else if (value.is_array()) {
    add(fmt::format("{}|len|{}", path, std::min<std::size_t>(value.size(), 64)));
    for (const auto& item : value) addShape(item, path + "[*]", depth + 1, add);
  }
}

}  // namespace

void BehaviourFeatures::addInput(const std::string& version, const nlohmann::json& object) {
  std::set<std::string> seen;  // a feature per shape, not per list element
  addShape(object, "", 0, [&](const std::string& shape) {
    if (seen.insert(shape).second) add(fmt::format("{}|in|{}", version, shape));
  });
}

void BehaviourFeatures::addResult(const CaseResult& result, const std::string& from,
                                  const std::string& to) {
  auto addAll = [&](const std::vector<CheckResult>& results, const std::string& pair) {
    for (const auto& r : results) {
      if (r.outcome == Outcome::Blocked) add(fmt::format("{}|blocked|{}", pair, r.property));
      if (r.outcome != Outcome::Fail) continue;
      add(fmt::format("{}|fail|{}", pair, r.property));
      if (r.finding)
        for (const auto& c : r.finding->causes) add(fmt::format("{}|cause|{}", pair, c.key));
    }
  };
  const std::string pair = from + ">" + to;
  addAll(result.forward, pair);
  addAll(result.composite, pair);
  for (std::size_t i = 0; i < result.backward.size() && i < result.backwardTo.size(); ++i)
    addAll({result.backward[i]}, result.backwardFrom + ">" + result.backwardTo[i]);
}

std::size_t BehaviourFeatures::addNewTo(std::unordered_set<std::uint64_t>& seen) const {
  std::size_t added = 0;
  for (const auto& name : names_) added += seen.insert(hashName(name)).second;
  return added;
}

void BehaviourFeatures::writeTo(std::span<std::uint8_t> counters) const {
  if (counters.empty()) return;
  for (const auto& name : names_) {
    std::uint8_t& c = counters[hashName(name) % counters.size()];
    if (c < 255) ++c;
  }
}

}  // namespace convcheck

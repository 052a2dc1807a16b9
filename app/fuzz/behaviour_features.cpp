#include "app/fuzz/behaviour_features.h"

#include <bit>

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

// 0 for 0, else 1 + floor(log2(n)): size and latency classes.
unsigned sizeClass(std::uint64_t n) { return static_cast<unsigned>(std::bit_width(n)); }

std::uint64_t hashName(const std::string& name) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : name) h = (h ^ c) * 1099511628211ULL;
  return h ^ (h >> 31);
}

}  // namespace

void BehaviourFeatures::clear() { names_.clear(); }

void BehaviourFeatures::add(std::string name) { names_.push_back(std::move(name)); }

void BehaviourFeatures::addExchange(const Exchange& e) {
  const std::string& to = e.sent.desiredApiVersion;
  const ModelVerdict& v = e.verdict;
  add(fmt::format("{}|stage|{}", to, modelStageName(v.stage)));
  if (!v.message.empty()) add(fmt::format("{}|message|{}", to, maskedMessage(v.message)));
  if (!e.http.ok()) add(fmt::format("{}|transport|{}", to, e.http.transportErrorKind));
  add(fmt::format("{}|status|{}", to, e.http.status));
  for (const auto& s : v.silent) add(fmt::format("{}|{}|{}", to, s.what, foldedPath(s.path)));
  add(fmt::format("{}|objects|{}|size|{}", to, sizeClass(e.sent.objects.size()),
                  sizeClass(e.http.body.size())));
  add(fmt::format("{}|latency|{}", to,
                  sizeClass(static_cast<std::uint64_t>(e.http.elapsed.count()) / 1000)));
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

void BehaviourFeatures::writeTo(std::span<std::uint8_t> counters) const {
  if (counters.empty()) return;
  for (const auto& name : names_) {
    std::uint8_t& c = counters[hashName(name) % counters.size()];
    if (c < 255) ++c;
  }
}

}  // namespace convcheck

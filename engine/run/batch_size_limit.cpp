#include "engine/run/batch_size_limit.h"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

#include "harness/transport/call_failure.h"
#include "kube/apiserver/group_version.h"

namespace convcheck {

namespace {

std::pair<std::string, std::string> pairOf(const Exchange& exchange) {
  if (exchange.sent.objects.empty()) return {};
  return {objectVersion(exchange.sent.objects.front()),
          objectVersion(nlohmann::json{{"apiVersion", exchange.sent.desiredApiVersion}})};
}

std::string objectsAndBytes(std::size_t objects, std::size_t bytes) {
  return fmt::format("{} object{} ({})", objects, objects == 1 ? "" : "s", byteSize(bytes));
}

// Whether `finding` is of the pair of `limit` and shows a request refused for its size.
bool explains(const BodySizeLimit& limit, const Finding& finding) {
  if (finding.from != limit.from || finding.to != limit.to) return false;
  return std::any_of(finding.exchanges.begin(), finding.exchanges.end(),
                     [&](const auto& ex) { return ex && sizeRefusal(*ex).has_value(); });
}

void addDetail(const BodySizeLimit& limit, Finding& finding) {
  const std::string sentence = limit.sentence();
  if (explains(limit, finding) &&
      std::find(finding.details.begin(), finding.details.end(), sentence) == finding.details.end())
    finding.details.push_back(sentence);
}

}  // namespace

std::string byteSize(std::size_t bytes) {
  if (bytes < 1000) return fmt::format("{} B", bytes);
  if (bytes < 1000 * 1000) return fmt::format("{:.1f} kB", bytes / 1e3);
  return fmt::format("{:.2f} MB", bytes / 1e6);
}

std::string BodySizeLimit::sentence() const {
  const std::string pair = fmt::format("{} -> {}", from, to);
  if (passedObjects == 0)
    return fmt::format(
        "requests {} are refused ({}) from a single object on ({}), and so was the batch of {}: "
        "not a size limit",
        pair, refusal, byteSize(refusedBytes), objectsAndBytes(batchObjects, batchBytes));
  return fmt::format(
      "requests {} are refused ({}) from {} on; {} passed (the refused batch: {}). "
      "kube-apiserver sends a whole LIST chunk (up to 500 objects) in one request: raise the "
      "webhook's request body limit",
      pair, refusal, objectsAndBytes(refusedObjects, refusedBytes),
      objectsAndBytes(passedObjects, passedBytes), objectsAndBytes(batchObjects, batchBytes));
}

std::string BodySizeLimit::title() const {
  if (passedObjects == 0)
    return fmt::format("requests are refused ({}) from a single object on ({} -> {})", refusal,
                       from, to);
  return fmt::format("requests are refused ({}) from {} on; {} pass ({} -> {})", refusal,
                     objectsAndBytes(refusedObjects, refusedBytes),
                     objectsAndBytes(passedObjects, passedBytes), from, to);
}

std::optional<std::string> sizeRefusal(const Exchange& exchange) {
  const HttpResult& http = exchange.http;
  if (http.ok()) {
    if (http.status == 413) return "HTTP 413";
    return std::nullopt;
  }
  // A server that stops reading at its cap closes or resets the connection while the request is
  // still being sent.
  if (closedBeforeAnswering(http.transportErrorKind)) return "the connection closed";
  return std::nullopt;
}

std::size_t BatchSizeLimit::cap(const std::string& from, const std::string& to) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = timedOut_.find({from, to});
  return it == timedOut_.end() ? SIZE_MAX : std::max<std::size_t>(1, it->second / 2);
}

void BatchSizeLimit::observe(const Exchange& exchange) {
  const std::size_t objects = exchange.sent.objects.size();
  if (exchange.http.transportErrorKind != TransportErrorKind::Timeout || objects < 2) return;
  std::lock_guard<std::mutex> lock(mutex_);
  auto [it, inserted] = timedOut_.try_emplace(pairOf(exchange), objects);
  if (!inserted) it->second = std::min(it->second, objects);
}

bool BatchSizeLimit::wantsBisection(const std::string& from, const std::string& to,
                                    const Exchange& forward) const {
  if (forward.sent.objects.size() < 2 || !sizeRefusal(forward)) return false;
  return std::none_of(limits_.begin(), limits_.end(),
                      [&](const BodySizeLimit& l) { return l.from == from && l.to == to; });
}

BodySizeLimit BatchSizeLimit::bisect(const std::string& from, const std::string& to,
                                     const Exchange& forward, std::size_t bytes,
                                     const Probe& probe) {
  BodySizeLimit limit;
  limit.from = from;
  limit.to = to;
  limit.refusal = *sizeRefusal(forward);
  limit.batchObjects = forward.sent.objects.size();
  limit.batchBytes = bytes;
  limit.refusedObjects = limit.batchObjects;
  limit.refusedBytes = bytes;
  // Invariant: refusedObjects is refused; passedObjects passed (or is 0).
  while (limit.refusedObjects - limit.passedObjects > 1) {
    const std::size_t middle =
        limit.passedObjects + (limit.refusedObjects - limit.passedObjects) / 2;
    const SizeProbe result = probe(middle);
    if (result.refused) {
      limit.refusedObjects = middle;
      limit.refusedBytes = result.bytes;
    } else {
      limit.passedObjects = middle;
      limit.passedBytes = result.bytes;
    }
  }
  limits_.push_back(limit);
  return limit;
}

void BatchSizeLimit::describe(KindReport& report) const {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [pair, objects] : timedOut_)
      report.notes.push_back(fmt::format(
          "a batch of {} objects {} -> {} timed out: later cases of the pair sent at most {} "
          "objects",
          objects, pair.first, pair.second, std::max<std::size_t>(1, objects / 2)));
  }
  for (const auto& limit : limits_) {
    report.notes.push_back(limit.sentence());
    for (auto& tally : report.tallies)
      for (auto& finding : tally.findings) addDetail(limit, finding);
    // A problem whose example the limit explains is named by what was seen: the sizes refused
    // and passed, not "the server responded with the status code 413".
    for (auto& problem : report.problems)
      if (explains(limit, problem.example)) {
        addDetail(limit, problem.example);
        problem.title = limit.title();
      }
  }
}

}  // namespace convcheck

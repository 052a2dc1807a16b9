// What batch sizes a webhook cannot take, per version pair: after a batch times out, later cases
// of the pair send smaller batches (the cap the case executors' converters apply as each case's
// forward call is sent); a request refused for its size is bisected on its number of objects to
// the size at which the refusal starts. Used by the runner (one per kind).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/transport/batch_cap.h"
#include "harness/transport/exchange.h"
#include "reports/run_report.h"

namespace convcheck {

// How a request of the first n objects of a refused batch fared.
struct SizeProbe {
  bool refused = false;   // refused for its size (sizeRefusal), as the whole batch was
  std::size_t bytes = 0;  // the request body's size
};

// The size at which a pair's requests start being refused.
struct BodySizeLimit {
  std::string from, to;
  std::string refusal;             // what the webhook did: "HTTP 413", "the connection closed"
  std::size_t refusedObjects = 0;  // the smallest refused request found
  std::size_t refusedBytes = 0;
  std::size_t passedObjects = 0;  // the largest request that passed (0: none did)
  std::size_t passedBytes = 0;
  std::size_t batchObjects = 0;  // the refused batch the bisection started from
  std::size_t batchBytes = 0;
  // One sentence for the finding's details and the report's notes.
  std::string sentence() const;
  // The title of the problem it explains: the condition observed, in one line ("refused (HTTP
  // 413) from 87 objects (102.8 kB) on; 86 objects (101.9 kB) pass (v1 -> v2)").
  std::string title() const;
};

// How a refusal for size looks: HTTP 413 (Payload Too Large), or the connection closed or reset
// while the request was sent (a server that stops reading at its cap). Nullopt for any other
// outcome (an answer, a timeout, another status).
std::optional<std::string> sizeRefusal(const Exchange& exchange);

// A size "1.2 MB" (decimal units, as request sizes are usually capped) or "730 B".
std::string byteSize(std::size_t bytes);

class BatchSizeLimit : public BatchCap {
 public:
  // Sends the first `objects` objects of the refused batch again.
  using Probe = std::function<SizeProbe(std::size_t objects)>;

  // The most objects a new case of the pair may send (SIZE_MAX while nothing timed out): half
  // of the smallest batch of two or more objects that timed out for it.
  std::size_t cap(const std::string& from, const std::string& to) const override;
  // Every call of the run's cases (any thread, before the call's slot is freed): a timeout of two
  // or more objects lowers the pair's cap.
  void observe(const Exchange& exchange) override;

  // Whether `forward` (a case's first call, of two or more objects) was refused for its size
  // and its pair has no limit found yet: then the runner bisects.
  bool wantsBisection(const std::string& from, const std::string& to,
                      const Exchange& forward) const;
  // Bisects on the number of objects between 0 (taken to pass) and the refused batch's size with
  // `probe`, at most log2(size) + 1 calls; records and returns the limit found. `bytes` is the
  // refused request's size.
  BodySizeLimit bisect(const std::string& from, const std::string& to, const Exchange& forward,
                       std::size_t bytes, const Probe& probe);

  // A note per pair whose batches were cut after a timeout and per body-size limit, and the
  // limit added to the details of the findings it explains (the pair's refused requests).
  void describe(KindReport& report) const;

 private:
  mutable std::mutex mutex_;  // guards timedOut_ (observe runs on every case's thread)
  std::map<std::pair<std::string, std::string>, std::size_t> timedOut_;  // smallest, per pair
  std::vector<BodySizeLimit> limits_;                                    // the runner's thread only
};

}  // namespace convcheck

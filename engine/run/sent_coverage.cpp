#include "engine/run/sent_coverage.h"

#include <algorithm>

#include "kube/apiserver/group_version.h"

namespace convcheck {

SentCoverage::SentCoverage(const KindContext& kind) {
  for (const auto& version : kind.versions()) {
    auto generator = kind.generators().find(version);
    if (generator == kind.generators().end() || !generator->second.schema().root) continue;
    order_.push_back(version);
    schemas_.emplace(version, SchemaCoverage(version, *generator->second.schema().root));
  }
}

void SentCoverage::addCase(const std::string& from, const std::string& to,
                           const CaseResult& result) {
  auto pair = std::find_if(pairs_.begin(), pairs_.end(),
                           [&](const PairCoverage& p) { return p.from == from && p.to == to; });
  if (pair == pairs_.end()) pair = pairs_.insert(pairs_.end(), PairCoverage{from, to});
  ++pair->cases;
  pair->requests += result.calls();
  pair->objects += result.objectsSent;
  pair->bytes += result.bytesSent;
  if (!result.forwardCall) return;
  for (const auto& object : result.forwardCall->sent.objects) {
    auto schema = schemas_.find(objectVersion(object));
    if (schema != schemas_.end()) schema->second.add(object);
  }
}

void SentCoverage::fill(KindReport& report) const {
  report.coverage.versions.clear();
  for (const auto& version : order_)
    report.coverage.versions.push_back(schemas_.at(version).result());
  report.coverage.pairs = pairs_;
}

}  // namespace convcheck

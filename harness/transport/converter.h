// Sends one batch of objects to a target as kube-apiserver would and judges the answer.
// One per concurrent caller; every exchange goes through here (review encoding, target, model).
#pragma once

#include <memory>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/transport/batch_cap.h"
#include "harness/transport/exchange.h"
#include "harness/transport/request_gate.h"
#include "harness/transport/review_codec.h"
#include "harness/transport/review_target.h"
#include "kube/crd/crd.h"

namespace convcheck {

class Converter {
 public:
  Converter(const Crd& crd, std::unique_ptr<ReviewTarget> target, ReviewVersion reviewVersion);

  // Objects must all differ from `toVersion` (the API server never sends those).
  // `uidSource` makes the fresh request uid deterministic for the case's seed. With
  // BatchCut::ToCap the call sends at most the batch cap's number of its first objects (the
  // exchange holds what was sent). `texts`, when given, holds objects already encoded (the body is
  // written from it, the same bytes) and keeps those this call encodes while it is keeping.
  Exchange convert(SharedObjects objects, const std::string& toVersion, std::mt19937_64& uidSource,
                   BatchCut cut = BatchCut::Whole, EncodedObjects* texts = nullptr);
  Exchange convert(std::vector<nlohmann::json> objects, const std::string& toVersion,
                   std::mt19937_64& uidSource) {
    return convert(SharedObjects::own(std::move(objects)), toVersion, uidSource);
  }

  ReviewVersion reviewVersion() const { return reviewVersion_; }
  // Each POST holds a slot of `gate` (shared with the run's other converters; null = no limit).
  // Encoding the request and judging the answer happen outside it.
  void setGate(RequestGate* gate) { gate_ = gate; }
  // The cap is read, and sees the call's answer, while the call holds its slot (null = no cap).
  void setBatchCap(BatchCap* cap) { cap_ = cap; }

 private:
  const Crd& crd_;
  std::unique_ptr<ReviewTarget> target_;
  ReviewVersion reviewVersion_;
  RequestGate* gate_ = nullptr;
  BatchCap* cap_ = nullptr;
};

}  // namespace convcheck

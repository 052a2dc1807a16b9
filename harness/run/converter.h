// Sends one batch of objects to the webhook as kube-apiserver would and judges the answer.
// Owned by the runner, one per CRD; every exchange goes through here (transport + model).
#pragma once

#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/crd/crd.h"
#include "harness/transport/https_client.h"
#include "properties/checks/exchange.h"

namespace convcheck {

class Converter {
 public:
  Converter(const Crd& crd, std::string url, const TransportOptions& options,
            ReviewVersion reviewVersion);

  // Objects must all differ from `toVersion` (the API server never sends those).
  // `uidSource` makes the fresh request uid deterministic for the case's seed.
  Exchange convert(const std::vector<nlohmann::json>& objects, const std::string& toVersion,
                   std::mt19937_64& uidSource);

  const std::string& url() const { return url_; }
  ReviewVersion reviewVersion() const { return reviewVersion_; }

 private:
  const Crd& crd_;
  std::string url_;
  ReviewVersion reviewVersion_;
  HttpsClient client_;
};

}  // namespace convcheck

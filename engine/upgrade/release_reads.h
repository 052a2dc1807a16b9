// What an API server serving a release does with one object, as the upgrade plays it: stores an
// object a client wrote (decoded with its version's schema, converted by the webhook to the
// storage version) and shows a stored object at a version (decoded with the schema of the version
// it is stored in, converted by the webhook when the versions differ). Used by the upgrade play
// and by the replay of its bundles.
#pragma once

#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "harness/transport/converter.h"
#include "kube/crd/crd.h"

namespace convcheck {

struct ReleaseRead {
  nlohmann::json object;  // what a client sees; null when the conversion was rejected
  ExchangeRef call;       // the webhook call; null when no conversion was needed
  bool ok() const { return !call || call->verdict.accepted(); }
};

// `object` as kube-apiserver decodes it for `crd`: pruned with the schema of its own version,
// non-nullable nulls dropped, numbers normalised, metadata round-tripped, then that version's
// structural defaults filled in. An object of a version the CRD does not have is left as it is.
nlohmann::json decodedAs(const Crd& crd, const nlohmann::json& object);

// The CRD's storage version ("" when none is marked).
std::string storageVersionOf(const Crd& crd);

// A client's read of `stored` (stored at its apiVersion's version) at `version`: decoded, then
// converted through `converter` unless the versions are the same. A client's write is the same
// at the storage version: its object decoded with the schema of its version, then converted.
ReleaseRead readAt(const Crd& crd, Converter& converter, const nlohmann::json& stored,
                   const std::string& version, std::mt19937_64& uids);

}  // namespace convcheck

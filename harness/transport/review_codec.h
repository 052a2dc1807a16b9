// The ConversionReview request as kube-apiserver puts it on the wire: body bytes, request uid and
// review version choice. Used by the run loop (harness) to build each call; tests pin the bytes.
#pragma once

#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "kube/apiserver/review.h"

namespace convcheck {

// The exact request body kube-apiserver sends (webhook_converter.go createConversionReviewObjects,
// encoded by apimachinery's JSON serializer = Go json.Encoder):
//   {"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1",
//    "request":{"uid":"…","desiredAPIVersion":"…","objects":[…]},
//    "response":{"uid":"","convertedObjects":null,"result":{"metadata":{}}}}
// followed by the "\n" json.Encoder.Encode appends. Envelope keys in Go struct order; objects
// (Unstructured maps) with keys sorted at every level; strings escaped as Go does (see go_json.h).
// Uses review.version, uid, desiredApiVersion and objects; kind/listKind are not on the wire.
std::string encodeReview(const SentReview& review);

// The encoded text of objects a case sends more than once, by the objects' addresses: its batch is
// encoded once, by the forward call, and the calls that send those objects again (the repeat, the
// objects alone, the batch reordered) reuse their bytes. One per case, on the case's thread; the
// objects must outlive it (a case's batch is held by its forward exchange).
class EncodedObjects {
 public:
  // Whether encodeReview keeps the text of each object it encodes (the forward call), or only
  // reuses what was kept (every later call).
  bool keeping = true;

  // The kept text of `object` itself (not of an equal copy), or nullptr.
  const std::string* find(const nlohmann::json& object) const {
    auto it = texts_.find(&object);
    return it == texts_.end() ? nullptr : &it->second;
  }
  void keep(const nlohmann::json& object, std::string_view text) {
    texts_.emplace(&object, std::string(text));
  }
  std::size_t size() const { return texts_.size(); }

 private:
  std::unordered_map<const nlohmann::json*, std::string> texts_;
};

// encodeReview, with the objects `texts` holds written from it (the same bytes: an object's text
// is a function of the object), and with `texts.keeping` the others kept in it.
std::string encodeReview(const SentReview& review, EncodedObjects* texts);

// A random RFC 4122 version 4 UUID in lowercase 8-4-4-4-12 form, drawn from `random` so a run is
// reproducible from its seed (kube-apiserver uses a fresh uuid.New() per call).
std::string newRequestUid(std::mt19937_64& random);

// The ConversionReview version kube-apiserver sends: the first of "v1" / "v1beta1" in the CRD's
// conversionReviewVersions, in order, unknown entries skipped. nullopt when none is known
// (kube-apiserver then fails with "no supported conversion review versions").
// The version for a CRD with conversion strategy `strategy`: chooseReviewVersion for "Webhook";
// v1 for a CRD that does not declare webhook conversion yet (tested with --url all the same).
std::optional<ReviewVersion> reviewVersionForStrategy(
    const std::string& strategy, const std::vector<std::string>& conversionReviewVersions);

std::optional<ReviewVersion> chooseReviewVersion(
    const std::vector<std::string>& conversionReviewVersions);

}  // namespace convcheck

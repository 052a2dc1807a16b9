// A ConversionReview as convcheck sent it, and the API-server model's verdict on the answer.
// Built by harness/transport/review_codec; judged by kube/apiserver/apiserver_model; read by
// properties.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kube/apiserver/shared_objects.h"

namespace convcheck {

enum class ReviewVersion { V1, V1beta1 };

inline const char* reviewVersionName(ReviewVersion v) {
  return v == ReviewVersion::V1 ? "v1" : "v1beta1";
}
inline const char* reviewApiVersion(ReviewVersion v) {
  return v == ReviewVersion::V1 ? "apiextensions.k8s.io/v1" : "apiextensions.k8s.io/v1beta1";
}

struct SentReview {
  ReviewVersion version = ReviewVersion::V1;
  std::string uid;                // request.uid, fresh per call
  std::string desiredApiVersion;  // "group/version"
  SharedObjects objects;          // objects as sent, each with apiVersion and kind
  std::string kind;               // the CRD's kind
  std::string listKind;           // the CRD's listKind (for the list-path error prefix)
};

// Where the API server stopped, in the order of webhook_converter.go.
enum class ModelStage {
  Accepted,      // no error: conversion succeeded
  Transport,     // network / TLS / timeout
  HttpStatus,    // status outside 200-206
  EmptyBody,     // 0-length response
  Decode,        // body does not decode into a ConversionReview of the sent version
  EnvelopeGvk,   // v1: apiVersion/kind not apiextensions.k8s.io/v1 ConversionReview
  NoResponse,    // response missing
  Uid,           // v1: response.uid != request.uid
  ResultStatus,  // result.status != "Success"
  Count,         // number of converted objects differs
  ObjectParse,   // converted object is not an object with a string kind
  ApiVersion,    // converted apiVersion != desired
  Kind,          // kind changed
  Identity,      // name / namespace / uid changed
  Metadata,      // restoreObjectMeta error (labels/annotations type or validation)
  Coerce,        // after conversion: an x-kubernetes-embedded-resource has a non-string
                 // apiVersion/kind, or metadata that does not decode as ObjectMeta
};

const char* modelStageName(ModelStage stage);

// Something the API server does without telling anybody.
struct SilentChange {
  std::size_t index = 0;  // object index in the batch
  std::string path;       // JSON pointer-ish path, e.g. "metadata.finalizers", "spec.nickname"
  std::string what;       // "reverted" (metadata restored), "pruned" (unknown field), "null-pruned"
  nlohmann::json value;   // the webhook's value that was dropped or reverted
};

struct ModelVerdict {
  ModelStage stage = ModelStage::Accepted;
  std::string message;                  // kube-apiserver's error text, exact, empty when accepted
  std::optional<std::size_t> index;     // object index the error names, if any
  std::vector<nlohmann::json> visible;  // what a client would see (restore, prune, normalise)
  std::vector<SilentChange> silent;     // reverted metadata, pruned fields
  // The answer's body is JSON Go's decoder accepts, found while decoding it (false when the model
  // stopped before decoding, or the body was YAML): readers of the body skip that check.
  bool validJsonBody = false;
  bool accepted() const { return stage == ModelStage::Accepted; }
};

}  // namespace convcheck

#include "kube/apiserver/review.h"

namespace convcheck {

const char* modelStageName(ModelStage stage) {
  switch (stage) {
    case ModelStage::Accepted:
      return "accepted";
    case ModelStage::Transport:
      return "transport";
    case ModelStage::HttpStatus:
      return "http-status";
    case ModelStage::EmptyBody:
      return "empty-body";
    case ModelStage::Decode:
      return "decode";
    case ModelStage::EnvelopeGvk:
      return "envelope-gvk";
    case ModelStage::NoResponse:
      return "no-response";
    case ModelStage::Uid:
      return "uid";
    case ModelStage::ResultStatus:
      return "result-status";
    case ModelStage::Count:
      return "count";
    case ModelStage::ObjectParse:
      return "object-parse";
    case ModelStage::ApiVersion:
      return "api-version";
    case ModelStage::Kind:
      return "kind";
    case ModelStage::Identity:
      return "identity";
    case ModelStage::Metadata:
      return "metadata";
    case ModelStage::Coerce:
      return "coerce";
  }
  return "unknown";
}

}  // namespace convcheck

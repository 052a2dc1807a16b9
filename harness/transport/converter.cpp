#include "harness/transport/converter.h"

#include "harness/transport/review_codec.h"
#include "kube/apiserver/apiserver_model.h"

namespace convcheck {

Converter::Converter(const Crd& crd, std::unique_ptr<ReviewTarget> target,
                     ReviewVersion reviewVersion)
    : crd_(crd), target_(std::move(target)), reviewVersion_(reviewVersion) {}

Exchange Converter::convert(SharedObjects objects, const std::string& toVersion,
                            std::mt19937_64& uidSource) {
  Exchange ex;
  ex.sent.version = reviewVersion_;
  ex.sent.uid = newRequestUid(uidSource);
  ex.sent.desiredApiVersion = crd_.apiVersion(toVersion);
  ex.sent.objects = std::move(objects);
  ex.sent.kind = crd_.kind;
  ex.sent.listKind = crd_.listKind;
  {
    const std::string body = encodeReview(ex.sent);
    RequestGate::Pass pass(gate_);
    ex.http = target_->post(body);
  }
  const CrdVersion* target = crd_.version(toVersion);
  ex.verdict = judgeConversion(ex.sent, ex.http, target ? target->schema : nlohmann::json());
  return ex;
}

}  // namespace convcheck

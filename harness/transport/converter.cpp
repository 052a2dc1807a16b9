#include "harness/transport/converter.h"

#include <numeric>

#include "harness/transport/review_codec.h"
#include "kube/apiserver/apiserver_model.h"
#include "kube/apiserver/group_version.h"

namespace convcheck {

Converter::Converter(const Crd& crd, std::unique_ptr<ReviewTarget> target,
                     ReviewVersion reviewVersion)
    : crd_(crd), target_(std::move(target)), reviewVersion_(reviewVersion) {}

Exchange Converter::convert(SharedObjects objects, const std::string& toVersion,
                            std::mt19937_64& uidSource, BatchCut cut, EncodedObjects* texts) {
  Exchange ex;
  ex.sent.version = reviewVersion_;
  ex.sent.uid = newRequestUid(uidSource);
  ex.sent.desiredApiVersion = crd_.apiVersion(toVersion);
  ex.sent.objects = std::move(objects);
  ex.sent.kind = crd_.kind;
  ex.sent.listKind = crd_.listKind;
  {
    std::string body = encodeReview(ex.sent, texts);
    RequestGate::Pass pass(gate_);
    if (cut == BatchCut::ToCap && cap_ != nullptr && !ex.sent.objects.empty()) {
      // A cap lowered while this call waited for its slot: its first objects go, encoded again.
      const std::size_t most = cap_->cap(objectVersion(ex.sent.objects.front()), toVersion);
      if (most < ex.sent.objects.size()) {
        std::vector<std::size_t> first(most);
        std::iota(first.begin(), first.end(), std::size_t{0});
        ex.sent.objects = ex.sent.objects.pick(first);
        body = encodeReview(ex.sent, texts);
      }
    }
    ex.requestBytes = body.size();
    ex.http = target_->post(body);
    if (cap_ != nullptr) cap_->observe(ex);
  }
  const CrdVersion* target = crd_.version(toVersion);
  ex.verdict = judgeConversion(ex.sent, ex.http, target ? target->schema : nlohmann::json());
  return ex;
}

}  // namespace convcheck

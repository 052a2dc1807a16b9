// libFuzzer target: a webhook's answer (status, Content-Type and body from the input) judged by
// the API-server model (judgeConversion), the lenient response view and the exchange properties.
// Input: one control byte (status, Content-Type, review version, batch size), then the body.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/transport/json_shape.h"
#include "harness/transport/transport_options.h"
#include "kube/apiserver/apiserver_model.h"
#include "kube/apiserver/http_types.h"
#include "properties/checks/exchange_checks.h"
#include "properties/checks/response_view.h"

namespace {

using nlohmann::json;

const json& targetSchema() {
  static const json schema = json::parse(R"({
    "type": "object",
    "properties": {
      "apiVersion": {"type": "string"}, "kind": {"type": "string"},
      "metadata": {"type": "object"},
      "spec": {"type": "object", "properties": {
        "cronSpec": {"type": "string"}, "image": {"type": "string"},
        "replicas": {"type": "integer"}, "ratio": {"type": "number", "nullable": true},
        "tags": {"type": "array", "items": {"type": "string"}},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        "template": {"type": "object", "x-kubernetes-embedded-resource": true,
                     "x-kubernetes-preserve-unknown-fields": true}}},
      "status": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}})");
  return schema;
}

json sentObject(int i) {
  return {{"apiVersion", "stable.example.com/v1beta1"},
          {"kind", "CronTab"},
          {"metadata",
           {{"name", "obj-" + std::to_string(i)},
            {"namespace", "default"},
            {"uid", "0f1d2c3b-4a59-6877-8695-a4b3c2d1e0f" + std::to_string(i)},
            {"labels", {{"app", "fuzz"}}},
            {"annotations", {{"note", "x"}}},
            {"generation", 1},
            {"creationTimestamp", "2024-01-01T00:00:00Z"}}},
          {"spec", {{"cronSpec", "* * * * */5"}, {"image", "img"}, {"replicas", 3}}}};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace convcheck;
  if (size < 1) return 0;
  static const long kStatuses[] = {200, 200, 200, 201, 204, 206, 500, 422};
  static const char* const kContentTypes[] = {"", "application/json", "text/plain; charset=utf-8",
                                              "application/json; charset=utf-8;;"};
  const std::uint8_t control = data[0];

  Exchange ex;
  ex.sent.version = (control & 0x20) ? ReviewVersion::V1beta1 : ReviewVersion::V1;
  ex.sent.uid = "705ab4f5-6393-11e8-b7cc-42010a800002";
  ex.sent.desiredApiVersion = "stable.example.com/v1";
  ex.sent.kind = "CronTab";
  ex.sent.listKind = "CronTabList";
  std::vector<json> objects{sentObject(0)};
  if (control & 0x40) objects.push_back(sentObject(1));
  ex.sent.objects = SharedObjects::own(std::move(objects));
  ex.http.url = "https://127.0.0.1:8443/convert?timeout=30s";
  ex.http.status = kStatuses[control & 7];
  ex.http.contentType = kContentTypes[(control >> 3) & 3];
  ex.http.body.assign(reinterpret_cast<const char*>(data + 1), size - 1);
  // What the transport refuses never reaches the model (see TransportOptions: the nesting cap).
  const TransportOptions transport;
  if (approximateJsonShape(ex.http.body, SIZE_MAX, transport.maxResponseDepth).depth >
      transport.maxResponseDepth)
    return 0;
  if (control & 0x80) {  // the transport failed instead
    ex.http.status = 0;
    ex.http.transportErrorKind = TransportErrorKind::Protocol;
    ex.http.transportError = ex.http.body;
    ex.http.body.clear();
  }

  ex.verdict = judgeConversion(ex.sent, ex.http, targetSchema());
  if (ex.verdict.accepted() && ex.verdict.visible.size() != ex.sent.objects.size())
    __builtin_trap();
  ResponseView view = viewResponse(ex.http, ex.sent.objects.size());
  if (view.convertedHeads.size() > ex.sent.objects.size()) __builtin_trap();
  checkExchange(share(std::move(ex)), CaseContext{"v1beta1", "v1"});
  return 0;
}

#include "tests/kube/apiserver/model_test_support.h"

namespace convcheck::modeltest {

using nlohmann::json;

json fooObject(const std::string& name, const std::string& apiVersion) {
  return {{"apiVersion", apiVersion},
          {"kind", "Foo"},
          {"metadata",
           {{"name", name},
            {"namespace", "default"},
            {"uid", "uid-" + name},
            {"generation", 1},
            {"creationTimestamp", "2024-05-01T10:00:00Z"},
            {"labels", {{"app", "demo"}}},
            {"annotations", {{"example.com/note", "kept"}}},
            {"finalizers", {"example.com/cleanup"}}}},
          {"spec", {{"hostPort", "localhost:8080"}}}};
}

SentReview sentReview(ReviewVersion version, std::vector<json> objects) {
  SentReview sent;
  sent.version = version;
  sent.uid = kRequestUid;
  sent.desiredApiVersion = "stable.example.com/v2";
  sent.objects = SharedObjects::own(std::move(objects));
  sent.kind = "Foo";
  sent.listKind = "FooList";
  return sent;
}

json converted(const json& original) {
  json out = original;
  out["apiVersion"] = "stable.example.com/v2";
  return out;
}

json responseEnvelope(const SentReview& sent, const std::vector<json>& objects,
                      const std::string& status) {
  return {{"apiVersion", reviewApiVersion(sent.version)},
          {"kind", "ConversionReview"},
          {"response",
           {{"uid", sent.uid}, {"convertedObjects", objects}, {"result", {{"status", status}}}}}};
}

HttpResult answer(const std::string& body, long status, const std::string& contentType) {
  HttpResult http;
  http.url = kUrl;
  http.status = status;
  http.contentType = contentType;
  http.body = body;
  return http;
}

}  // namespace convcheck::modeltest

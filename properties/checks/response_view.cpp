#include "properties/checks/response_view.h"

namespace convcheck {

ResponseView viewResponse(const HttpResult& http) {
  ResponseView view;
  if (!http.ok() || http.status < 200 || http.status > 206) return view;
  nlohmann::json body = nlohmann::json::parse(http.body, nullptr, /*allow_exceptions=*/false);
  if (!body.is_object()) return view;
  view.decoded = true;
  auto response = body.find("response");
  if (response == body.end() || !response->is_object()) return view;
  view.hasResponse = true;
  if (auto uid = response->find("uid"); uid != response->end() && uid->is_string())
    view.uid = uid->get<std::string>();
  if (auto result = response->find("result"); result != response->end() && result->is_object()) {
    if (auto status = result->find("status"); status != result->end() && status->is_string())
      view.resultStatus = status->get<std::string>();
  }
  if (auto objects = response->find("convertedObjects");
      objects != response->end() && objects->is_array()) {
    view.convertedObjects.assign(objects->begin(), objects->end());
  }
  return view;
}

namespace {
std::string stringAt(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return "";
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return "";
  auto value = meta->find(key);
  return value != meta->end() && value->is_string() ? value->get<std::string>() : "";
}
}  // namespace

ObjectIdentity identityOf(const nlohmann::json& object) {
  return {stringAt(object, "namespace"), stringAt(object, "name"), stringAt(object, "uid")};
}

std::string describe(const ObjectIdentity& id) {
  std::string s = id.ns.empty() ? id.name : id.ns + "/" + id.name;
  return s + " (uid " + id.uid + ")";
}

}  // namespace convcheck

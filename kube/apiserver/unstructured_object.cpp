#include "kube/apiserver/unstructured_object.h"

#include "kube/go/go_json_decode.h"

namespace convcheck {

using nlohmann::json;

std::string unstructuredString(const json& object, std::string_view field) {
  if (!object.is_object()) return "";
  auto it = object.find(field);
  if (it == object.end() || !it->is_string()) return "";
  return it->get<std::string>();
}

std::string unstructuredMetaString(const json& object, std::string_view field) {
  if (!object.is_object()) return "";
  auto meta = object.find("metadata");
  if (meta == object.end()) return "";
  return unstructuredString(*meta, field);
}

GroupVersionKind unstructuredGvk(const json& object) {
  auto gv = parseGroupVersion(unstructuredString(object, "apiVersion"));
  if (!gv) return {};
  return {gv->group, gv->version, unstructuredString(object, "kind")};
}

UnstructuredParse parseUnstructured(const std::optional<std::string>& raw, RawSyntax syntax) {
  UnstructuredParse result;
  const std::string_view text = raw ? std::string_view(*raw) : std::string_view();
  if (syntax == RawSyntax::Unchecked || !raw) {
    if (auto error = goJsonSyntaxError(text)) {
      result.error = *error;
      return result;
    }
  }
  // json.Unmarshal(data, &map[string]interface{}{}).
  auto decoded = goDecodeInterface(text);
  json& v = decoded.value;
  if (!v.is_object() && !v.is_null()) {
    const char* what = v.is_array()     ? "array"
                       : v.is_string()  ? "string"
                       : v.is_boolean() ? "bool"
                                        : "number";
    result.error = std::string("json: cannot unmarshal ") + what +
                   " into Go value of type map[string]interface {}";
    return result;
  }
  if (!decoded.error.empty()) {
    result.error = decoded.error;
    return result;
  }
  if (unstructuredGvk(v).kind.empty()) {
    result.error = "Object 'Kind' is missing in '" + std::string(text) + "'";
    return result;
  }
  result.object = std::move(v);
  return result;
}

}  // namespace convcheck

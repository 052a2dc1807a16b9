#include "kube/apiserver/review_decode.h"

#include "kube/apiserver/group_version.h"
#include "kube/apiserver/yaml_body.h"
#include "kube/go/go_format.h"
#include "kube/go/go_json_decode.h"
#include "kube/go/go_struct_decode.h"
#include "kube/go/utf8.h"

namespace convcheck {
namespace {

using nlohmann::json;
using Kind = GoType::Kind;

constexpr std::string_view kGroup = "apiextensions.k8s.io";
// runtime.NewScheme() names its scheme after the call site (naming.GetNameFromCallsite): the
// webhook ClientManager's NewClientManager in k8s.io/apiserver. The line number differs between
// releases; this is the one of recent releases (approximation).
constexpr std::string_view kSchemeName = "k8s.io/apiserver/pkg/util/webhook/client.go:69";

// The Go types a ConversionReview and a metav1.Status decode into, for one apiextensions package
// ("v1" or "v1beta1"). Members reference each other, so the table is neither copied nor moved.
struct ReviewTypes {
  explicit ReviewTypes(const std::string& pkg) {
    str = goScalar(Kind::String, "string");
    uid = goScalar(Kind::String, "types.UID");
    statusReason = goScalar(Kind::String, "v1.StatusReason");
    causeType = goScalar(Kind::String, "v1.CauseType");
    int32 = goScalar(Kind::Int32, "int32");
    int64 = goScalar(Kind::Int64, "int64");
    int64Ptr = goIndirect(Kind::Pointer, "*int64", &int64);
    raw = goScalar(Kind::RawExtension, "runtime.RawExtension");
    rawSlice = goIndirect(Kind::Slice, "[]runtime.RawExtension", &raw);
    listMeta = goStruct("v1.ListMeta", "ListMeta",
                        {{"selfLink", &str},
                         {"resourceVersion", &str},
                         {"continue", &str},
                         {"remainingItemCount", &int64Ptr}});
    cause = goStruct("v1.StatusCause", "StatusCause",
                     {{"reason", &causeType}, {"message", &str}, {"field", &str}});
    causeSlice = goIndirect(Kind::Slice, "[]v1.StatusCause", &cause);
    details = goStruct("v1.StatusDetails", "StatusDetails",
                       {{"name", &str},
                        {"group", &str},
                        {"kind", &str},
                        {"uid", &uid},
                        {"causes", &causeSlice},
                        {"retryAfterSeconds", &int32}});
    detailsPtr = goIndirect(Kind::Pointer, "*v1.StatusDetails", &details);
    status = goStruct("v1.Status", "Status",
                      {{"kind", &str},
                       {"apiVersion", &str},
                       {"metadata", &listMeta},
                       {"status", &str},
                       {"message", &str},
                       {"reason", &statusReason},
                       {"details", &detailsPtr},
                       {"code", &int32}});
    request = goStruct(pkg + ".ConversionRequest", "ConversionRequest",
                       {{"uid", &uid}, {"desiredAPIVersion", &str}, {"objects", &rawSlice}});
    requestPtr = goIndirect(Kind::Pointer, "*" + request.name, &request);
    response = goStruct(pkg + ".ConversionResponse", "ConversionResponse",
                        {{"uid", &uid}, {"convertedObjects", &rawSlice}, {"result", &status}});
    responsePtr = goIndirect(Kind::Pointer, "*" + response.name, &response);
    review = goStruct(pkg + ".ConversionReview", "ConversionReview",
                      {{"kind", &str},
                       {"apiVersion", &str},
                       {"request", &requestPtr},
                       {"response", &responsePtr}});
  }
  ReviewTypes(const ReviewTypes&) = delete;
  ReviewTypes& operator=(const ReviewTypes&) = delete;

  GoType str, uid, statusReason, causeType, int32, int64, int64Ptr, raw, rawSlice, listMeta, cause,
      causeSlice, details, detailsPtr, status, request, requestPtr, response, responsePtr, review;
};

// The tables of the two packages. They describe Go types and never change: built once, on first
// use, not for every answer.
const ReviewTypes& reviewTypes(std::string_view pkg) {
  static const ReviewTypes v1("v1"), v1beta1("v1beta1");
  return pkg == "v1beta1" ? v1beta1 : v1;
}

// The JSON text the decoder works on: the body itself (not copied: answers can be large), or its
// YAML converted to JSON, held in `converted`.
bool toJsonText(std::string_view body, std::string_view& text, std::string& converted,
                std::string& error) {
  if (looksLikeJson(body)) {
    text = body;
    return true;
  }
  YamlAsJson yaml = yamlToJson(body);
  if (!yaml.error.empty()) {
    error = yaml.error;
    return false;
  }
  converted = std::move(yaml.json);
  text = converted;
  return true;
}

// encoding/json's case-insensitive key match (Go >= 1.21 foldName: ASCII upper-casing plus the
// two non-ASCII runes whose upper case is ASCII, U+017F 'ſ' → 'S' and U+0131 'ı' → 'I').
std::string foldName(std::string_view s) {
  std::string out;
  while (!s.empty()) {
    auto [r, width] = decodeRune(s);
    if (width == 0) break;
    if (r < 0x80) {
      out += static_cast<char>(r >= 'a' && r <= 'z' ? r - 'a' + 'A' : r);
    } else if (r == 0x17F) {
      out += 'S';
    } else if (r == 0x131) {
      out += 'I';
    } else {
      out.append(s.substr(0, width));
    }
    s.remove_prefix(width);
  }
  return out;
}

// json.SimpleMetaFactory.Interpret: apiVersion and kind read with the standard (case-insensitive)
// encoding/json, then apiVersion parsed as a GroupVersion.
struct Interpreted {
  GroupVersionKind gvk;
  std::string error;
  bool syntaxValid = false;  // the text passed Go's syntax check
};

Interpreted interpret(std::string_view text) {
  Interpreted out;
  const std::string prefix = "couldn't get version/kind; json parse error: ";
  if (auto syntax = goJsonSyntaxError(text)) {
    out.error = prefix + *syntax;
    return out;
  }
  out.syntaxValid = true;
  GoJsonCursor cursor(text);
  const GoJsonKind top = cursor.peek();
  std::string apiVersion, kind, typeError;
  auto noteTypeError = [&](GoJsonKind got, const std::string& field) {
    if (!typeError.empty()) return;
    const char* what = got == GoJsonKind::Object   ? "object"
                       : got == GoJsonKind::Array  ? "array"
                       : got == GoJsonKind::Number ? "number"
                       : got == GoJsonKind::String ? "string"
                                                   : "bool";
    if (field.empty())
      typeError = std::string("json: cannot unmarshal ") + what +
                  " into Go value of type struct { APIVersion string "
                  "\"json:\\\"apiVersion,omitempty\\\"\"; Kind string "
                  "\"json:\\\"kind,omitempty\\\"\" }";
    else
      typeError = std::string("json: cannot unmarshal ") + what + " into Go struct field ." +
                  field + " of type string";
  };
  if (top == GoJsonKind::Object) {
    cursor.enterObject();
    std::string key;
    while (cursor.nextKey(key)) {
      const std::string folded = foldName(key);
      std::string* slot = folded == "APIVERSION" ? &apiVersion : folded == "KIND" ? &kind : nullptr;
      const GoJsonKind next = cursor.peek();
      if (!slot) {
        cursor.skipValue();
      } else if (next == GoJsonKind::String) {
        *slot = cursor.readString();
      } else {
        cursor.skipValue();
        if (next != GoJsonKind::Null)
          noteTypeError(next, slot == &apiVersion ? "apiVersion" : "kind");
      }
    }
  } else if (top != GoJsonKind::Null) {
    noteTypeError(top, "");
  }
  if (!typeError.empty()) {
    out.error = prefix + typeError;
    return out;
  }
  std::string gvError;
  auto gv = parseGroupVersion(apiVersion, &gvError);
  if (!gv) {
    out.error = gvError;
    return out;
  }
  out.gvk = {gv->group, gv->version, kind};
  return out;
}

GroupVersionKind withDefaults(GroupVersionKind actual, const GroupVersionKind& defaults) {
  if (actual.kind.empty()) actual.kind = defaults.kind;
  if (actual.version.empty() && actual.group.empty()) {
    actual.group = defaults.group;
    actual.version = defaults.version;
  }
  if (actual.version.empty() && actual.group == defaults.group) actual.version = defaults.version;
  return actual;
}

// What runtime.Scheme.New creates for a GVK in the webhook client's scheme (apiextensions v1 and
// v1beta1 registered, each with metav1.AddToGroupVersion's options, WatchEvent and unversioned
// kinds).
struct SchemeObject {
  enum class Which { ReviewV1, ReviewV1beta1, Status, Other, NotRegistered } which;
  std::string goType;      // reflect type name, e.g. "v1beta1.ConversionReview"
  std::string error = "";  // for NotRegistered
};

SchemeObject schemeNew(const GroupVersionKind& gvk) {
  using W = SchemeObject::Which;
  static constexpr const char* kUnversioned[] = {"Status", "APIVersions", "APIGroupList",
                                                 "APIGroup", "APIResourceList"};
  static constexpr const char* kOptions[] = {"ListOptions",   "GetOptions",    "DeleteOptions",
                                             "CreateOptions", "UpdateOptions", "PatchOptions",
                                             "WatchEvent"};
  if (gvk.group == kGroup && (gvk.version == "v1" || gvk.version == "v1beta1")) {
    if (gvk.kind == "ConversionReview")
      return {gvk.version == "v1" ? W::ReviewV1 : W::ReviewV1beta1,
              gvk.version + ".ConversionReview"};
    if (gvk.kind == "CustomResourceDefinition" || gvk.kind == "CustomResourceDefinitionList")
      return {W::Other, gvk.version + "." + gvk.kind};
    for (const char* k : kOptions)
      if (gvk.kind == k) return {W::Other, std::string("v1.") + k};
  }
  if (gvk.group == kGroup && gvk.version == "__internal" && gvk.kind == "WatchEvent")
    return {W::Other, "v1.InternalEvent"};
  for (const char* k : kUnversioned)  // unversioned kinds are found under any group/version
    if (gvk.kind == k) return {gvk.kind == "Status" ? W::Status : W::Other, std::string("v1.") + k};
  const std::string scheme = goQuote(kSchemeName);
  std::string error;
  if (gvk.kind.empty())
    error = "no version " + goQuote(gvk.groupVersion().str()) + " has been registered in scheme " +
            scheme;
  else if (gvk.version == "__internal")
    error = "no kind " + goQuote(gvk.kind) + " is registered for the internal version of group " +
            goQuote(gvk.group) + " in scheme " + scheme;
  else
    error = "no kind " + goQuote(gvk.kind) + " is registered for version " +
            goQuote(gvk.groupVersion().str()) + " in scheme " + scheme;
  return {W::NotRegistered, "", error};
}

std::string stringField(const json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

// Takes `review` apart: the raw object texts are moved out, not copied.
DecodedReview toDecodedReview(json& review, const std::map<std::string, std::size_t>& lengths) {
  DecodedReview out;
  out.apiVersion = stringField(review, "apiVersion");
  out.kind = stringField(review, "kind");
  auto response = review.find("response");
  if (response == review.end() || !response->is_object()) return out;
  out.hasResponse = true;
  out.responseUid = stringField(*response, "uid");
  if (auto result = response->find("result"); result != response->end() && result->is_object()) {
    out.resultStatus = stringField(*result, "status");
    out.resultMessage = stringField(*result, "message");
  }
  if (auto objects = response->find("convertedObjects");
      objects != response->end() && objects->is_array()) {
    out.convertedObjects.reserve(objects->size());
    for (auto& raw : *objects)
      out.convertedObjects.push_back(
          raw.is_string() ? std::optional(std::move(raw.get_ref<std::string&>())) : std::nullopt);
    auto length = lengths.find("response.convertedObjects");
    out.convertedObjectCount =
        length != lengths.end() ? length->second : out.convertedObjects.size();
  }
  return out;
}

}  // namespace

ReviewDecode decodeReviewBody(ReviewVersion sent, std::string_view body, std::size_t keepObjects) {
  ReviewDecode out;
  std::string_view text;
  std::string converted;
  if (!toJsonText(body, text, converted, out.error)) return out;
  Interpreted interpreted = interpret(text);
  out.validJsonBody = interpreted.syntaxValid && text.data() == body.data();
  if (!interpreted.error.empty()) {
    out.error = interpreted.error;
    return out;
  }
  const std::string sentVersion = reviewVersionName(sent);
  const GroupVersionKind into{std::string(kGroup), sentVersion, "ConversionReview"};
  const GroupVersionKind actual = withDefaults(interpreted.gvk, into);
  if (actual.version.empty()) {  // runtime.NewMissingVersionErr
    out.error = "Object 'apiVersion' is missing in '" + std::string(body) + "'";
    return out;
  }
  if (actual == into) {
    const ReviewTypes& types = reviewTypes(sentVersion);
    GoStructDecode decoded = decodeGoValue(text, types.review, keepObjects);
    if (!decoded.error.empty()) {
      out.error = decoded.error;
      return out;
    }
    out.review = toDecodedReview(decoded.value, decoded.rawSliceLengths);
    return out;
  }
  SchemeObject created = schemeNew(actual);
  using W = SchemeObject::Which;
  if (created.which == W::NotRegistered) {
    out.error = created.error;
    return out;
  }
  // The object is decoded into its own type first (type errors win), then the versioning codec
  // tries to convert it into the sent ConversionReview, for which no conversion is registered.
  if (created.which != W::Other) {
    const ReviewTypes& types = reviewTypes(created.which == W::ReviewV1beta1 ? "v1beta1" : "v1");
    GoStructDecode decoded =
        decodeGoValue(text, created.which == W::Status ? types.status : types.review, 0);
    if (!decoded.error.empty()) {
      out.error = decoded.error;
      return out;
    }
  }
  out.error = "converting (" + created.goType + ") to (" + sentVersion +
              ".ConversionReview): unknown conversion";
  return out;
}

std::optional<std::string> failureStatusMessage(std::string_view body) {
  std::string_view text;
  std::string converted, error;
  if (body.empty() || !toJsonText(body, text, converted, error)) return std::nullopt;
  Interpreted interpreted = interpret(text);
  if (!interpreted.error.empty()) return std::nullopt;
  const GroupVersionKind gvk = withDefaults(interpreted.gvk, {"", "v1", ""});
  if (gvk.kind.empty() || gvk.version.empty()) return std::nullopt;
  if (schemeNew(gvk).which != SchemeObject::Which::Status) return std::nullopt;
  const ReviewTypes& types = reviewTypes("v1");
  GoStructDecode decoded = decodeGoValue(text, types.status);
  if (!decoded.error.empty()) return std::nullopt;
  if (stringField(decoded.value, "status") != "Failure") return std::nullopt;
  return stringField(decoded.value, "message");
}

}  // namespace convcheck

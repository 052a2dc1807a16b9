#include "examples/webhook/review_handler.h"

#include <algorithm>
#include <cctype>
#include <string>

#include <nlohmann/json.hpp>

#include "examples/webhook/object_converter.h"

namespace convcheck::example {

namespace {

using nlohmann::json;

// leaks-annotations: `object` gets every annotation of `leaked` it does not have, then `leaked`
// gets the object's own.
void leakAnnotations(json& object, json& leaked) {
  auto metadata = object.find("metadata");
  if (metadata == object.end() || !metadata->is_object()) return;
  json& annotations = (*metadata)["annotations"];
  if (annotations.is_null()) annotations = json::object();
  if (!annotations.is_object()) return;
  const json own = annotations;
  for (auto it = leaked.begin(); it != leaked.end(); ++it)
    if (!annotations.contains(it.key())) annotations[it.key()] = it.value();
  for (auto it = own.begin(); it != own.end(); ++it) leaked[it.key()] = it.value();
  if (annotations.empty()) metadata->erase("annotations");
}

}  // namespace
namespace {

using nlohmann::json;

constexpr std::string_view kReviewV1 = "apiextensions.k8s.io/v1";
constexpr std::string_view kReviewV1beta1 = "apiextensions.k8s.io/v1beta1";
constexpr std::size_t kHttp500BatchLimit = 8;
constexpr std::chrono::milliseconds kFaultDelay{3000};

HttpReply plainText(int status, std::string message) {
  return HttpReply{status, "text/plain; charset=utf-8", std::move(message) + "\n", {}};
}

// "application/json; charset=utf-8" -> "application/json".
std::string mediaType(std::string_view contentType) {
  auto end = contentType.find(';');
  std::string type(contentType.substr(0, end));
  auto notSpace = [](unsigned char c) { return !std::isspace(c); };
  type.erase(type.begin(), std::find_if(type.begin(), type.end(), notSpace));
  type.erase(std::find_if(type.rbegin(), type.rend(), notSpace).base(), type.end());
  std::transform(type.begin(), type.end(), type.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return type;
}

// The string at object[key], or "" when absent or not a string.
std::string stringAt(const json& object, const char* key) {
  if (!object.is_object()) return {};
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The string at object.metadata[key], or "".
std::string metadataString(const json& object, const char* key) {
  if (!object.is_object()) return {};
  auto metadata = object.find("metadata");
  return metadata != object.end() ? stringAt(*metadata, key) : std::string();
}

// "object[2] (ns/name)": how a failure names the object it is about.
std::string describeObject(std::size_t index, const json& object) {
  std::string ns = metadataString(object, "namespace");
  std::string name = metadataString(object, "name");
  std::string text = "object[" + std::to_string(index) + "]";
  if (ns.empty() && name.empty()) return text;
  return text + " (" + (ns.empty() ? name : ns + "/" + name) + ")";
}

HttpReply reviewReply(const json& review) {
  return HttpReply{
      200, "application/json", review.dump(-1, ' ', false, json::error_handler_t::replace), {}};
}

json envelope(std::string_view reviewVersion, json response) {
  return json{{"apiVersion", reviewVersion},
              {"kind", "ConversionReview"},
              {"response", std::move(response)}};
}

json failureResponse(const std::string& uid, std::string message) {
  return json{{"uid", uid}, {"result", {{"status", "Failure"}, {"message", std::move(message)}}}};
}

}  // namespace

HttpReply handleConversionReview(std::string_view contentType, std::string_view body,
                                 const FaultSet& faults, KindMode kinds) {
  if (mediaType(contentType) != "application/json")
    return plainText(415, "unsupported Content-Type \"" + std::string(contentType) +
                              "\", expected application/json");

  json review;
  try {
    review = json::parse(body);
  } catch (const json::parse_error& e) {
    return plainText(400, std::string("request body is not JSON: ") + e.what());
  }
  if (!review.is_object()) return plainText(400, "request body is not a JSON object");
  const std::string reviewVersion = stringAt(review, "apiVersion");
  if (reviewVersion != kReviewV1 && reviewVersion != kReviewV1beta1)
    return plainText(400, "unsupported ConversionReview apiVersion \"" + reviewVersion +
                              "\", expected apiextensions.k8s.io/v1 or /v1beta1");
  if (stringAt(review, "kind") != "ConversionReview")
    return plainText(
        400, "unsupported kind \"" + stringAt(review, "kind") + "\", expected ConversionReview");
  auto request = review.find("request");
  if (request == review.end() || !request->is_object())
    return plainText(400, "ConversionReview has no request");

  const std::string uid = stringAt(*request, "uid");
  const std::string desired = stringAt(*request, "desiredAPIVersion");
  auto fail = [&](std::string message) {
    return reviewReply(envelope(reviewVersion, failureResponse(uid, std::move(message))));
  };
  if (desired.empty()) return fail("request.desiredAPIVersion: missing or not a string");
  auto objectsField = request->find("objects");
  if (objectsField == request->end() || !objectsField->is_array())
    return fail("request.objects: missing or not an array");
  const json& objects = *objectsField;

  if (faults.has(Fault::Http500Over8) && objects.size() > kHttp500BatchLimit)
    return plainText(500, "injected fault http500-over-8: batch of " +
                              std::to_string(objects.size()) + " objects");
  const auto delay = faults.has(Fault::Delay3s) ? kFaultDelay : std::chrono::milliseconds{0};
  auto delayed = [&](HttpReply reply) {
    reply.delay = delay;
    return reply;
  };

  if (faults.has(Fault::FailureResult)) {
    for (std::size_t i = 0; i < objects.size(); ++i) {
      auto name = metadataString(objects[i], "name");
      if (!name.empty() && std::isdigit(static_cast<unsigned char>(name.back())))
        return delayed(fail("injected fault failure-result: " + describeObject(i, objects[i]) +
                            ": name ends in a digit"));
    }
  }

  json converted = json::array();
  json leaked = json::object();  // leaks-annotations: the annotations of the objects so far
  for (std::size_t i = 0; i < objects.size(); ++i) {
    auto outcome = convertObject(objects[i], desired, faults, i, kinds);
    if (!outcome.ok())
      return delayed(fail("cannot convert " + describeObject(i, objects[i]) + " to " + desired +
                          ": " + outcome.error));
    if (faults.has(Fault::LeaksAnnotations)) leakAnnotations(outcome.object, leaked);
    converted.push_back(std::move(outcome.object));
  }

  if (faults.has(Fault::ReverseObjects)) std::reverse(converted.begin(), converted.end());
  if (faults.has(Fault::DropLastObject) && !converted.empty())
    converted.erase(converted.size() - 1);
  std::string echoedUid = uid;
  if (faults.has(Fault::UidNotEchoed)) echoedUid = uid.empty() ? "uid-not-echoed" : "";

  json response{{"uid", echoedUid},
                {"convertedObjects", std::move(converted)},
                {"result", {{"status", "Success"}}}};
  return delayed(reviewReply(envelope(reviewVersion, std::move(response))));
}

}  // namespace convcheck::example

// Reads in the order of apiextensions-apiserver pkg/apiserver/conversion/webhook_converter.go
// (Convert, getConvertedObjectsFromResponse, validateConvertedObject, restoreObjectMeta), followed
// by customresource_handler.go unstructuredSchemaCoercer.apply for what a client then sees.
#include "kube/apiserver/apiserver_model.h"

#include <optional>
#include <string>

#include "kube/apiserver/group_version.h"
#include "kube/apiserver/number_normalise.h"
#include "kube/apiserver/object_meta_coerce.h"
#include "kube/apiserver/object_meta_restore.h"
#include "kube/apiserver/pruning.h"
#include "kube/apiserver/response_receive.h"
#include "kube/apiserver/unstructured_object.h"
#include "kube/go/go_format.h"
#include "kube/go/go_json_decode.h"

namespace convcheck {
namespace {

using nlohmann::json;

// in.GetObjectKind().GroupVersionKind(): the object itself on the single-object path; on the list
// path the UnstructuredList, whose apiVersion is the first item's and whose kind is the listKind.
GroupVersionKind inputGvk(const SentReview& sent) {
  const json& first = sent.objects.front();
  if (sent.objects.size() == 1) return unstructuredGvk(first);
  auto gv = parseGroupVersion(unstructuredString(first, "apiVersion"));
  if (!gv) return {};
  return {gv->group, gv->version, sent.listKind.empty() ? sent.kind + "List" : sent.listKind};
}

// validateConvertedObject: kind, name, namespace, uid via Get*() ("" when missing/non-string).
std::string validateConvertedObject(const json& in, const json& out) {
  auto differ = [](const char* what, const std::string& e, const std::string& a) {
    return std::string("must have the same ") + what + ": " + e + " != " + a;
  };
  if (auto e = unstructuredString(in, "kind"), a = unstructuredString(out, "kind"); e != a)
    return differ("kind", e, a);
  if (auto e = unstructuredMetaString(in, "name"), a = unstructuredMetaString(out, "name"); e != a)
    return differ("name", e, a);
  if (auto e = unstructuredMetaString(in, "namespace"),
      a = unstructuredMetaString(out, "namespace");
      e != a)
    return differ("namespace", e, a);
  if (auto e = unstructuredMetaString(in, "uid"), a = unstructuredMetaString(out, "uid"); e != a)
    return differ("UID", e, a);
  return "";
}

// The original object's metadata as restoreObjectMeta reads it ({} when it has none; it is an
// object once restoreObjectMeta accepted it).
const json& originalMetadata(const json& original) {
  static const json kNone = json::object();
  auto it = original.find("metadata");
  return it != original.end() ? *it : kNone;
}

class Judge {
 public:
  Judge(const SentReview& sent, const HttpResult& http, const json& targetSchema)
      : sent_(sent), http_(http), schema_(targetSchema) {}

  // The verdict is moved out, not copied (it holds the visible objects).
  ModelVerdict run() { return std::move(judge()); }

 private:
  ModelVerdict& judge() {
    if (sent_.objects.empty()) return v_;
    isList_ = sent_.objects.size() > 1;
    // When the schema's walk never reads the root metadata, the restored metadata is not built:
    // its round trip reads the original's in place, with the answer's labels and annotations.
    metaInPlace_ = !coerceReadsRootMetadata(schema_);
    g_ = inputGvk(sent_).str();
    toGV_ = parseGroupVersion(sent_.desiredApiVersion).value_or(GroupVersion{});

    // r := c.restClient.Post().Body(request).Do(ctx); r.Into(response)
    // Only the count of objects beyond the number sent matters (a hostile answer may have
    // millions): the decoder keeps the first ones and counts the rest.
    ReceivedReview received = receiveReview(sent_.version, http_, sent_.objects.size());
    v_.validJsonBody = received.validJsonBody;
    if (!received.review)
      return reject(received.stage, "conversion webhook for " + g_ + " failed: " + received.error);
    DecodedReview& review = *received.review;

    if (!envelope(review)) return v_;

    if (review.convertedObjectCount != sent_.objects.size())
      return reject(ModelStage::Count, "conversion webhook for " + g_ + " returned " +
                                           std::to_string(review.convertedObjectCount) +
                                           " objects, expected " +
                                           std::to_string(sent_.objects.size()));

    std::vector<json> restored;
    std::vector<SilentChange> reverted;
    for (std::size_t i = 0; i < sent_.objects.size(); ++i) {
      // Each object's text is freed once it is parsed: a large answer is not held twice over.
      auto object = convertObject(i, std::move(review.convertedObjects[i]), reverted);
      if (!object) return v_;
      restored.push_back(std::move(*object));
    }

    std::vector<json> visible;
    std::vector<SilentChange> silent = std::move(reverted);
    for (std::size_t i = 0; i < restored.size(); ++i) {
      auto object = coerce(i, std::move(restored[i]), silent);
      if (!object) return v_;
      visible.push_back(std::move(*object));
    }
    v_.visible = std::move(visible);
    v_.silent = std::move(silent);
    return v_;
  }

  ModelVerdict& reject(ModelStage stage, std::string message,
                       std::optional<std::size_t> index = std::nullopt) {
    v_.stage = stage;
    v_.message = std::move(message);
    v_.index = index;
    return v_;
  }

  // getConvertedObjectsFromResponse.
  bool envelope(const DecodedReview& review) {
    const std::string failed = "conversion webhook for " + g_ + " failed: ";
    const bool v1 = sent_.version == ReviewVersion::V1;
    // v1beta1 processing did not verify GVK or UID, so skip those for compatibility.
    if (v1) {
      const GroupVersionKind want{"apiextensions.k8s.io", "v1", "ConversionReview"};
      const GroupVersionKind got = fromApiVersionAndKind(review.apiVersion, review.kind);
      if (got != want) {
        reject(ModelStage::EnvelopeGvk,
               failed + "expected webhook response of " + want.str() + ", got " + got.str());
        return false;
      }
    }
    if (!review.hasResponse) {
      reject(ModelStage::NoResponse, failed + "no response provided");
      return false;
    }
    if (v1 && review.responseUid != sent_.uid) {
      reject(ModelStage::Uid, failed + "expected response.uid=" + goQuote(sent_.uid) + ", got " +
                                  goQuote(review.responseUid));
      return false;
    }
    if (review.resultStatus != "Success") {
      reject(ModelStage::ResultStatus,
             failed +
                 (!review.resultMessage.empty()
                      ? review.resultMessage
                      : "response.result.status was '" + review.resultStatus + "', not 'Success'"));
      return false;
    }
    return true;
  }

  // One converted object: the list path (L301-345) or the single-object path (L348-387).
  std::optional<json> convertObject(std::size_t i, std::optional<std::string> raw,
                                    std::vector<SilentChange>& reverted) {
    const json& original = sent_.objects[i];
    const std::string prefix = "conversion webhook for " + g_ + " returned ";
    // Each raw text is an element of the body decodeReviewBody scanned: valid JSON.
    UnstructuredParse parsed = parseUnstructured(raw, RawSyntax::Checked);
    if (!parsed.error.empty()) {
      if (isList_)
        reject(
            ModelStage::ObjectParse,
            prefix + "invalid converted object at index " + std::to_string(i) + ": " + parsed.error,
            i);
      else
        reject(ModelStage::ObjectParse, parsed.error, i);  // returned bare
      return std::nullopt;
    }
    // The list path increments convertedIndex right after parsing, so later messages print i+1.
    const std::string invalidAt =
        isList_ ? prefix + "invalid converted object at index " + std::to_string(i + 1) + ": "
                : prefix + "invalid object at index 0: ";
    const GroupVersionKind got = unstructuredGvk(parsed.object);
    if (got.groupVersion() != toGV_) {
      reject(ModelStage::ApiVersion,
             invalidAt + "invalid groupVersion (expected " + toGV_.str() + ", received " +
                 got.groupVersion().str() + ")",
             i);
      return std::nullopt;
    }
    if (const std::string expected = unstructuredGvk(original).kind; expected != got.kind) {
      reject(ModelStage::Kind,
             invalidAt + "invalid kind (expected " + expected + ", received " + got.kind + ")", i);
      return std::nullopt;
    }
    if (auto err = validateConvertedObject(original, parsed.object); !err.empty()) {
      reject(ModelStage::Identity, (isList_ ? invalidAt : prefix + "invalid object: ") + err, i);
      return std::nullopt;
    }
    json converted = std::move(parsed.object);
    auto changes = revertedMetadata(original, converted, i);
    if (auto err = metaInPlace_ ? restoreLabelsAndAnnotations(original, converted)
                                : restoreObjectMeta(original, converted);
        !err.empty()) {
      reject(
          ModelStage::Metadata,
          (isList_ ? prefix + "invalid metadata in object at index " + std::to_string(i + 1) + ": "
                   : prefix + "invalid metadata: ") +
              err,
          i);
      return std::nullopt;
    }
    reverted.insert(reverted.end(), changes.begin(), changes.end());
    return converted;
  }

  // unstructuredSchemaCoercer.apply on the converted object, then what a client decodes.
  std::optional<json> coerce(std::size_t i, json object, std::vector<SilentChange>& silent) {
    json rootMeta;
    const bool hasMeta = object.contains("metadata");
    if (hasMeta) {
      ObjectMetaRoundTrip meta =
          metaInPlace_ ? objectMetaRoundTrip(originalMetadata(sent_.objects[i]), object["metadata"])
                       : objectMetaRoundTrip(object["metadata"]);
      if (!meta.error.empty()) {
        reject(ModelStage::Coerce, meta.error, i);
        return std::nullopt;
      }
      rootMeta = std::move(meta.metadata);
    }
    if (!schema_.is_null()) {
      for (auto& p : pruneUnknownFields(object, schema_, true))
        silent.push_back({i, p.path, "pruned", std::move(p.value)});
      for (auto& p : pruneNonNullableNulls(object, schema_))
        silent.push_back({i, p.path, "null-pruned", std::move(p.value)});
    }
    if (auto err = coerceEmbeddedResources(object, schema_); !err.empty()) {
      reject(ModelStage::Coerce, err, i);
      return std::nullopt;
    }
    if (hasMeta) object["metadata"] = std::move(rootMeta);
    return normaliseNumbers(std::move(object));
  }

  const SentReview& sent_;
  const HttpResult& http_;
  const json& schema_;
  ModelVerdict v_;
  bool isList_ = false;
  bool metaInPlace_ = false;
  std::string g_;
  GroupVersion toGV_;
};

}  // namespace

ModelVerdict judgeConversion(const SentReview& sent, const HttpResult& http,
                             const json& targetSchema) {
  return Judge(sent, http, targetSchema).run();
}

}  // namespace convcheck

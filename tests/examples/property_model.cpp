#include "tests/examples/property_model.h"

#include <algorithm>
#include <regex>

#include "examples/webhook/review_handler.h"

namespace convcheck::example::testing_support {
namespace {

using nlohmann::json;

constexpr const char* kReviewApiVersion = "apiextensions.k8s.io/v1";

std::string versionOf(const json& object) {
  const std::string apiVersion = object.value("apiVersion", "");
  return apiVersion.substr(apiVersion.find('/') + 1);
}

const json* findByUid(const std::vector<json>& objects, const json& uid) {
  for (const auto& o : objects)
    if (o["metadata"]["uid"] == uid) return &o;
  return nullptr;
}

// ObjectMeta drops empty labels/annotations maps (omitempty) when the API server stores it.
void dropEmptyMaps(json& object) {
  if (!object.contains("metadata") || !object["metadata"].is_object()) return;
  json& metadata = object["metadata"];
  for (const char* key : {"labels", "annotations"})
    if (metadata.contains(key) && (metadata[key].is_null() || metadata[key].empty()))
      metadata.erase(key);
}

// kube-apiserver's metadata restore: everything from the original except labels/annotations,
// which come from the converted object (absent or null deletes them).
json restoreMetadata(const json& original, json converted) {
  json metadata = original.value("metadata", json::object());
  for (const char* key : {"labels", "annotations"}) {
    metadata.erase(key);
    const json& got = converted["metadata"];
    if (got.is_object() && got.contains(key) && !got[key].is_null()) metadata[key] = got[key];
  }
  converted["metadata"] = metadata;
  dropEmptyMaps(converted);
  return converted;
}

json metadataWithoutLabelsAndAnnotations(const json& object) {
  json metadata = object.value("metadata", json::object());
  if (!metadata.is_object()) return metadata;
  metadata.erase("labels");
  metadata.erase("annotations");
  return metadata;
}

bool isStringMap(const json& map) {
  if (map.is_null()) return true;
  if (!map.is_object()) return false;
  return std::all_of(map.begin(), map.end(), [](const json& v) { return v.is_string(); });
}

void pruneValue(json& value, const json& schema, bool root) {
  if (!schema.is_object()) return;
  if (value.is_array() && schema.contains("items")) {
    for (auto& item : value) pruneValue(item, schema["items"], false);
    return;
  }
  if (!value.is_object()) return;
  const bool preserve = schema.value("x-kubernetes-preserve-unknown-fields", false);
  const json properties = schema.value("properties", json::object());
  for (auto it = value.begin(); it != value.end();) {
    if (root && (it.key() == "apiVersion" || it.key() == "kind" || it.key() == "metadata")) {
      ++it;
    } else if (properties.contains(it.key())) {
      pruneValue(it.value(), properties[it.key()], false);
      ++it;
    } else if (preserve) {
      ++it;
    } else {
      it = value.erase(it);
    }
  }
}

}  // namespace

bool isValidLabelValue(const std::string& value) {
  static const std::regex kLabelValue("^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$");
  return value.size() <= 63 && std::regex_match(value, kLabelValue);
}

void pruneUnknownFields(json& object, const json& schema) { pruneValue(object, schema, true); }

// What one ConversionReview gave, as a client sees it.
struct PropertyModel::Exchange {
  bool accepted = false;      // kube-apiserver would accept the answer
  std::vector<json> visible;  // converted objects after metadata restore and pruning
};

// Plays one case: sends reviews, judges each answer, collects the failing properties.
class PropertyModel::Judge {
 public:
  Judge(const PropertyModel& model, const FaultSet& faults) : model_(model), faults_(faults) {}

  std::set<std::string> run(const ModelCase& c) {
    const Exchange forward = send(c.batch, c.to, /*forward=*/true);
    if (!forward.accepted) return failing_;
    roundTrip(c, forward);
    const Exchange again = send(c.batch, c.to, false);
    if (again.accepted && again.visible != forward.visible) failing_.insert("determinism");
    if (c.batch.size() == 1) {
      transitivity(c, forward);
      editRoundTrip(c, forward);
    } else {
      batchIndependence(c, forward);
    }
    return failing_;
  }

 private:
  // The stored form at `version` of a valid object: pruned, empty metadata maps dropped.
  json storedForm(json object, const std::string& version) const {
    pruneUnknownFields(object, model_.schemas_.at(version));
    dropEmptyMaps(object);
    return object;
  }

  Exchange send(const std::vector<json>& objects, const std::string& to, bool forward) {
    Exchange exchange;
    const std::string uid = "model-uid-" + std::to_string(++calls_);
    const std::string desired = model_.apiVersion(to);
    const json review = {
        {"apiVersion", kReviewApiVersion},
        {"kind", "ConversionReview"},
        {"request", {{"uid", uid}, {"desiredAPIVersion", desired}, {"objects", objects}}}};
    const HttpReply reply = handleConversionReview("application/json", review.dump(), faults_);
    if (reply.delay.count() > 0) failing_.insert("timeout");
    if (reply.status < 200 || reply.status > 206) {
      failing_.insert("response-envelope");
      return exchange;
    }
    const json out = json::parse(reply.body, nullptr, /*allow_exceptions=*/false);
    if (!out.is_object() || out.value("apiVersion", "") != kReviewApiVersion ||
        out.value("kind", "") != "ConversionReview" || !out.contains("response") ||
        !out["response"].is_object()) {
      failing_.insert("response-envelope");
      return exchange;
    }
    const json& response = out["response"];
    const json status = response.value("result", json::object()).value("status", json());
    if (status == "Failure") {
      // A well-formed refusal: of valid input it breaks converts-valid-input; the other
      // exchanges convert what the webhook itself produced, and are only not judged further.
      if (forward) failing_.insert("converts-valid-input");
      return exchange;
    }
    if (status != "Success") {
      failing_.insert("response-envelope");
      return exchange;
    }
    bool accepted = true;
    auto reject = [&](const char* property) {
      failing_.insert(property);
      accepted = false;
    };
    if (response.value("uid", "") != uid) reject("uid-echo");
    const json converted = response.value("convertedObjects", json::array());
    if (!converted.is_array() || converted.size() != objects.size()) {
      reject("object-count");
      return exchange;
    }
    for (std::size_t i = 0; i < converted.size(); ++i) {
      const json& got = converted[i];
      if (!got.is_object() || !got.contains("metadata") || !got["metadata"].is_object()) {
        reject("metadata-immutable");
        continue;
      }
      if (got.value("apiVersion", "") != desired) reject("target-version");
      const json* original = findByUid(objects, got["metadata"].value("uid", json()));
      if (!original) {
        reject("metadata-immutable");
        continue;
      }
      if (original != &objects[i]) reject("order");
      if (got.value("kind", "") != (*original)["kind"]) reject("kind-unchanged");
      for (const char* key : {"name", "namespace"})
        if (got["metadata"].value(key, json()) != (*original)["metadata"].value(key, json()))
          reject("metadata-immutable");
      if (metadataWithoutLabelsAndAnnotations(got) !=
          metadataWithoutLabelsAndAnnotations(*original))
        failing_.insert("metadata-immutable");  // silently reverted by kube-apiserver
      const json labels = got["metadata"].value("labels", json());
      const json annotations = got["metadata"].value("annotations", json());
      if (!isStringMap(labels) || !isStringMap(annotations)) {
        reject("labels-annotations-valid");
        continue;
      }
      if (labels.is_object())
        for (const auto& [key, value] : labels.items())
          if (!isValidLabelValue(value.get<std::string>())) reject("labels-annotations-valid");
    }
    if (!accepted) return exchange;

    for (std::size_t i = 0; i < converted.size(); ++i) {
      const json restored = restoreMetadata(objects[i], converted[i]);
      json visible = restored;
      pruneUnknownFields(visible, model_.schemas_.at(to));
      if (forward && visible != restored) failing_.insert("no-pruned-fields");
      if (forward && !model_.validators_.at(to)->errors(visible).empty())
        failing_.insert("schema-valid");
      exchange.visible.push_back(std::move(visible));
    }
    exchange.accepted = true;
    return exchange;
  }

  // A->B->A per source version, as the runner sends the way back: one review per source.
  void roundTrip(const ModelCase& c, const Exchange& forward) {
    std::vector<std::string> sources;
    for (const auto& o : c.batch)
      if (std::find(sources.begin(), sources.end(), versionOf(o)) == sources.end())
        sources.push_back(versionOf(o));
    for (const auto& source : sources) {
      std::vector<std::size_t> indices;
      std::vector<json> there;
      for (std::size_t i = 0; i < c.batch.size(); ++i)
        if (versionOf(c.batch[i]) == source) {
          indices.push_back(i);
          there.push_back(forward.visible[i]);
        }
      const Exchange back = send(there, source, false);
      if (!back.accepted) return;
      for (std::size_t k = 0; k < indices.size(); ++k)
        if (back.visible[k] != storedForm(c.batch[indices[k]], source))
          failing_.insert("round-trip");
    }
  }

  void transitivity(const ModelCase& c, const Exchange& forward) {
    const std::string from = versionOf(c.batch[0]);
    for (const auto& via : model_.versions_) {
      if (via == from || via == c.to) continue;
      const Exchange first = send(c.batch, via, false);
      if (!first.accepted) continue;
      const Exchange second = send(first.visible, c.to, false);
      if (second.accepted && second.visible != forward.visible) failing_.insert("transitivity");
    }
  }

  // B' = B's apiVersion, kind and metadata with the spec/status of c.edit; B'->A->B must be B'.
  void editRoundTrip(const ModelCase& c, const Exchange& forward) {
    if (c.edit.is_null()) return;
    json edited = json::object();
    for (const char* key : {"apiVersion", "kind", "metadata"})
      if (forward.visible[0].contains(key)) edited[key] = forward.visible[0][key];
    for (const auto& [key, value] : c.edit.items())
      if (key != "apiVersion" && key != "kind" && key != "metadata") edited[key] = value;
    const Exchange back = send({edited}, versionOf(c.batch[0]), false);
    if (!back.accepted) return;
    const Exchange again = send(back.visible, c.to, false);
    if (again.accepted && again.visible[0] != storedForm(edited, c.to))
      failing_.insert("edit-round-trip");
  }

  void batchIndependence(const ModelCase& c, const Exchange& forward) {
    for (std::size_t i = 0; i < c.batch.size(); ++i) {
      const Exchange alone = send({c.batch[i]}, c.to, false);
      if (!alone.accepted) return;
      if (alone.visible[0] != forward.visible[i]) failing_.insert("batch-independence");
    }
    std::vector<json> reversed(c.batch.rbegin(), c.batch.rend());
    const Exchange permuted = send(reversed, c.to, false);
    if (!permuted.accepted) return;
    for (std::size_t k = 0; k < reversed.size(); ++k)
      if (permuted.visible[k] != forward.visible[reversed.size() - 1 - k])
        failing_.insert("batch-independence");
  }

  const PropertyModel& model_;
  const FaultSet& faults_;
  std::set<std::string> failing_;
  int calls_ = 0;
};

PropertyModel::PropertyModel(const json& crd) : group_(crd["spec"]["group"].get<std::string>()) {
  for (const auto& version : crd["spec"]["versions"]) {
    const std::string name = version["name"].get<std::string>();
    const json& schema = version["schema"]["openAPIV3Schema"];
    versions_.push_back(name);
    schemas_[name] = schema;
    validators_[name] = std::make_unique<SchemaValidator>(schema);
  }
}

PropertyModel::~PropertyModel() = default;

std::string PropertyModel::apiVersion(const std::string& version) const {
  return group_ + "/" + version;
}

std::set<std::string> PropertyModel::failing(const FaultSet& faults, const ModelCase& c) const {
  return Judge(*this, faults).run(c);
}

}  // namespace convcheck::example::testing_support

#include "generators/applied_metadata.h"

#include <vector>

#include "kube/go/go_json.h"

namespace convcheck {

using nlohmann::json;

namespace {

// The API server's limit on the total size of an object's annotations (keys and values).
constexpr std::size_t kMaxAnnotationBytes = 256 * 1024;

// A field entry: its children, with "." when there are any.
json fieldEntry(const json& value, const SchemaNode* node) {
  json set = fieldsV1Of(value, node);
  if (!set.empty()) set["."] = json::object();
  return set;
}

const SchemaNode* childNode(const SchemaNode* node, const std::string& key) {
  if (!node) return nullptr;
  if (const SchemaNode* p = node->property(key)) return p;
  return node->additionalProperties.get();
}

bool isContent(const std::string& key) {
  return key != "apiVersion" && key != "kind" && key != "metadata" && key != "status";
}

std::size_t annotationBytes(const json& annotations) {
  std::size_t total = 0;
  for (auto it = annotations.begin(); it != annotations.end(); ++it)
    if (it.value().is_string())
      total += it.key().size() + it.value().get_ref<const std::string&>().size();
  return total;
}

// What `kubectl apply` (client side) sent: the object without status and server-set metadata.
std::string lastApplied(const json& object, const json& meta, const std::string& apiVersion) {
  json applied = json::object();
  for (auto it = object.begin(); it != object.end(); ++it)
    if (isContent(it.key())) applied[it.key()] = it.value();
  applied["apiVersion"] = apiVersion;
  if (object.contains("kind")) applied["kind"] = object["kind"];
  json m = json::object();
  for (const char* k : {"name", "namespace", "labels"})
    if (meta.contains(k)) m[k] = meta[k];
  if (meta.contains("annotations")) {
    json others = meta["annotations"];
    others.erase(kLastAppliedAnnotation);
    if (!others.empty()) m["annotations"] = std::move(others);
  }
  applied["metadata"] = std::move(m);
  return goJson(applied) + "\n";
}

void merge(json& into, const json& from) {
  for (auto it = from.begin(); it != from.end(); ++it) {
    if (into.contains(it.key()) && into[it.key()].is_object() && it.value().is_object())
      merge(into[it.key()], it.value());
    else
      into[it.key()] = it.value();
  }
}

}  // namespace

ManagerRole managerRole(const json& entry) {
  if (entry.value("subresource", "") == "status") return ManagerRole::StatusWriter;
  const std::string manager = entry.value("manager", "");
  if (manager == "kubectl-label") return ManagerRole::Labeller;
  if (manager == "manager") return ManagerRole::Controller;
  return ManagerRole::Applier;
}

json fieldsV1Of(const json& value, const SchemaNode* node) {
  json set = json::object();
  if (value.is_object()) {
    if (node && node->mapType == "atomic") return set;
    for (auto it = value.begin(); it != value.end(); ++it)
      set["f:" + it.key()] = fieldEntry(it.value(), childNode(node, it.key()));
  } else if (value.is_array() && node) {
    const SchemaNode* items = node->items.get();
    if (node->listType == "map" && !node->listMapKeys.empty()) {
      for (const auto& item : value) {
        if (!item.is_object()) continue;
        json keys = json::object();
        for (const auto& k : node->listMapKeys)
          if (item.contains(k)) keys[k] = item[k];
        set["k:" + goJson(keys)] = fieldEntry(item, items);
      }
    } else if (node->listType == "set") {
      for (const auto& item : value) set["v:" + goJson(item)] = json::object();
    }
  }
  return set;
}

json withAppliedMetadata(json object, const SchemaNode& root) {
  if (!object.is_object() || !object.contains("metadata")) return object;
  json& meta = object["metadata"];
  if (!meta.is_object() || !meta.contains("managedFields") || !meta["managedFields"].is_array())
    return object;
  json& entries = meta["managedFields"];

  std::vector<std::size_t> appliers;
  std::optional<std::size_t> labeller, controller, statusWriter, clientSideApply;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    switch (managerRole(entries[i])) {
      case ManagerRole::Applier:
        appliers.push_back(i);
        if (!clientSideApply && entries[i].value("manager", "") == "kubectl-client-side-apply")
          clientSideApply = i;
        break;
      case ManagerRole::Labeller:
        if (!labeller) labeller = i;
        break;
      case ManagerRole::Controller:
        if (!controller) controller = i;
        break;
      case ManagerRole::StatusWriter:
        if (!statusWriter) statusWriter = i;
        break;
    }
  }

  if (clientSideApply) {
    const std::string applied =
        lastApplied(object, meta, entries[*clientSideApply].value("apiVersion", ""));
    json annotations = meta.value("annotations", json::object());
    annotations.erase(kLastAppliedAnnotation);
    if (annotationBytes(annotations) + applied.size() +
            std::string(kLastAppliedAnnotation).size() <=
        kMaxAnnotationBytes) {
      annotations[kLastAppliedAnnotation] = applied;
      meta["annotations"] = std::move(annotations);
    } else {
      clientSideApply.reset();
    }
  }

  std::vector<json> sets(entries.size(), json::object());
  auto own = [&](std::optional<std::size_t> who, const json& fields) {
    if (who && !fields.empty()) merge(sets[*who], fields);
  };
  const std::optional<std::size_t> firstApplier =
      appliers.empty() ? std::nullopt : std::optional<std::size_t>(appliers.front());

  // The content: a top-level object's fields are split between the appliers, one field each in
  // turn (a later `kubectl edit` changed some); anything else belongs to the first applier.
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (!isContent(it.key())) continue;
    const SchemaNode* node = root.property(it.key());
    const std::string f = "f:" + it.key();
    if (it.value().is_object() && it.value().size() > 1 && appliers.size() > 1 && node &&
        node->hasProperties) {
      own(firstApplier, json{{f, {{".", json::object()}}}});
      std::size_t turn = 0;
      for (auto child = it.value().begin(); child != it.value().end(); ++child, ++turn)
        own(appliers[turn % appliers.size()],
            json{
                {f,
                 {{"f:" + child.key(), fieldEntry(child.value(), childNode(node, child.key()))}}}});
    } else {
      own(firstApplier, json{{f, fieldEntry(it.value(), node)}});
    }
  }
  if (object.contains("status"))
    own(statusWriter, json{{"f:status", fieldEntry(object["status"], root.property("status"))}});

  auto metaField = [](const std::string& key, json children) {
    children["."] = json::object();
    return json{{"f:metadata", {{"f:" + key, std::move(children)}}}};
  };
  if (meta.contains("labels") && meta["labels"].is_object() && !meta["labels"].empty())
    own(labeller ? labeller : firstApplier,
        metaField("labels", fieldsV1Of(meta["labels"], nullptr)));
  if (meta.contains("annotations") && meta["annotations"].is_object()) {
    json others = meta["annotations"];
    others.erase(kLastAppliedAnnotation);
    if (!others.empty()) own(firstApplier, metaField("annotations", fieldsV1Of(others, nullptr)));
    if (clientSideApply)
      own(clientSideApply,
          metaField("annotations",
                    json{{std::string("f:") + kLastAppliedAnnotation, json::object()}}));
  }
  const std::optional<std::size_t> keeper = controller ? controller : firstApplier;
  if (meta.contains("finalizers") && meta["finalizers"].is_array()) {
    json children = json::object();
    for (const auto& f : meta["finalizers"]) children["v:" + goJson(f)] = json::object();
    if (!children.empty()) own(keeper, metaField("finalizers", std::move(children)));
  }
  if (meta.contains("ownerReferences") && meta["ownerReferences"].is_array()) {
    json children = json::object();
    for (const auto& r : meta["ownerReferences"])
      if (r.is_object() && r.contains("uid"))
        children["k:" + goJson(json{{"uid", r["uid"]}})] = json::object();
    if (!children.empty()) own(keeper, metaField("ownerReferences", std::move(children)));
  }

  json kept = json::array();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (sets[i].empty()) continue;  // the API server drops an entry that owns nothing
    json e = std::move(entries[i]);
    e["fieldsV1"] = std::move(sets[i]);
    kept.push_back(std::move(e));
  }
  if (kept.empty())
    meta.erase("managedFields");
  else
    meta["managedFields"] = std::move(kept);
  return object;
}

}  // namespace convcheck

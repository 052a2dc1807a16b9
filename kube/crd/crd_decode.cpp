#include "kube/crd/crd_decode.h"

#include <cstdint>

#include "kube/crd/base64.h"
#include "kube/go/utf8.h"

namespace convcheck {

namespace {

using nlohmann::json;

std::string describe(const json& v) {
  std::string type;
  switch (v.type()) {
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      return "a list";
    case json::value_t::string:
      type = "a string";
      break;
    case json::value_t::boolean:
      type = "a boolean";
      break;
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      type = "an integer";
      break;
    case json::value_t::number_float:
      type = "a number";
      break;
    default:
      return "null";
  }
  std::string shown = shortenUtf8(v.dump(), 60);
  return type + " (" + shown + ")";
}

bool isBlank(const std::string& s) {
  for (char c : s)
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\v' && c != '\f') return false;
  return true;
}

// Typed access to the fields of one document, collecting errors named by field path.
class Fields {
 public:
  Fields(const SourceLocation& where, std::string prefix, CrdDecodeResult& out)
      : where_(where), prefix_(std::move(prefix)), out_(out) {}

  void error(const std::string& path, std::string message) {
    out_.errors.push_back(LoadError{where_, prefix_ + path, std::move(message), 0, 0});
  }
  void warning(const std::string& path, std::string message) {
    out_.warnings.push_back(LoadError{where_, prefix_ + path, std::move(message), 0, 0});
  }

  // The member `key` of `parent`, or nullptr when absent or null (Go leaves the zero value).
  static const json* member(const json* parent, const char* key) {
    if (!parent || !parent->is_object()) return nullptr;
    auto it = parent->find(key);
    if (it == parent->end() || it->is_null()) return nullptr;
    return &*it;
  }

  const json* object(const json* parent, const char* key, const std::string& path) {
    const json* v = member(parent, key);
    if (v && !v->is_object()) {
      error(path, "expected an object, got " + describe(*v));
      return nullptr;
    }
    return v;
  }

  const json* list(const json* parent, const char* key, const std::string& path) {
    const json* v = member(parent, key);
    if (v && !v->is_array()) {
      error(path, "expected a list, got " + describe(*v));
      return nullptr;
    }
    return v;
  }

  std::optional<std::string> string(const json* parent, const char* key, const std::string& path) {
    const json* v = member(parent, key);
    if (!v) return std::nullopt;
    if (!v->is_string()) {
      error(path, "expected a string, got " + describe(*v));
      return std::nullopt;
    }
    return v->get<std::string>();
  }

  std::optional<bool> boolean(const json* parent, const char* key, const std::string& path) {
    const json* v = member(parent, key);
    if (!v) return std::nullopt;
    if (!v->is_boolean()) {
      error(path, "expected a boolean, got " + describe(*v));
      return std::nullopt;
    }
    return v->get<bool>();
  }

  std::optional<std::int64_t> integer(const json* parent, const char* key,
                                      const std::string& path) {
    const json* v = member(parent, key);
    if (!v) return std::nullopt;
    if (!v->is_number_integer() || v->is_number_unsigned()) {
      error(path, "expected an integer, got " + describe(*v));
      return std::nullopt;
    }
    return v->get<std::int64_t>();
  }

  std::vector<std::string> strings(const json* parent, const char* key, const std::string& path) {
    std::vector<std::string> out;
    const json* v = list(parent, key, path);
    if (!v) return out;
    for (std::size_t i = 0; i < v->size(); ++i) {
      const json& item = (*v)[i];
      if (!item.is_string()) {
        error(path + "[" + std::to_string(i) + "]", "expected a string, got " + describe(item));
        continue;
      }
      out.push_back(item.get<std::string>());
    }
    return out;
  }

 private:
  const SourceLocation& where_;
  std::string prefix_;
  CrdDecodeResult& out_;
};

// The openAPIV3Schema inside a `schema` / `validation` object at `path`.
json readSchema(Fields& f, const json* holder, const std::string& path) {
  if (!holder) return nullptr;
  const json* schema = Fields::member(holder, "openAPIV3Schema");
  if (!schema) return nullptr;
  if (!schema->is_object()) {
    f.error(path + ".openAPIV3Schema",
            "Invalid value: " + describe(*schema) + ": the schema must be a JSON object");
    return nullptr;
  }
  return *schema;
}

bool hasStatusSubresource(const json* subresources) {
  return Fields::member(subresources, "status") != nullptr;
}

void readClientConfig(Fields& f, const json* cc, const std::string& path, CrdLayout& layout,
                      WebhookClientConfig& out) {
  if (!cc) return;
  layout.hasClientConfig = true;
  if (Fields::member(cc, "url")) layout.hasUrl = true;
  if (auto url = f.string(cc, "url", path + ".url")) out.url = *url;
  if (const json* svc = f.object(cc, "service", path + ".service")) {
    ServiceReference ref;
    ref.ns = f.string(svc, "namespace", path + ".service.namespace").value_or("");
    ref.name = f.string(svc, "name", path + ".service.name").value_or("");
    ref.path = f.string(svc, "path", path + ".service.path").value_or("");
    if (auto port = f.integer(svc, "port", path + ".service.port")) {
      if (*port < 1 || *port > 65535) {
        f.error(path + ".service.port", "Invalid value: " + std::to_string(*port) +
                                            ": port is not valid: must be between 1 and 65535, "
                                            "inclusive");
      } else {
        ref.port = static_cast<int>(*port);
      }
    }
    out.service = ref;
  }
  if (auto ca = f.string(cc, "caBundle", path + ".caBundle")) {
    // Whitespace-only counts as empty (kube-apiserver >= 1.34, webhook_converter.go L80-84).
    if (!isBlank(*ca)) {
      std::string why;
      auto pem = decodeBase64(*ca, &why);
      if (!pem) {
        std::string hint;
        if (ca->find("{{") != std::string::npos)
          hint = " (an unrendered Helm template: render it with `helm template` first)";
        f.error(path + ".caBundle",
                "Invalid value: caBundle must be base64-encoded PEM: " + why + hint);
      } else if (!isBlank(*pem)) {
        out.caBundlePem = std::move(*pem);
      }
    }
  }
}

// One warning when metadata labels or annotations hold Helm template expressions: harmless for
// conversion, but a sign that the file is a chart source.
void helmInMetadata(Fields& f, const json* metadata) {
  for (const char* map : {"labels", "annotations"}) {
    const json* values = Fields::member(metadata, map);
    if (!values || !values->is_object()) continue;
    for (const auto& [key, value] : values->items()) {
      if (value.is_string() && value.get<std::string>().find("{{") != std::string::npos) {
        f.warning(std::string("metadata.") + map + "[" + key + "]",
                  "unrendered Helm template expression " + json(value).dump() +
                      ": this looks like a chart source; render it with `helm template` first if "
                      "anything that matters is templated");
        return;
      }
    }
  }
}

}  // namespace

std::string CrdLayout::clientConfigField() const {
  return prefix +
         (v1beta1 ? "spec.conversion.webhookClientConfig" : "spec.conversion.webhook.clientConfig");
}

std::string CrdLayout::reviewVersionsField() const {
  return prefix + (v1beta1 ? "spec.conversion.conversionReviewVersions"
                           : "spec.conversion.webhook.conversionReviewVersions");
}

CrdDecodeResult decodeCrd(const json& object, const SourceLocation& where,
                          const std::string& prefix) {
  CrdDecodeResult result;
  CrdLayout& layout = result.layout;
  layout.prefix = prefix;
  Fields f(where, prefix, result);
  Crd crd;
  crd.source = where;

  layout.apiVersion = f.string(&object, "apiVersion", "apiVersion").value_or("");
  layout.v1beta1 = layout.apiVersion == "apiextensions.k8s.io/v1beta1";
  if (!layout.v1beta1 && layout.apiVersion != "apiextensions.k8s.io/v1") {
    f.error("apiVersion", "Unsupported value: \"" + layout.apiVersion +
                              "\": supported values: \"apiextensions.k8s.io/v1\", "
                              "\"apiextensions.k8s.io/v1beta1\"");
    return result;
  }

  const json* metadata = f.object(&object, "metadata", "metadata");
  crd.name = f.string(metadata, "name", "metadata.name").value_or("");
  helmInMetadata(f, metadata);

  const json* spec = f.object(&object, "spec", "spec");
  if (!spec) {
    if (!Fields::member(&object, "spec")) f.error("spec", "Required value");
    return result;
  }
  crd.group = f.string(spec, "group", "spec.group").value_or("");
  const json* names = f.object(spec, "names", "spec.names");
  crd.kind = f.string(names, "kind", "spec.names.kind").value_or("");
  crd.plural = f.string(names, "plural", "spec.names.plural").value_or("");
  crd.listKind = f.string(names, "listKind", "spec.names.listKind").value_or("");
  if (crd.listKind.empty() && !crd.kind.empty()) crd.listKind = crd.kind + "List";

  if (auto scope = f.string(spec, "scope", "spec.scope")) {
    if (*scope == "Namespaced" || *scope == "Cluster") {
      crd.namespaced = *scope == "Namespaced";
    } else {
      f.error("spec.scope", "Unsupported value: \"" + *scope +
                                "\": supported values: \"Cluster\", \"Namespaced\"");
    }
  } else if (!layout.v1beta1) {
    f.error("spec.scope", "Required value");
  }

  // Versions, with v1beta1's single `version` and top-level schema/subresources.
  const json* topValidation = nullptr;
  json topSchema = nullptr;
  const json* topSubresources = nullptr;
  if (layout.v1beta1) {
    layout.specVersion = f.string(spec, "version", "spec.version").value_or("");
    topValidation = f.object(spec, "validation", "spec.validation");
    topSchema = readSchema(f, topValidation, "spec.validation");
    topSubresources = f.object(spec, "subresources", "spec.subresources");
  }
  const json* versions = f.list(spec, "versions", "spec.versions");
  if (versions && !versions->empty()) {
    for (std::size_t i = 0; i < versions->size(); ++i) {
      const std::string path = "spec.versions[" + std::to_string(i) + "]";
      const json& item = (*versions)[i];
      if (!item.is_object()) {
        f.error(path, "expected an object, got " + describe(item));
        continue;
      }
      CrdVersion v;
      v.name = f.string(&item, "name", path + ".name").value_or("");
      v.served = f.boolean(&item, "served", path + ".served").value_or(false);
      v.storage = f.boolean(&item, "storage", path + ".storage").value_or(false);
      v.deprecated = f.boolean(&item, "deprecated", path + ".deprecated").value_or(false);
      const json* schemaHolder = f.object(&item, "schema", path + ".schema");
      v.schema = readSchema(f, schemaHolder, path + ".schema");
      std::string schemaField = path + ".schema.openAPIV3Schema";
      if (layout.v1beta1) {
        if (schemaHolder && topValidation) {
          f.error(path + ".schema",
                  "Forbidden: top-level and per-version schemas are mutually exclusive");
        } else if (!schemaHolder) {
          v.schema = topSchema;
          schemaField = "spec.validation.openAPIV3Schema";
        }
      } else if (!Fields::member(schemaHolder, "openAPIV3Schema")) {
        f.error(path + ".schema.openAPIV3Schema", "Required value: schemas are required");
      }
      const json* subresources = f.object(&item, "subresources", path + ".subresources");
      if (layout.v1beta1 && subresources && topSubresources) {
        f.error(path + ".subresources",
                "Forbidden: top-level and per-version subresources are mutually exclusive");
      }
      v.hasStatusSubresource =
          hasStatusSubresource(subresources) || hasStatusSubresource(topSubresources);
      crd.versions.push_back(std::move(v));
      layout.versionSchemaFields.push_back(schemaField);
    }
  } else if (layout.v1beta1 && !layout.specVersion.empty()) {
    CrdVersion v;
    v.name = layout.specVersion;
    v.served = true;
    v.storage = true;
    v.schema = topSchema;
    v.hasStatusSubresource = hasStatusSubresource(topSubresources);
    crd.versions.push_back(std::move(v));
    layout.versionSchemaFields.push_back("spec.validation.openAPIV3Schema");
  } else if (versions || !Fields::member(spec, "versions")) {  // not when of the wrong type
    f.error("spec.versions", "Required value: must have at least one version");
  }

  // Conversion.
  crd.conversionStrategy = "None";
  if (const json* conversion = f.object(spec, "conversion", "spec.conversion")) {
    crd.conversionStrategy =
        f.string(conversion, "strategy", "spec.conversion.strategy").value_or("None");
    if (layout.v1beta1) {
      readClientConfig(
          f, f.object(conversion, "webhookClientConfig", "spec.conversion.webhookClientConfig"),
          "spec.conversion.webhookClientConfig", layout, crd.clientConfig);
      layout.hasReviewVersions = Fields::member(conversion, "conversionReviewVersions") != nullptr;
      crd.conversionReviewVersions = f.strings(conversion, "conversionReviewVersions",
                                               "spec.conversion.conversionReviewVersions");
    } else if (const json* webhook = f.object(conversion, "webhook", "spec.conversion.webhook")) {
      layout.hasWebhookBlock = true;
      readClientConfig(f, f.object(webhook, "clientConfig", "spec.conversion.webhook.clientConfig"),
                       "spec.conversion.webhook.clientConfig", layout, crd.clientConfig);
      layout.hasReviewVersions = Fields::member(webhook, "conversionReviewVersions") != nullptr;
      crd.conversionReviewVersions = f.strings(webhook, "conversionReviewVersions",
                                               "spec.conversion.webhook.conversionReviewVersions");
    }
  }
  if (layout.v1beta1 && crd.conversionStrategy == "Webhook" && crd.conversionReviewVersions.empty())
    crd.conversionReviewVersions = {"v1beta1"};  // v1beta1/defaults.go

  crd.preserveUnknownFields =
      f.boolean(spec, "preserveUnknownFields", "spec.preserveUnknownFields")
          .value_or(layout.v1beta1);  // v1beta1 defaults to true, v1 to false

  if (const json* status = f.object(&object, "status", "status"))
    crd.storedVersions = f.strings(status, "storedVersions", "status.storedVersions");

  if (result.errors.empty()) result.crd = std::move(crd);
  return result;
}

}  // namespace convcheck

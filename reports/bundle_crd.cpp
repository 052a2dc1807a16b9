#include "reports/bundle_crd.h"

#include <string>

namespace convcheck {

using nlohmann::json;

namespace {

std::string base64(const std::string& in) {
  static const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    unsigned v = (static_cast<unsigned char>(in[i]) << 16) |
                 (static_cast<unsigned char>(in[i + 1]) << 8) |
                 static_cast<unsigned char>(in[i + 2]);
    for (int k = 18; k >= 0; k -= 6) out += kAlphabet[(v >> k) & 63];
  }
  if (i < in.size()) {
    unsigned v = static_cast<unsigned char>(in[i]) << 16;
    if (i + 1 < in.size()) v |= static_cast<unsigned char>(in[i + 1]) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += i + 1 < in.size() ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

}  // namespace

json crdManifest(const Crd& crd) {
  json versions = json::array();
  for (const auto& v : crd.versions) {
    json version = {{"name", v.name}, {"served", v.served}, {"storage", v.storage}};
    if (v.deprecated) version["deprecated"] = true;
    if (!v.schema.is_null()) version["schema"] = {{"openAPIV3Schema", v.schema}};
    if (v.hasStatusSubresource) version["subresources"] = {{"status", json::object()}};
    versions.push_back(version);
  }
  json spec = {{"group", crd.group},
               {"scope", crd.namespaced ? "Namespaced" : "Cluster"},
               {"names", {{"plural", crd.plural}, {"kind", crd.kind}, {"listKind", crd.listKind}}},
               {"versions", versions}};
  if (crd.preserveUnknownFields) spec["preserveUnknownFields"] = true;
  json conversion = {
      {"strategy", crd.conversionStrategy.empty() ? "None" : crd.conversionStrategy}};
  if (crd.conversionStrategy == "Webhook") {
    json clientConfig = json::object();
    if (!crd.clientConfig.url.empty()) clientConfig["url"] = crd.clientConfig.url;
    if (crd.clientConfig.service) {
      const auto& s = *crd.clientConfig.service;
      clientConfig["service"] = {{"namespace", s.ns}, {"name", s.name}, {"port", s.port}};
      if (!s.path.empty()) clientConfig["service"]["path"] = s.path;
    }
    if (!crd.clientConfig.caBundlePem.empty())
      clientConfig["caBundle"] = base64(crd.clientConfig.caBundlePem);
    conversion["webhook"] = {{"conversionReviewVersions", crd.conversionReviewVersions},
                             {"clientConfig", clientConfig}};
  }
  spec["conversion"] = conversion;
  json manifest = {{"apiVersion", "apiextensions.k8s.io/v1"},
                   {"kind", "CustomResourceDefinition"},
                   {"metadata", {{"name", crd.name}}},
                   {"spec", spec}};
  if (!crd.storedVersions.empty()) manifest["status"] = {{"storedVersions", crd.storedVersions}};
  return manifest;
}

}  // namespace convcheck

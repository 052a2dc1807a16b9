#include "harness/cluster/cluster_reads.h"

#include <cctype>

#include <fmt/format.h>

namespace convcheck {

namespace {

// Percent-encodes a query value (continue tokens are base64 with + / =).
std::string queryEscaped(const std::string& value) {
  std::string out;
  for (unsigned char ch : value) {
    if (std::isalnum(ch) || ch == '-' || ch == '_' || ch == '.' || ch == '~')
      out += static_cast<char>(ch);
    else
      out += fmt::format("%{:02X}", ch);
  }
  return out;
}

}  // namespace

std::string clusterCrdName(const std::string& input) {
  const std::string scheme = kClusterCrdScheme;
  return input.rfind(scheme, 0) == 0 ? input.substr(scheme.size()) : "";
}

RawGet readClusterCrd(const ClusterAccess& access, const std::string& name) {
  return getRaw(access, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + name);
}

StoredObjects readStoredObjects(const ClusterAccess& access, const Crd& crd,
                                const std::string& version, int limit) {
  StoredObjects out;
  const std::string base = fmt::format("/apis/{}/{}/{}", crd.group, version, crd.plural);
  std::string token;
  while (static_cast<int>(out.objects.size()) < limit) {
    std::string path = fmt::format("{}?limit={}", base, limit - out.objects.size());
    if (!token.empty()) path += "&continue=" + queryEscaped(token);
    RawGet got = getRaw(access, path);
    if (!gotBody(got)) {
      out.error = std::get<1>(got);
      return out;
    }
    auto list = nlohmann::json::parse(std::get<0>(got), nullptr, false);
    if (!list.is_object() || !list.contains("items") || !list["items"].is_array()) {
      out.error = fmt::format("GET {}: the answer is not a list (no items array)", path);
      return out;
    }
    if (list["items"].empty()) break;  // a continue token without items would loop
    for (auto& item : list["items"]) {
      if (!item.is_object()) continue;
      if (!item.contains("apiVersion")) item["apiVersion"] = crd.apiVersion(version);
      if (!item.contains("kind")) item["kind"] = crd.kind;
      out.objects.push_back(std::move(item));
      if (static_cast<int>(out.objects.size()) == limit) break;
    }
    const auto& metadata = list.value("metadata", nlohmann::json::object());
    token = metadata.is_object() ? metadata.value("continue", std::string()) : std::string();
    if (token.empty()) break;
  }
  return out;
}

std::string serviceProxyPath(const ServiceReference& service) {
  std::string path = service.path.empty() ? "/" : service.path;
  if (path.front() != '/') path = "/" + path;
  return fmt::format("/api/v1/namespaces/{}/services/https:{}:{}/proxy{}", service.ns, service.name,
                     service.port, path);
}

}  // namespace convcheck

#include "kube/crd/crd_validate.h"

#include <set>
#include <string>

#include "kube/names/name_rules.h"

namespace convcheck {

namespace {

const char* const kUrlForm = "; desired format: https://host[/path]";

const char* const kHelmHint =
    "an unrendered Helm template expression: render the chart with `helm template` first";

bool hasHelm(const std::string& s) { return s.find("{{") != std::string::npos; }

std::string quoteJson(const std::string& s) { return nlohmann::json(s).dump(); }

std::string quoteJsonList(const std::vector<std::string>& values) {
  return nlohmann::json(values).dump();
}

class Checker {
 public:
  Checker(const Crd& crd, const CrdLayout& layout) : crd_(crd), layout_(layout) {}

  CrdValidation run() {
    names();
    versions();
    conversion();
    storedVersions();
    return std::move(out_);
  }

 private:
  void error(const std::string& path, std::string message) {
    out_.errors.push_back(LoadError{crd_.source, layout_.field(path), std::move(message), 0, 0});
  }
  void warning(const std::string& path, std::string message) {
    out_.warnings.push_back(LoadError{crd_.source, layout_.field(path), std::move(message), 0, 0});
  }
  // Paths that already carry the prefix (from CrdLayout helpers).
  void errorAt(const std::string& fullPath, std::string message) {
    out_.errors.push_back(LoadError{crd_.source, fullPath, std::move(message), 0, 0});
  }
  void warningAt(const std::string& fullPath, std::string message) {
    out_.warnings.push_back(LoadError{crd_.source, fullPath, std::move(message), 0, 0});
  }

  // A required identity string; false when missing or a Helm leftover (already reported).
  bool present(const std::string& value, const std::string& path) {
    if (value.empty()) {
      error(path, "Required value");
      return false;
    }
    if (hasHelm(value)) {
      error(path, "Invalid value: " + quoteJson(value) + ": " + kHelmHint);
      return false;
    }
    return true;
  }

  void names() {
    const bool haveName = present(crd_.name, "metadata.name");
    const bool haveGroup = present(crd_.group, "spec.group");
    const bool havePlural = present(crd_.plural, "spec.names.plural");
    present(crd_.kind, "spec.names.kind");
    if (haveGroup && crd_.group.find('.') == std::string::npos)
      error("spec.group", "Invalid value: " + quoteJson(crd_.group) +
                              ": should be a domain with at least one dot");
    if (haveName && haveGroup && havePlural && crd_.name != crd_.plural + "." + crd_.group)
      error("metadata.name", "Invalid value: " + quoteJson(crd_.name) +
                                 ": must be spec.names.plural+\".\"+spec.group");
  }

  void versions() {
    std::set<std::string> seen;
    int storageIndex = -1;
    for (std::size_t i = 0; i < crd_.versions.size(); ++i) {
      const CrdVersion& v = crd_.versions[i];
      const std::string path = "spec.versions[" + std::to_string(i) + "]";
      if (present(v.name, path + ".name")) {
        if (!isDns1035Label(v.name))
          for (const auto& e : dns1035LabelErrors(v.name))
            error(path + ".name", "Invalid value: " + quoteJson(v.name) + ": " + e);
        else if (!seen.insert(v.name).second)
          error(path + ".name", "Duplicate value: " + quoteJson(v.name) +
                                    ": spec.versions must contain unique version names");
      }
      if (v.storage) {
        if (storageIndex >= 0)
          error(path + ".storage",
                "Invalid value: true: must have exactly one version marked as "
                "storage version; spec.versions[" +
                    std::to_string(storageIndex) + "] (" +
                    crd_.versions[static_cast<std::size_t>(storageIndex)].name +
                    ") is one already");
        else
          storageIndex = static_cast<int>(i);
      }
      if (v.schema.is_null() && layout_.v1beta1)
        warning(path, "version " + quoteJson(v.name) +
                          " has no schema (neither per-version nor spec.validation): convcheck "
                          "cannot generate objects for it and will not test it");
    }
    if (!crd_.versions.empty() && storageIndex < 0)
      error("spec.versions",
            "Invalid value: no version has storage: true: must have exactly one version marked as "
            "storage version");
    if (layout_.v1beta1 && !layout_.specVersion.empty() && !crd_.versions.empty() &&
        layout_.specVersion != crd_.versions.front().name)
      warning("spec.version",
              "Invalid value: " + quoteJson(layout_.specVersion) +
                  ": must match the first version in spec.versions (kube-apiserver rejects this "
                  "CRD; convcheck uses spec.versions)");
  }

  void conversion() {
    const std::string& strategy = crd_.conversionStrategy;
    if (strategy != "None" && strategy != "Webhook") {
      error("spec.conversion.strategy", "Unsupported value: " + quoteJson(strategy) +
                                            ": supported values: \"None\", \"Webhook\"");
      return;
    }
    if (strategy == "None") {
      if (layout_.hasClientConfig)
        errorAt(layout_.clientConfigField(),
                "Forbidden: should not be set when strategy is not set to Webhook");
      if (layout_.hasReviewVersions && !crd_.conversionReviewVersions.empty())
        errorAt(layout_.reviewVersionsField(),
                "Forbidden: should not be set when strategy is not set to Webhook");
      return;
    }
    if (crd_.preserveUnknownFields)
      error("spec.conversion.strategy",
            "Invalid value: \"Webhook\": must be None if spec.preserveUnknownFields is true");
    clientConfig();
    reviewVersions();
  }

  void clientConfig() {
    const std::string field = layout_.clientConfigField();
    if (!layout_.hasClientConfig) {
      errorAt(field, "Required value: required when strategy is set to Webhook");
      return;
    }
    const WebhookClientConfig& cc = crd_.clientConfig;
    if (layout_.hasUrl == cc.service.has_value()) {
      errorAt(field, "Required value: exactly one of url or service is required");
      return;
    }
    if (layout_.hasUrl) {
      url(field + ".url", cc.url);
    } else {
      service(field + ".service", *cc.service);
    }
    if (!cc.caBundlePem.empty() &&
        cc.caBundlePem.find("-----BEGIN CERTIFICATE-----") == std::string::npos)
      warningAt(field + ".caBundle",
                "the decoded caBundle contains no PEM certificate (-----BEGIN CERTIFICATE-----); "
                "kube-apiserver could not verify the webhook with it");
  }

  // k8s.io/apiserver/pkg/util/webhook/validation.go ValidateWebhookURL(forceHttps = true),
  // except that http:// is allowed with a warning for local development.
  void url(const std::string& field, const std::string& url) {
    if (hasHelm(url)) {
      errorAt(field, "Invalid value: " + quoteJson(url) + ": " + kHelmHint);
      return;
    }
    for (unsigned char c : url) {
      if (c < 0x20 || c == 0x7f) {
        errorAt(field,
                "Required value: url must be a valid URL: net/url: invalid control "
                "character in URL" +
                    std::string(kUrlForm));
        return;
      }
    }
    std::string rest = url;
    std::string fragment, query, scheme;
    if (auto hash = rest.find('#'); hash != std::string::npos) {
      fragment = rest.substr(hash + 1);
      rest.resize(hash);
    }
    if (auto q = rest.find('?'); q != std::string::npos) {
      query = rest.substr(q + 1);
      rest.resize(q);
    }
    if (auto colon = rest.find(':'); colon != std::string::npos && colon > 0) {
      bool isScheme = (rest[0] >= 'a' && rest[0] <= 'z') || (rest[0] >= 'A' && rest[0] <= 'Z');
      for (std::size_t i = 1; i < colon && isScheme; ++i) {
        const char c = rest[i];
        isScheme = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                   c == '+' || c == '-' || c == '.';
      }
      if (isScheme) {
        scheme = rest.substr(0, colon);
        for (auto& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        rest = rest.substr(colon + 1);
      }
    }
    std::string host, userInfo;
    bool hasUserInfo = false;
    if (rest.rfind("//", 0) == 0) {
      std::string authority = rest.substr(2, rest.find('/', 2) - 2);
      if (auto at = authority.rfind('@'); at != std::string::npos) {
        hasUserInfo = true;
        userInfo = authority.substr(0, at);
        authority = authority.substr(at + 1);
      }
      host = authority;
      if (host.find(' ') != std::string::npos) {
        errorAt(field,
                "Required value: url must be a valid URL: invalid character \" \" in host "
                "name" +
                    std::string(kUrlForm));
        return;
      }
    }
    if (scheme == "http") {
      warningAt(field,
                "http:// is accepted for local development only; kube-apiserver requires "
                "https (" +
                    quoteJson(url) + ")");
    } else if (scheme != "https") {
      errorAt(field, "Invalid value: " + quoteJson(scheme) +
                         ": 'https' is the only allowed URL scheme" + kUrlForm);
    }
    if (host.empty())
      errorAt(field, "Invalid value: \"\": host must be specified" + std::string(kUrlForm));
    if (hasUserInfo) {
      std::string shown = userInfo;
      if (auto colon = shown.find(':'); colon != std::string::npos)
        shown = shown.substr(0, colon) + ":xxxxx";
      errorAt(field, "Invalid value: " + quoteJson(shown) +
                         ": user information is not permitted in the URL");
    }
    if (url.find('#') != std::string::npos)
      errorAt(field,
              "Invalid value: " + quoteJson(fragment) + ": fragments are not permitted in the URL");
    if (!query.empty())
      errorAt(field, "Invalid value: " + quoteJson(query) +
                         ": query parameters are not permitted in the URL");
  }

  // ValidateWebhookService.
  void service(const std::string& field, const ServiceReference& svc) {
    if (svc.name.empty()) errorAt(field + ".name", "Required value: service name is required");
    if (svc.ns.empty())
      errorAt(field + ".namespace", "Required value: service namespace is required");
    if (hasHelm(svc.name) || hasHelm(svc.ns))
      warningAt(field, "the service reference is an unrendered Helm template (" +
                           quoteJson(svc.ns + "/" + svc.name) +
                           "): pass --url and --tls-server-name, or render the chart with `helm "
                           "template` first");
    const std::string& p = svc.path;
    if (p.empty() || p == "/") return;
    if (p == "//") {
      errorAt(field + ".path", "Invalid value: \"//\": segment[0] may not be empty");
      return;
    }
    if (p[0] != '/')
      errorAt(field + ".path", "Invalid value: " + quoteJson(p) + ": must start with a '/'");
    std::string check = p.substr(1);
    if (!check.empty() && check.back() == '/') check.pop_back();
    std::size_t start = 0;
    for (int i = 0;; ++i) {
      const std::size_t slash = check.find('/', start);
      const std::string step = check.substr(start, slash - start);
      if (step.empty())
        errorAt(field + ".path", "Invalid value: " + quoteJson(p) + ": segment[" +
                                     std::to_string(i) + "] may not be empty");
      else
        for (const auto& e : dns1123SubdomainErrors(step))
          errorAt(field + ".path",
                  "Invalid value: " + quoteJson(p) + ": segment[" + std::to_string(i) + "]: " + e);
      if (slash == std::string::npos) break;
      start = slash + 1;
    }
  }

  // validation.go validateConversionReviewVersions (requireRecognizedVersion = true).
  void reviewVersions() {
    const std::string field = layout_.reviewVersionsField();
    const auto& versions = crd_.conversionReviewVersions;
    if (versions.empty()) {
      errorAt(field, "Required value: must include at least one of v1, v1beta1");
      return;
    }
    std::set<std::string> seen;
    bool recognised = false;
    for (std::size_t i = 0; i < versions.size(); ++i) {
      const std::string itemField = field + "[" + std::to_string(i) + "]";
      if (!seen.insert(versions[i]).second) {
        errorAt(itemField, "Invalid value: " + quoteJson(versions[i]) + ": duplicate version");
        continue;
      }
      for (const auto& e : dns1035LabelErrors(versions[i]))
        errorAt(itemField, "Invalid value: " + quoteJson(versions[i]) + ": " + e);
      if (versions[i] == "v1" || versions[i] == "v1beta1") recognised = true;
    }
    if (!recognised)
      errorAt(field, "Invalid value: " + quoteJsonList(versions) +
                         ": must include at least one of v1, v1beta1");
  }

  void storedVersions() {
    for (std::size_t i = 0; i < crd_.storedVersions.size(); ++i)
      if (!crd_.version(crd_.storedVersions[i]))
        warning("status.storedVersions[" + std::to_string(i) + "]",
                "Invalid value: " + quoteJson(crd_.storedVersions[i]) +
                    ": must appear in spec.versions (objects stored in it cannot be read back)");
  }

  const Crd& crd_;
  const CrdLayout& layout_;
  CrdValidation out_;
};

}  // namespace

CrdValidation validateCrd(const Crd& crd, const CrdLayout& layout) {
  return Checker(crd, layout).run();
}

}  // namespace convcheck

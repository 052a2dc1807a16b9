#include "reports/bundle_reader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <type_traits>

#include <fmt/format.h>

#include "harness/corpus/case_json.h"
#include "kube/go/duration.h"
#include "reports/bundle_writer.h"

namespace convcheck {

namespace fs = std::filesystem;
using nlohmann::json;

std::variant<Bundle, std::string> readBundle(const std::string& path) {
  std::error_code ec;
  fs::path dir = fs::absolute(path, ec);
  if (fs::is_regular_file(dir, ec)) dir = dir.parent_path();
  const fs::path file = dir / "bundle.json";
  std::ifstream f(file, std::ios::binary);
  if (!f) return fmt::format("{}: cannot read (is {} a bundle directory?)", file.string(), path);
  std::stringstream text;
  text << f.rdbuf();
  json j = json::parse(text.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) return file.string() + ": not a JSON object";
  const std::string where = file.string();
  if (!j.contains("format") || !j["format"].is_number_integer())
    return where + ": format: required (an integer)";
  const int format = j["format"].get<int>();
  if (format < 1 || format > kBundleFormat)
    return fmt::format("{}: format {} is not known to this convcheck (it reads formats 1 to {})",
                       where, j["format"].dump(), kBundleFormat);
  std::string error;
  auto str = [&](const json& obj, const char* key, const std::string& field) -> std::string {
    auto it = obj.find(key);
    if (it == obj.end() || !it->is_string()) {
      if (error.empty()) error = fmt::format("{}: {}: required (a string)", where, field);
      return "";
    }
    return it->get<std::string>();
  };
  // Optional fields: absent, or of their type (nlohmann's value() throws on another type).
  auto optional = [&](const json& obj, const char* key, const auto& fallback) {
    using T = std::decay_t<decltype(fallback)>;
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return T(fallback);
    const bool fits = std::is_same_v<T, bool> ? it->is_boolean() : it->is_string();
    if (!fits) {
      if (error.empty())
        error = fmt::format("{}: {}: must be a {}", where, key,
                            std::is_same_v<T, bool> ? "boolean" : "string");
      return T(fallback);
    }
    return it->template get<T>();
  };
  Bundle b;
  b.dir = dir.string();
  // Format 1 always carried its crd.json; format 2 names the file, relative to the bundle.
  const std::string crdFile = format == 1 ? "crd.json" : str(j, "crdFile", "crdFile");
  b.crdFile =
      fs::path(crdFile).is_absolute() ? crdFile : (dir / crdFile).lexically_normal().string();
  if (error.empty() && !fs::is_regular_file(b.crdFile, ec))
    return fmt::format(
        "{}: crdFile: {} is not there ({}); a bundle refers to its run's crd.json: copy the "
        "report directory whole",
        where, b.crdFile, crdFile);
  b.crdName = str(j, "crd", "crd");
  b.kind = str(j, "kind", "kind");
  b.property = str(j, "property", "property");
  b.from = str(j, "from", "from");
  b.to = str(j, "to", "to");
  b.part = str(j, "part", "part");
  b.failure = optional(j, "failure", std::string());
  if (!error.empty()) return error;
  if (!j.contains("case")) return where + ": case: required (an object)";
  const json& c = j["case"];
  auto read = caseFromJson(c, where);
  if (auto* caseError = std::get_if<std::string>(&read)) return *caseError;
  b.caseTo = std::move(std::get<CaseJson>(read).to);
  b.seed = std::get<CaseJson>(read).seed;
  b.objects = std::move(std::get<CaseJson>(read).objects);
  b.cause = optional(c, "cause", std::string());
  b.rawObjects = optional(c, "rawObjects", false);
  b.canonicalDateTimes = optional(c, "dateTimes", std::string("canonical")) != "any";
  if (!j.contains("target") || !j["target"].is_object()) return where + ": target: required";
  const json& t = j["target"];
  b.target.url = str(t, "url", "target.url");
  b.target.reviewVersion = optional(t, "reviewVersion", std::string("v1"));
  TlsOptions& tls = b.target.transport.tls;
  const std::string ca = optional(t, "caFile", std::string());
  tls.caFile = ca.empty() ? "" : (fs::path(ca).is_absolute() ? ca : (dir / ca).string());
  tls.certFile = optional(t, "cert", std::string());
  tls.keyFile = optional(t, "key", std::string());
  tls.serverName = optional(t, "tlsServerName", std::string());
  tls.insecureSkipVerify = optional(t, "insecureSkipTlsVerify", false);
  b.target.transport.http2 = optional(t, "http2", false);
  b.target.transport.userAgent = optional(t, "userAgent", b.target.transport.userAgent);
  const std::string reach = optional(t, "reach", std::string("url"));
  if (auto how = webhookReachFromName(reach))
    b.reach.how = *how;
  else if (error.empty())
    error = fmt::format("{}: target.reach: unknown value \"{}\"", where, reach);
  if (auto it = t.find("webhookCommand"); it != t.end() && !it->is_null()) {
    const bool words = it->is_array() && std::all_of(it->begin(), it->end(),
                                                     [](const json& w) { return w.is_string(); });
    if (words)
      b.reach.command = it->get<std::vector<std::string>>();
    else if (error.empty())
      error = where + ": target.webhookCommand: must be an array of strings";
  }
  b.reach.portOfCommand = optional(t, "portOfCommand", false);
  const std::string timeout = optional(t, "timeout", std::string("30s"));
  if (!error.empty()) return error;
  std::string whyNot;
  if (auto parsed = parseDuration(timeout, &whyNot))
    b.target.transport.timeout = *parsed;
  else
    return fmt::format("{}: target.timeout: {}", where, whyNot);
  return b;
}

}  // namespace convcheck

#include "harness/transport/kcp_target.h"

#include <chrono>
#include <filesystem>
#include <utility>

namespace convcheck {

using nlohmann::json;

std::string kcpTargetUrl(const std::string& conversionFile) {
  std::error_code ec;
  const auto absolute = std::filesystem::absolute(conversionFile, ec);
  return kKcpTargetScheme + (ec ? conversionFile : absolute.lexically_normal().string());
}

bool isKcpTargetUrl(const std::string& url) { return url.rfind(kKcpTargetScheme, 0) == 0; }

std::variant<kcp::KcpConverter, std::string> openKcpConversion(const std::string& url) {
  auto loaded = kcp::loadApiConversion(url.substr(std::string(kKcpTargetScheme).size()));
  if (auto* error = std::get_if<std::string>(&loaded)) return *error;
  auto compiled = kcp::KcpConverter::compile(std::get<kcp::ApiConversion>(loaded));
  if (auto* errors = std::get_if<std::vector<std::string>>(&compiled)) {
    std::string all;
    for (const auto& e : *errors) all += (all.empty() ? "" : "\n") + e;
    return all;
  }
  return std::get<kcp::KcpConverter>(std::move(compiled));
}

std::string kcpConversionProblems(const Crd& crd, const std::string& url) {
  auto opened = openKcpConversion(url);
  if (auto* error = std::get_if<std::string>(&opened)) return *error;
  std::string all;
  for (const auto& p : kcp::schemaProblems(std::get<kcp::KcpConverter>(opened).conversion(), crd))
    all += (all.empty() ? "" : "\n") + p;
  return all;
}

namespace {

class KcpTarget : public ReviewTarget {
 public:
  explicit KcpTarget(std::string url) : url_(std::move(url)), converter_(openKcpConversion(url_)) {}

  HttpResult post(const std::string& body) override {
    HttpResult r;
    r.url = url_;
    if (auto* error = std::get_if<std::string>(&converter_)) {
      r.transportError = *error;
      r.transportErrorKind = TransportErrorKind::Other;
      return r;
    }
    const auto start = std::chrono::steady_clock::now();
    const json review = json::parse(body, nullptr, false);
    r.status = 200;
    r.contentType = "application/json";
    r.body = answer(std::get<kcp::KcpConverter>(converter_), review)
                 .dump(-1, ' ', false, json::error_handler_t::replace);
    r.elapsed = std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - start);
    return r;
  }

 private:
  // kube-apiserver converts the request's objects in one call to kcp's converter, which fails
  // as a whole on the first object it cannot convert: the answer a webhook would give for that.
  static json answer(const kcp::KcpConverter& converter, const json& review) {
    const json request = review.is_object() ? review.value("request", json()) : json();
    json response = {{"uid", request.is_object() ? request.value("uid", json("")) : json("")}};
    json converted = json::array();
    const json objects = request.is_object() ? request.value("objects", json::array()) : json();
    const std::string desired =
        request.is_object() ? request.value("desiredAPIVersion", std::string()) : std::string();
    std::string failure = objects.is_array() ? "" : "the review carries no request.objects";
    for (std::size_t i = 0; failure.empty() && i < objects.size(); ++i) {
      auto result = converter.convert(objects[i], desired);
      if (auto* f = std::get_if<kcp::ConversionFailure>(&result))
        failure = f->what + ": " + f->message;
      else
        converted.push_back(std::get<json>(std::move(result)));
    }
    if (failure.empty()) {
      response["result"] = {{"status", "Success"}};
      response["convertedObjects"] = std::move(converted);
    } else {
      response["result"] = {{"status", "Failure"}, {"message", failure}};
    }
    return {{"apiVersion", review.is_object() ? review.value("apiVersion", json()) : json()},
            {"kind", "ConversionReview"},
            {"response", std::move(response)}};
  }

  std::string url_;
  std::variant<kcp::KcpConverter, std::string> converter_;
};

}  // namespace

std::unique_ptr<ReviewTarget> kcpTarget(const std::string& url) {
  return std::make_unique<KcpTarget>(url);
}

}  // namespace convcheck

#include "harness/transport/function_target.h"

#include <chrono>
#include <exception>
#include <utility>

namespace convcheck {

using nlohmann::json;

ReviewFunction reviewFunctionOf(ObjectFunction convert) {
  return [convert = std::move(convert)](const json& review) {
    const json& request = review.at("request");
    const std::string desired = request.at("desiredAPIVersion").get<std::string>();
    json answer = {{"apiVersion", review.value("apiVersion", "apiextensions.k8s.io/v1")},
                   {"kind", "ConversionReview"},
                   {"response", {{"uid", request.at("uid")}}}};
    json converted = json::array();
    for (const auto& object : request.at("objects")) {
      ConvertedObject c = convert(object, desired);
      if (!c.error.empty()) {
        answer["response"]["result"] = {{"status", "Failure"}, {"message", c.error}};
        return answer;
      }
      converted.push_back(std::move(c.object));
    }
    answer["response"]["convertedObjects"] = std::move(converted);
    answer["response"]["result"] = {{"status", "Success"}};
    return answer;
  };
}

namespace {

class FunctionTarget : public ReviewTarget {
 public:
  FunctionTarget(ReviewFunction convert, std::string url)
      : convert_(std::move(convert)), url_(std::move(url)) {}

  HttpResult post(const std::string& body) override {
    HttpResult r;
    r.url = url_;
    if (!convert_) {  // nothing to call: as a webhook that cannot be connected to
      r.transportErrorKind = TransportErrorKind::Connect;
      r.transportError = "Connect: " + url_ +
                         ": no conversion function was given (an in-process target is made "
                         "through convcheck's library, not the command line)";
      return r;
    }
    r.status = 200;
    r.contentType = "application/json";
    const json review = json::parse(body, nullptr, false);
    if (review.is_discarded()) {
      r.status = 400;
      r.contentType = "text/plain";
      r.body = "the request is not JSON";
      return r;
    }
    const auto start = std::chrono::steady_clock::now();
    try {
      r.body = convert_(review).dump(-1, ' ', false, json::error_handler_t::replace);
    } catch (const std::exception& e) {
      r.status = 500;
      r.contentType = "text/plain";
      r.body = std::string("the conversion function threw: ") + e.what();
    } catch (...) {
      r.status = 500;
      r.contentType = "text/plain";
      r.body = "the conversion function threw an exception that is not a std::exception";
    }
    r.elapsed = std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - start);
    return r;
  }

 private:
  ReviewFunction convert_;
  std::string url_;
};

}  // namespace

std::unique_ptr<ReviewTarget> functionTarget(ReviewFunction convert, std::string url) {
  return std::make_unique<FunctionTarget>(std::move(convert), std::move(url));
}

}  // namespace convcheck

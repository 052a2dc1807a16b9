#include "harness/transport/review_codec.h"

#include <cstdint>
#include <cstdio>

#include "kube/go/go_json.h"

namespace convcheck {

std::string encodeReview(const SentReview& review) { return encodeReview(review, nullptr); }

std::string encodeReview(const SentReview& review, EncodedObjects* texts) {
  std::string out;
  out += R"({"kind":"ConversionReview","apiVersion":)";
  appendGoJsonString(out, reviewApiVersion(review.version));
  out += R"(,"request":{"uid":)";
  appendGoJsonString(out, review.uid);
  out += R"(,"desiredAPIVersion":)";
  appendGoJsonString(out, review.desiredApiVersion);
  out += R"(,"objects":[)";
  for (std::size_t i = 0; i < review.objects.size(); ++i) {
    if (i > 0) out += ',';
    const nlohmann::json& object = review.objects[i];
    if (const std::string* text = texts ? texts->find(object) : nullptr) {
      out += *text;
      continue;
    }
    const std::size_t start = out.size();
    appendGoJson(out, object);
    if (texts && texts->keeping) texts->keep(object, std::string_view(out).substr(start));
  }
  out += R"(]},"response":{"uid":"","convertedObjects":null,"result":{"metadata":{}}}})";
  out += '\n';
  return out;
}

std::string newRequestUid(std::mt19937_64& random) {
  std::uint64_t high = random();
  std::uint64_t low = random();
  high = (high & ~std::uint64_t{0xF000}) | std::uint64_t{0x4000};          // version 4
  low = (low & ~(std::uint64_t{0xC} << 60)) | (std::uint64_t{0x8} << 60);  // variant 10xx
  char text[37];
  std::snprintf(text, sizeof text, "%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(high >> 32),
                static_cast<unsigned>((high >> 16) & 0xFFFF), static_cast<unsigned>(high & 0xFFFF),
                static_cast<unsigned>(low >> 48),
                static_cast<unsigned long long>(low & 0xFFFFFFFFFFFFULL));
  return text;
}

std::optional<ReviewVersion> reviewVersionForStrategy(
    const std::string& strategy, const std::vector<std::string>& conversionReviewVersions) {
  if (strategy != "Webhook") return ReviewVersion::V1;
  return chooseReviewVersion(conversionReviewVersions);
}

std::optional<ReviewVersion> chooseReviewVersion(
    const std::vector<std::string>& conversionReviewVersions) {
  for (const auto& version : conversionReviewVersions) {
    if (version == "v1") return ReviewVersion::V1;
    if (version == "v1beta1") return ReviewVersion::V1beta1;
  }
  return std::nullopt;
}

}  // namespace convcheck

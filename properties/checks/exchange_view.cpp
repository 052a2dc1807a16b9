#include "properties/checks/exchange_view.h"

#include <algorithm>

namespace convcheck {

namespace {

// The returned objects are the sent ones (by identity) in another order.
bool permutedIdentities(const std::vector<nlohmann::json>& sent,
                        const std::vector<nlohmann::json>& returned) {
  std::vector<ObjectIdentity> a, b;
  for (const auto& o : sent) a.push_back(identityOf(o));
  for (const auto& o : returned) b.push_back(identityOf(o));
  if (a == b) return false;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}

// Index of the sent object each returned object is the conversion of.
std::vector<std::size_t> pairingOf(const std::vector<nlohmann::json>& sent,
                                   const std::vector<nlohmann::json>& returned, bool permuted) {
  std::vector<std::size_t> match(returned.size());
  for (std::size_t i = 0; i < match.size(); ++i) {
    match[i] = i;
    if (!permuted) continue;
    auto id = identityOf(returned[i]);
    for (std::size_t j = 0; j < sent.size(); ++j)
      if (identityOf(sent[j]) == id) match[i] = j;
  }
  return match;
}

}  // namespace

ExchangeView::ExchangeView(const ExchangeRef& exchange, const CaseContext& context)
    // Beyond the number sent only the count matters: a hostile answer may hold millions.
    : ref(exchange),
      ex(*exchange),
      ctx(context),
      view(viewResponse(exchange->http, exchange->sent.objects.size())),
      permuted_(permutedIdentities(ex.sent.objects, view.convertedObjects)),
      pairing_(pairingOf(ex.sent.objects, view.convertedObjects, permuted_)) {}

CheckResult passed(const char* property) { return {property, Outcome::Pass, std::nullopt, ""}; }

CheckResult notEvaluable(const char* property, std::string why) {
  return {property, Outcome::Blocked, std::nullopt, std::move(why)};
}

Finding findingOn(const char* property, const ExchangeRef& ref, const CaseContext& ctx,
                  std::string summary, std::vector<std::string> details, nlohmann::json expected,
                  nlohmann::json got) {
  const Exchange& ex = *ref;
  Finding f;
  f.property = property;
  f.from = ctx.from;
  f.to = ctx.to;
  f.summary = std::move(summary);
  f.apiserverMessage = ex.verdict.accepted() ? "" : ex.verdict.message;
  f.details = std::move(details);
  f.expected = std::move(expected);
  f.got = std::move(got);
  f.batch = ex.sent.objects;
  f.exchanges = {ref};
  return f;
}

CheckResult ExchangeView::fail(const char* property, std::string summary,
                               std::vector<std::string> details, nlohmann::json expected,
                               nlohmann::json got) const {
  return {property, Outcome::Fail,
          findingOn(property, ref, ctx, std::move(summary), std::move(details), std::move(expected),
                    std::move(got)),
          ""};
}

bool ExchangeView::timedOut() const {
  return !ex.http.ok() && ex.http.transportErrorKind == "timeout";
}

std::string ExchangeView::objectsUnavailable() const {
  if (!view.hasResponse) return "no decodable response";
  if (view.resultStatus != "Success") return "result.status is not Success";
  return "";
}

std::string ExchangeView::perObjectUnavailable() const {
  if (auto why = objectsUnavailable(); !why.empty()) return why;
  if (view.convertedCount != ex.sent.objects.size()) return "object count differs";
  return "";
}

}  // namespace convcheck

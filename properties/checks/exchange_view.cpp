#include "properties/checks/exchange_view.h"

#include <algorithm>
#include <map>

namespace convcheck {

namespace {

// How the returned objects pair with the sent ones: whether they are the sent ones (by identity)
// in another order, and then the index of the sent object each is the conversion of (the last
// with its identity).
struct Pairing {
  bool permuted = false;
  std::vector<std::size_t> match;
};

Pairing pairingOf(const SharedObjects& sent, const std::vector<nlohmann::json>& returned) {
  std::vector<ObjectIdentity> a, b;
  for (const auto& o : sent) a.push_back(identityOf(o));
  for (const auto& o : returned) b.push_back(identityOf(o));
  Pairing p;
  p.match.resize(returned.size());
  for (std::size_t i = 0; i < p.match.size(); ++i) p.match[i] = i;
  if (a == b) return p;
  std::map<ObjectIdentity, std::size_t> sentAt;
  for (std::size_t j = 0; j < a.size(); ++j) sentAt[a[j]] = j;
  std::vector<ObjectIdentity> sortedA = a, sortedB = b;
  std::sort(sortedA.begin(), sortedA.end());
  std::sort(sortedB.begin(), sortedB.end());
  p.permuted = sortedA == sortedB;
  if (!p.permuted) return p;
  for (std::size_t i = 0; i < b.size(); ++i) p.match[i] = sentAt.at(b[i]);
  return p;
}

}  // namespace

ExchangeView::ExchangeView(const ExchangeRef& exchange, const CaseContext& context)
    // Beyond the number sent only the count matters: a hostile answer may hold millions.
    : ref(exchange),
      ex(*exchange),
      ctx(context),
      view(viewResponse(exchange->http, exchange->sent.objects.size(),
                        exchange->verdict.validJsonBody)) {
  Pairing p = pairingOf(ex.sent.objects, view.convertedHeads);
  permuted_ = p.permuted;
  pairing_ = std::move(p.match);
}

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
  f.batch = ref->sent.objects;
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
  return !ex.http.ok() && ex.http.transportErrorKind == TransportErrorKind::Timeout;
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

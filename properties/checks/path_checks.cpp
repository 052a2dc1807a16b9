#include "properties/checks/path_checks.h"

#include <fmt/format.h>

#include "properties/checks/json_diff.h"

namespace convcheck {

using nlohmann::json;

std::string differingPaths(const json& a, const json& b) {
  std::string out;
  auto diff = jsonDiff(a, b);
  for (std::size_t k = 0; k < diff.size() && k < 3; ++k)
    out += (k ? ", " : "") + (diff[k].path.empty() ? std::string("(root)") : diff[k].path);
  if (diff.size() > 3) out += fmt::format(" and {} more", diff.size() - 3);
  return out;
}

CheckResult pathFailure(const char* property, const CaseContext& ctx, std::string summary,
                        std::string detail, json expected, json got, SharedObjects batch,
                        std::vector<ExchangeRef> exchanges) {
  Finding f;
  f.property = property;
  f.from = ctx.from;
  f.to = ctx.to;
  f.summary = std::move(summary);
  f.details = {std::move(detail)};
  f.expected = std::move(expected);
  f.got = std::move(got);
  f.batch = std::move(batch);
  f.exchanges = std::move(exchanges);
  return {property, Outcome::Fail, std::move(f), ""};
}

}  // namespace convcheck

#include "properties/checks/round_trip.h"

#include <fmt/format.h>

#include "properties/checks/json_diff.h"

namespace convcheck {

std::string describeLoss(const nlohmann::json& original, const nlohmann::json& returned,
                         const std::string& via) {
  auto diff = jsonDiff(original, returned);
  std::vector<std::string> deleted, changed, added;
  for (const auto& line : diff) {
    if (line.missing)
      deleted.push_back(line.path);
    else if (line.added)
      added.push_back(line.path);
    else
      changed.push_back(line.path);
  }
  auto list = [](const std::vector<std::string>& paths) {
    std::string s;
    for (std::size_t i = 0; i < paths.size() && i < 3; ++i) s += (i ? ", " : "") + paths[i];
    if (paths.size() > 3) s += fmt::format(" and {} more", paths.size() - 3);
    return s;
  };
  std::vector<std::string> parts;
  if (!deleted.empty()) parts.push_back("deletes " + list(deleted));
  if (!changed.empty()) parts.push_back("changes " + list(changed));
  if (!added.empty()) parts.push_back("adds " + list(added));
  std::string what;
  for (std::size_t i = 0; i < parts.size(); ++i) what += (i ? "; " : "") + parts[i];
  return fmt::format("a read-modify-write at {} silently {}", via, what);
}

CheckResult checkRoundTrip(const std::vector<nlohmann::json>& originals,
                           const std::vector<nlohmann::json>& returned,
                           std::vector<Exchange> exchanges, const CaseContext& context) {
  for (std::size_t i = 0; i < originals.size(); ++i) {
    if (i < returned.size() && originals[i] == returned[i]) continue;
    Finding f;
    f.property = "round-trip";
    f.from = context.from;
    f.to = context.to;
    const nlohmann::json& got = i < returned.size() ? returned[i] : nlohmann::json(nullptr);
    f.summary = describeLoss(originals[i], got, context.to);
    f.details.push_back(fmt::format("object {} of the batch changed after {} -> {} -> back", i,
                                    context.from, context.to));
    f.expected = originals[i];
    f.got = got;
    f.batch = originals;
    f.exchanges = std::move(exchanges);
    return {"round-trip", Outcome::Fail, std::move(f), ""};
  }
  return {"round-trip", Outcome::Pass, std::nullopt, ""};
}

}  // namespace convcheck

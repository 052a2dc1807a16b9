// Evidence on whether two fields of one parent (spec.routes[*].host, spec.routes[*].timeoutSeconds)
// are lost by different code (an item of a failure's objects that lost one and kept the other) or
// by the same (an item that lost both).
// Used by the tally's sibling rule (Tally::defects).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace convcheck {

// Whether some parent the two normalised paths share (`*` standing for every item or key) lost
// `lostPath` from `expected` to `got` while it kept `keptPath` as it was. One line that drops part
// of an item drops it from every item it touches, so a field kept beside a lost one is another
// line's doing. False when either is not an object, or a path lies inside the other.
bool lostApart(const nlohmann::json& expected, const nlohmann::json& got,
               const std::string& lostPath, const std::string& keptPath);

// Whether some parent the two normalised paths share had both and lost both from `expected` to
// `got`: the evidence of one line dropping them together.
bool lostTogether(const nlohmann::json& expected, const nlohmann::json& got,
                  const std::string& onePath, const std::string& otherPath);

}  // namespace convcheck

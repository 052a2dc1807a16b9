// Reading a reproduction bundle back (formats 1 and 2, see bundle_writer.h): the case, the property
// and the target it was found against. Used by `convcheck replay`.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/bundle_target.h"

namespace convcheck {

struct Bundle {
  std::string dir;      // absolute
  std::string crdFile;  // absolute: the file bundle.json names (format 1: dir/crd.json)
  std::string crdName, kind;
  std::string property, from, to, part;  // the reported pair; part: forward/backward/composite
  std::string failure;                   // how it failed ("HttpStatus", "accepted", ...)
  std::string caseTo;                    // desired version of the case's first request
  std::uint64_t seed = 0;
  std::string cause;               // the cause key the example is of ("" in older bundles)
  bool rawObjects = false;         // sent without defaults
  bool canonicalDateTimes = true;  // --date-times of the run
  std::vector<nlohmann::json> objects;
  BundleTarget target;  // caFile resolved against dir
  WebhookReach reach;   // how the run reached the webhook (older bundles: at the URL)
};

// `path` is the bundle directory or its bundle.json. Errors name the file and field.
std::variant<Bundle, std::string> readBundle(const std::string& path);

}  // namespace convcheck

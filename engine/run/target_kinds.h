// The kinds of target reviews go to (the webhook over HTTPS or HTTP, a conversion function in this
// process, ...), one table in target_kinds.cpp: each kind is chosen by its URL scheme, opened by
// one function, and says whether it is reached over the network (TLS, --wait, curl) and which
// option names it. Used by every mode of the engine and by the commands' target options.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/run/target_resolution.h"
#include "harness/transport/review_target.h"

namespace convcheck {

// A new target for `target` (one per concurrent caller), of the kind its URL's scheme names. A
// URL of no listed scheme goes to the HTTPS client, whose error names what it accepts.
std::unique_ptr<ReviewTarget> openTarget(const ResolvedTarget& target);

// Why the target `url` names cannot convert `crd` (bad input, said before any review is sent:
// e.g. conversion rules whose fields are not in the CRD's schemas); "" when nothing.
std::string targetProblems(const Crd& crd, const std::string& url);

// `given`, or openTarget when it is unset (tests pass targets of their own).
TargetFactory targetFactory(const TargetFactory& given);

// Whether `url` is reached over the network ("" is: the CRD's clientConfig.url): only then are
// TLS, --wait and curl lines about it.
bool isNetworkTarget(const std::string& url);

// Whether `url` names a target only the engine's API makes (a conversion function): its URL is
// gone with its job, so a bundle of it is replayed through the API again.
bool isApiOnlyTarget(const std::string& url);

// "" when `url`, given as `option` (--url, or a kind's own option), names a target convcheck can
// reach from the command line; else why not.
std::string checkTargetUrl(const std::string& url, const std::string& option = "--url");

// A kind chosen by an option of its own instead of --url (its value, a file or a name, is the
// rest of the URL after the scheme).
struct TargetKindOption {
  std::string option;  // "--conversion"
  std::string scheme;  // prefixed to the value: "cel://"
  std::string help;
};
std::vector<TargetKindOption> targetKindOptions();

}  // namespace convcheck

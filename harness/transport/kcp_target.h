// The kcp target kind: ConversionReviews answered in this process by kcp's converter over an
// APIConversion's CEL rules (no webhook, no network), so that kcp's webhook-free conversions are
// judged with the same properties, shrinking and reports as a webhook. A failure names the CEL
// rule ("CEL rule `spec.conversions[1].rules[0]`") where a webhook's would come from its URL.
// Used by the target kinds table (engine/run/target_kinds.cpp) and the command line.
#pragma once

#include <memory>
#include <string>
#include <variant>

#include "harness/transport/review_target.h"
#include "kube/crd/crd.h"
#include "kube/kcp/kcp_converter.h"

namespace convcheck {

// A kcp target is named by "kcp://" and the absolute path of its APIConversion file.
inline constexpr char kKcpTargetScheme[] = "kcp://";
std::string kcpTargetUrl(const std::string& conversionFile);
bool isKcpTargetUrl(const std::string& url);

// The APIConversion of a kcp:// URL, read and compiled; the errors name the file and field.
std::variant<kcp::KcpConverter, std::string> openKcpConversion(const std::string& url);

// What kcp would refuse when the APIConversion of `url` is created for `crd` (its rules' fields
// checked against the CRD's schemas), one problem a line; "" when none.
std::string kcpConversionProblems(const Crd& crd, const std::string& url);

// A target answering every review with kcp's conversion of its objects (HTTP 200; result Failure
// with the rule and kcp's error when an object cannot be converted, as kcp fails the whole
// request). A file that cannot be read or compiled fails every call with a transport error.
std::unique_ptr<ReviewTarget> kcpTarget(const std::string& url);

}  // namespace convcheck

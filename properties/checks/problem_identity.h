// The identity of the defect behind a cause (cause.h: Cause::problem), the same under every
// property and version pair: rejections by API-server stage and masked message, paths as text.
// Used by cause_analysis (every cause gets one); the runner's tally groups causes into problems.
#pragma once

#include <string>
#include <vector>

#include "harness/transport/exchange.h"
#include "properties/checks/json_diff.h"

namespace convcheck {

// `message` with what came from the request masked and what the webhook's code wrote kept, so
// that one crash on different objects is one message and two different crashes stay two: a
// group/version with its kind ("example.dev/v1, Kind=Widget") as <gvk>, each word that is one of
// `literals` (object names, namespaces, uids, versions) or has one as a part between '-', '.' or
// '_' ("web-1-converted") as <v>, quoted values ("x", 'x', `x`) that are one of `values` or
// `literals` (the request's strings and numbers) or a number as "<v>" ('apiKeyVerification',
// a property the code read, stays), standalone numbers as <v> (one mark for all: a name may be
// digits), and kube-apiserver's list and single-object wordings of a bad object ("invalid converted
// object at index 3") as one. At most 200 characters. No regular expressions: this runs on every
// failing answer, on every thread.
std::string maskMessage(const std::string& message, const std::vector<std::string>& literals,
                        const std::vector<std::string>& values = {});

// The masked message of an exchange the API server rejected: its names, namespaces and uids,
// and the versions of the objects sent and desired, are the literals; every string and number
// the sent objects hold are the values.
std::string maskedRejection(const Exchange& exchange);

// A cause key ("round-trip|lost|spec.a") without its property: the problem it shows
// ("lost|spec.a").
std::string problemOfCauseKey(const std::string& causeKey);

// A dotted path as diffChildPath and the schema validator spell it ("spec.a[3]", "spec[\"a.b\"]",
// "spec[a/b]") split into steps, for normalisedPath.
std::vector<PathStep> pathSteps(const std::string& path);

}  // namespace convcheck

// The oracle: what kube-apiserver (webhook_converter.go and the schema coercion after it) does
// with a conversion webhook's answer. Used by the Converter (harness/transport) and the properties.
#pragma once

#include <nlohmann/json.hpp>

#include "kube/apiserver/http_types.h"
#include "kube/apiserver/review.h"

namespace convcheck {

// Judges one ConversionReview exchange exactly as webhook_converter.go Convert would, in its
// order and with its error strings ("no stricter and no looser"):
//   transport / HTTP status / body decoding (client-go), envelope (v1: GVK, response, uid;
//   v1beta1: response only), result.status == "Success", count, then per object: parse, apiVersion,
//   kind, name/namespace/uid, restoreObjectMeta.
// `G` in messages is the sent object's GVK for a batch of one (the single-object path) and
// "<group>/<version of the first object>, Kind=<listKind>" for larger batches (the list path,
// whose messages print Go's 1-based index after the parse step, as upstream does).
// When accepted, `visible` holds what a client would see for each object: restored metadata,
// pruned with `targetSchema` (the desired version's openAPIV3Schema; null = nothing pruned),
// non-nullable nulls dropped, embedded resources coerced, the root metadata round-tripped through
// ObjectMeta, numbers normalised; `silent` lists reverted metadata, pruned and null-pruned fields.
// `returned` holds at most as many objects as were sent (an answer with more fails the count
// check, which needs only their number).
// A batch of zero objects is never sent by the API server; it is judged Accepted.
ModelVerdict judgeConversion(const SentReview& sent, const HttpResult& http,
                             const nlohmann::json& targetSchema);

}  // namespace convcheck

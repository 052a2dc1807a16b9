// Numbers as a client sees them after kube-apiserver re-encodes an unstructured object: Go writes
// float64(5) as `5`, and a client decoding with sigs.k8s.io/json keeps integer literals that fit
// int64 as int64. Used by the API-server model (visible objects) and by properties comparing them.
#pragma once

#include <nlohmann/json.hpp>

namespace convcheck {

// Recursively rewrites numbers the way an encode (Go encoding/json) + decode (PreserveInts) round
// trip does:
// - a float with an integral value in [-2^63, 2^63) becomes that int64 (5.0 → 5, 1e3 → 1000,
//   -0.0 → 0), because Go prints it without a fraction or exponent below 1e21;
// - other floats stay floats (1.5, 1e21, 1e19 — the latter prints as an integer literal that
//   does not fit int64, so it is read back as float64);
// - unsigned integers become int64 when they fit, float64 otherwise (Go's unstructured values
//   never hold uint64).
// Rewrites in place: pass an rvalue to avoid a copy.
nlohmann::json normaliseNumbers(nlohmann::json value);

}  // namespace convcheck

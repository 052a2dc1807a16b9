// RapidCheck generators of schema-valid CronTab and Widget objects, per version, shaped like
// what kube-apiserver stores (full metadata, optional fields, status). Used by tests/examples.
#pragma once

#include <string>

#include <rapidcheck.h>
#include <nlohmann/json.hpp>

namespace convcheck::example::testing_support {

rc::Gen<nlohmann::json> genCronTab(const std::string& version);  // v1beta1 | v1
rc::Gen<nlohmann::json> genWidget(const std::string& version);   // v1alpha1 | v1beta1 | v1

// Widgets as convcheck generates them from the schema: like genWidget, but an older version
// never carries the webhook's stash annotation (only objects written through v1 do).
rc::Gen<nlohmann::json> genFreshWidget(const std::string& version);

// The v1-only Widget spec fields (nickname, tags, limits), any subset, possibly none.
rc::Gen<nlohmann::json> genWidgetV1OnlyFields();

}  // namespace convcheck::example::testing_support

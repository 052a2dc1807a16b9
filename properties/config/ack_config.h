// Acknowledged, intentional differences a webhook's authors declare in .convcheck.yaml (or
// --config): annotation/label keys the webhook owns and paths that are lossy on purpose per
// version pair (or changed on purpose by a new release: property read-after-upgrade, migrate,
// rollback, crd-change or same-behaviour); and the options of `convcheck run`, `fuzz`, `upgrade`
// and `diff` it sets (the command line overrides them).
// Loaded by the CLI; the acknowledgements are consulted by the case executor for every failing
// cause, the run options applied by the CLI.
//
//   run:                              # long option names without dashes
//     url: https://127.0.0.1:8443/convert
//     ca-file: certs/ca.pem
//     tests: 200
//     kind: [Widget, Gadget]          # a list for an option given several times
//   fuzz:                             # the same, for convcheck fuzz
//     max-total-time: 10m
//   upgrade:                          # ... convcheck upgrade
//     new-crd: deploy/next/crds/
//   diff:                             # ... convcheck diff
//     tests: 50
//   acknowledge:
//     - annotation: gadgets.example.dev/converted-by
//       reason: the webhook records which service converted the object
//     - path: spec.legacyPorts        # "[*]" matches any index, a "*" step any key
//       from: v1                      # optional: only this ordered version pair
//       to: v1alpha1
//       property: round-trip          # optional: only this property
//       reason: v1alpha1 has no legacyPorts; dropped on purpose
#pragma once

#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "properties/checks/cause.h"

namespace convcheck {

struct Acknowledgement {
  enum class Kind { Annotation, Label, Path };
  Kind kind = Kind::Path;
  std::string key;       // annotation/label key, or a dotted path as json_diff prints it
  std::string from, to;  // version names; empty = any
  std::string property;  // SPEC property id; empty = any
  std::string reason;    // required
  std::string where;     // "FILE: acknowledge[3]"
};

struct AckConfig {
  std::vector<Acknowledgement> items;
  // run: option name -> its value(s), in file order; the CLI checks the names.
  std::vector<std::pair<std::string, std::vector<std::string>>> runOptions;
  // fuzz: the same for `convcheck fuzz`.
  std::vector<std::pair<std::string, std::vector<std::string>>> fuzzOptions;
  // upgrade: and diff: the same for `convcheck upgrade` and `convcheck diff`.
  std::vector<std::pair<std::string, std::vector<std::string>>> upgradeOptions;
  std::vector<std::pair<std::string, std::vector<std::string>>> diffOptions;
  std::string source;  // the file

  // The options of the section named `command` ("run", "fuzz", "upgrade", "diff"); none for
  // another name.
  const std::vector<std::pair<std::string, std::vector<std::string>>>& optionsOf(
      const std::string& command) const;

  // The first acknowledgement covering a difference at the (normalised) diff path `path`, exactly
  // or as a descendant at a step boundary, seen by `property` on the pair (from, to); or nullptr.
  const Acknowledgement* match(const std::string& path, const std::string& from,
                               const std::string& to, const std::string& property) const;
  // Moves the causes of a failure of `property` on (from, to) that an acknowledgement covers
  // (causes with a path only: a rejection is never acknowledged) out of `causes`; returns them
  // with the reason and the entry.
  std::vector<AcknowledgedCause> acknowledge(std::vector<Cause>& causes, const std::string& from,
                                             const std::string& to,
                                             const std::string& property) const;
};

// Errors name the file, the entry and the field: ".convcheck.yaml: acknowledge[2].reason:
// required", ".convcheck.yaml: run.tests: expected a value or a list of values". Unknown keys are
// errors, so that a typo cannot silently acknowledge nothing.
std::variant<AckConfig, std::string> parseAckConfig(const std::string& text,
                                                    const std::string& source);
std::variant<AckConfig, std::string> loadAckConfig(const std::string& path);

}  // namespace convcheck

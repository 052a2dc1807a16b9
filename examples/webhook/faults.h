// The catalogue of bugs the example webhook injects on request (--fault NAME), each breaking
// one convcheck property. Used by examples/webhook (converters, review handler, CLI) and tests.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace convcheck::example {

enum class Fault : std::uint8_t {
  UidNotEchoed,
  ReverseObjects,
  DropField,
  ChangeName,
  LossyRoundTrip,
  Nondeterministic,
  Http500Over8,
  Delay3s,
  WrongApiVersion,
  ChangeKind,
  DropLastObject,
  InvalidLabel,
  MutateFinalizers,
  FailureResult,
  StaleStash,
  BatchPosition,
  SchemaInvalidOutput,
  UnknownField,
  SkipHub,
  LegacyVersionLoss,
  NeedsDefault,
  OwnedAnnotationLoss,
  Float64Numbers,
  StashOverflow,
  TruthyCopy,
  LimitsEmptied,
  CrashNoStatus,
  CrashNoNickname,
  LeaksAnnotations,
  // Faults of the webhook's second release (--release 2), which only an upgrade shows.
  ConvertsStoredDifferently,
  DropsV1alpha1,
};

// One row of the catalogue: the --fault name, the SPEC §4 property it breaks, and what it does.
// `alsoBreaks` lists (space-separated) the properties the fault cannot help breaking as well,
// because the named one implies them (examples/README.md says why); empty for most faults.
struct FaultInfo {
  Fault fault;
  std::string_view name;
  std::string_view property;
  std::string_view effect;
  std::string_view alsoBreaks;
};

// Every fault of a single release, in declaration order: each breaks a property `convcheck run`
// checks. The single place a fault's name and help text live.
std::span<const FaultInfo> faultCatalogue();

// The faults of the second release (--release 2) that only an upgrade shows: the release alone
// passes `convcheck run`, and `convcheck upgrade` from the first one fails the property named
// (read-after-upgrade, ...).
std::span<const FaultInfo> upgradeFaultCatalogue();

const FaultInfo& faultInfo(Fault fault);
std::optional<Fault> faultFromName(std::string_view name);

// A set of enabled faults; empty means a correct webhook.
class FaultSet {
 public:
  FaultSet() = default;
  FaultSet(std::initializer_list<Fault> faults);

  void add(Fault fault);
  bool has(Fault fault) const;
  bool empty() const { return bits_ == 0; }

 private:
  std::uint32_t bits_ = 0;
};

struct FaultSetParse {
  FaultSet faults;
  std::string error;  // names the unknown fault; empty on success
};

// Parses --fault values (names from the catalogue).
FaultSetParse parseFaultNames(const std::vector<std::string>& names);

// The property ids in info.alsoBreaks, in the order it lists them.
std::vector<std::string> alsoBrokenProperties(const FaultInfo& info);

// The `--fault list` text: one line per fault, "name  property  effect", the effect followed by
// "(also breaks: ...)" when alsoBreaks is not empty; the upgrade faults with `upgrade`.
std::string faultListing(bool upgrade = false);

}  // namespace convcheck::example

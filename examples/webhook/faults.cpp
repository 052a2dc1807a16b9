#include "examples/webhook/faults.h"

#include <algorithm>
#include <array>
#include <sstream>

namespace convcheck::example {

std::span<const FaultInfo> faultCatalogue() {
  static constexpr std::array<FaultInfo, 29> kCatalogue{{
      {Fault::UidNotEchoed, "uid-not-echoed", "uid-echo",
       "response.uid is not the request uid (empty)", ""},
      {Fault::ReverseObjects, "reverse-objects", "order",
       "convertedObjects come back in reverse order (visible for batches >= 2)", ""},
      {Fault::DropField, "drop-field", "round-trip",
       "drops a field: CronTab spec.image v1->v1beta1, Widget spec.replicas to v1alpha1",
       "edit-round-trip transitivity"},
      {Fault::ChangeName, "change-name", "metadata-immutable",
       "appends \"-converted\" to metadata.name", ""},
      {Fault::LossyRoundTrip, "lossy-round-trip", "round-trip",
       "CronTab spec.image truncated to 8 chars going to v1beta1, Widget replicas capped at 100 "
       "going to v1alpha1",
       "edit-round-trip transitivity"},
      {Fault::Nondeterministic, "nondeterministic", "determinism",
       "toggles annotation example.convcheck.dev/converted-at with a fresh random value",
       "batch-independence edit-round-trip transitivity"},
      {Fault::Http500Over8, "http500-over-8", "response-envelope",
       "answers HTTP 500 for batches of more than 8 objects", ""},
      {Fault::Delay3s, "delay-3s", "timeout", "sleeps 3 s before answering", ""},
      {Fault::WrongApiVersion, "wrong-api-version", "target-version",
       "converted objects keep their source apiVersion", ""},
      {Fault::ChangeKind, "change-kind", "kind-unchanged",
       "appends \"Converted\" to the kind of converted objects", ""},
      {Fault::DropLastObject, "drop-last-object", "object-count",
       "the last converted object is left out", ""},
      {Fault::InvalidLabel, "invalid-label", "labels-annotations-valid",
       "adds label example.convcheck.dev/converted with an invalid label value", ""},
      {Fault::MutateFinalizers, "mutate-finalizers", "metadata-immutable",
       "adds finalizer example.convcheck.dev/converted (silently reverted by the API server)", ""},
      {Fault::FailureResult, "failure-result", "converts-valid-input",
       "result.status Failure when an object's name ends in a digit", ""},
      {Fault::StaleStash, "stale-stash", "edit-round-trip",
       "Widget v1 -> older also stashes spec.replicas, older -> v1 takes replicas from the "
       "stash: an edit of replicas/count at v1alpha1 or v1beta1 is lost",
       ""},
      {Fault::BatchPosition, "batch-position", "batch-independence",
       "toggles annotation example.convcheck.dev/batch-index (the object's position in the "
       "batch) on conversions to or from the storage version",
       ""},
      {Fault::SchemaInvalidOutput, "schema-invalid-output", "schema-valid",
       "CronTab v1beta1 -> v1 writes spec.port with a leading space (\" 80\"), against its pattern",
       ""},
      {Fault::UnknownField, "unknown-field", "no-pruned-fields",
       "adds spec.convertedBy, which no schema has (the API server prunes it)", ""},
      {Fault::SkipHub, "skip-hub", "transitivity",
       "Widget v1alpha1 <-> v1 converted directly, not through the hub, with a size table that "
       "swaps small and large",
       ""},
      {Fault::LegacyVersionLoss, "legacy-version-loss", "round-trip",
       "Widget: converting to v1alpha1 drops spec.size (test with v1alpha1 unserved but still in "
       "status.storedVersions: the loss must fail the run)",
       "edit-round-trip transitivity"},
      {Fault::NeedsDefault, "needs-default", "converts-valid-input",
       "Widget: result Failure (a nil-pointer panic) for an object without spec.size, which has "
       "a schema default; kube-apiserver always fills it in, so only --raw-objects shows this",
       ""},
      {Fault::OwnedAnnotationLoss, "owned-annotation-loss", "round-trip",
       "stamps annotation example.convcheck.dev/converted-by: example-webhook on every object "
       "and, in the same answer, drops status.lastScheduleTime (CronTab, to v1beta1) and "
       "status.phase (Widget, to v1alpha1)",
       "edit-round-trip transitivity"},
      {Fault::Float64Numbers, "float64-numbers", "round-trip",
       "parses numbers as float64, as JavaScript does: integers beyond 2^53 come back rounded "
       "(CronTab status.active; near 2^63 they even become floats that no integer schema allows)",
       "edit-round-trip schema-valid"},
      {Fault::StashOverflow, "stash-overflow", "round-trip",
       "Widget: the v1-fields stash keeps at most 8 tags (a fixed-size array): a v1 object with "
       "more loses the rest through an older version; a deep fault, as generated objects carry "
       "at most a handful of tags",
       "edit-round-trip"},
      {Fault::TruthyCopy, "truthy-copy", "round-trip",
       "Widget: to v1alpha1 copies spec.replicas and status.readyReplicas only when truthy (as "
       "JavaScript's `if (value)` does): a 0 is lost; one defect in two fields",
       "edit-round-trip transitivity"},
      {Fault::LimitsEmptied, "limits-emptied", "round-trip",
       "Widget: v1 -> older stashes spec.limits as {}: its cpu and memory are lost through older "
       "versions; one defect in two fields",
       "edit-round-trip"},
      {Fault::CrashNoStatus, "crash-no-status", "converts-valid-input",
       "Widget: to v1alpha1, an object without status fails with \"Cannot read properties of "
       "undefined (reading 'phase')\", as a JavaScript webhook crashes",
       ""},
      {Fault::CrashNoNickname, "crash-no-nickname", "converts-valid-input",
       "Widget: to v1, an object whose stash holds no nickname fails with \"Cannot read "
       "properties of undefined (reading 'length')\"; with crash-no-status, two defects that "
       "differ only in the property named",
       ""},
      {Fault::LeaksAnnotations, "leaks-annotations", "batch-independence",
       "the annotations of earlier objects of a request land on the later ones (a map reused "
       "across the loop): another object's metadata in this one",
       "round-trip"},
  }};
  return kCatalogue;
}

std::span<const FaultInfo> upgradeFaultCatalogue() {
  static constexpr std::array<FaultInfo, 2> kCatalogue{{
      {Fault::ConvertsStoredDifferently, "converts-stored-differently", "read-after-upgrade",
       "Widget (release 2): v1beta1 <-> v1 with a size table that swaps small and large, both "
       "ways, so the release is consistent on its own but reads objects the first release "
       "stored in v1beta1 differently",
       "migrate rollback"},
      {Fault::DropsV1alpha1, "drops-v1alpha1", "read-after-upgrade",
       "Widget (release 2): no conversion from or to v1alpha1, which release 2 no longer serves "
       "but objects stored by an earlier release may still be in (status.storedVersions)",
       ""},
  }};
  return kCatalogue;
}

const FaultInfo& faultInfo(Fault fault) {
  for (auto catalogue : {faultCatalogue(), upgradeFaultCatalogue()})
    for (const auto& info : catalogue)
      if (info.fault == fault) return info;
  return faultCatalogue().front();  // unreachable: the catalogues list every enumerator
}

std::optional<Fault> faultFromName(std::string_view name) {
  for (auto catalogue : {faultCatalogue(), upgradeFaultCatalogue()})
    for (const auto& info : catalogue)
      if (info.name == name) return info.fault;
  return std::nullopt;
}

FaultSet::FaultSet(std::initializer_list<Fault> faults) {
  for (Fault f : faults) add(f);
}

void FaultSet::add(Fault fault) { bits_ |= std::uint32_t{1} << static_cast<unsigned>(fault); }

bool FaultSet::has(Fault fault) const {
  return (bits_ & (std::uint32_t{1} << static_cast<unsigned>(fault))) != 0;
}

FaultSetParse parseFaultNames(const std::vector<std::string>& names) {
  FaultSetParse result;
  for (const auto& name : names) {
    auto fault = faultFromName(name);
    if (!fault) {
      result.error = "unknown fault \"" + name + "\" (use --fault list to see the known faults)";
      return result;
    }
    result.faults.add(*fault);
  }
  return result;
}

std::vector<std::string> alsoBrokenProperties(const FaultInfo& info) {
  std::vector<std::string> ids;
  std::istringstream words{std::string(info.alsoBreaks)};
  for (std::string id; words >> id;) ids.push_back(id);
  return ids;
}

std::string faultListing(bool upgrade) {
  constexpr std::size_t kNameWidth = 23;
  constexpr std::size_t kPropertyWidth = 26;
  std::ostringstream out;
  for (const auto& info : upgrade ? upgradeFaultCatalogue() : faultCatalogue()) {
    // At least two spaces after each column, however long a name gets.
    std::string name(info.name);
    std::string property(info.property);
    name.resize(std::max(name.size() + 2, kNameWidth), ' ');
    property.resize(std::max(property.size() + 2, kPropertyWidth), ' ');
    out << name << property << info.effect;
    if (!info.alsoBreaks.empty()) out << " (also breaks: " << info.alsoBreaks << ")";
    out << '\n';
  }
  return out.str();
}

}  // namespace convcheck::example

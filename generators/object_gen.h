// Public entry point of the generators: valid custom resources of one CRD version, in every shape
// the API server stores (minimal, sparse, full; with and without status and unknown fields).
// Used by the run command, `convcheck generate`, the planner and the shrinker.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <rapidcheck.h>
#include <nlohmann/json.hpp>

#include "generators/format_gen.h"
#include "generators/schema_gen.h"
#include "generators/schema_model.h"
#include "kube/crd/crd.h"

namespace convcheck {

struct ObjectShape {
  FieldCoverage coverage = FieldCoverage::Sparse;
  bool withStatus = true;      // include `status` when the schema has one
  bool unknownFields = false;  // add fields kept by x-kubernetes-preserve-unknown-fields
  bool fullMetadata = true;  // labels, annotations, managedFields, … (else only the required ones)
  bool longShapes = false;   // long lists, maps of many keys, deep free-form values now and then
  bool listed = false;       // metadata as a LIST returns it: managedFields, resourceVersion always
};

// Which objects to draw: any shape (objects()), only required fields (minimal()), or what a LIST
// chunk returns (listed(): stored objects of any content shape, each with the metadata every
// stored object has: managedFields, resourceVersion, labels and annotations more often).
enum class ObjectMix { Any, Minimal, Listed };

class ObjectGenerator;
class ValidationRules;

// A schema-valid change of `object` for edit-round-trip: the content (everything but apiVersion,
// kind and metadata) of an object `generator` makes from `seed`, under the object's own apiVersion,
// kind and metadata; redrawn until the version's transition rules hold against `object`. Shared by
// the runner and replay/minimize so that both make the same edit.
nlohmann::json editedCopyOf(const ObjectGenerator& generator, const nlohmann::json& object,
                            std::uint64_t seed);

struct GeneratorOptions {
  FormatOptions formats;
  // Objects satisfy the version's x-kubernetes-validations (false: drawn as if it had none; for
  // measuring what the rules cost).
  bool validationRules = true;
};

class ObjectGenerator {
 public:
  // Parses the version's schema (a version without schema is treated as
  // `{type: object, x-kubernetes-preserve-unknown-fields: true}`, with a note) and compiles the
  // generators. Errors name the CRD, version, schema path and keyword.
  static std::variant<ObjectGenerator, std::string> compile(const Crd& crd,
                                                            const std::string& version,
                                                            GeneratorOptions options = {});

  // Any shape: full custom resources, one in four with long shapes (ObjectShape::longShapes).
  rc::Gen<nlohmann::json> objects() const;
  rc::Gen<nlohmann::json> minimal() const;  // only required fields, minimal metadata, no status
  rc::Gen<nlohmann::json> listed() const;   // as a LIST chunk holds them (ObjectMix::Listed)
  rc::Gen<nlohmann::json> mix(ObjectMix mix) const;
  // The value mix(`mix`) gives for `random` and `size`, drawn without its shrink tree: what a run
  // sends. The same seed rebuilds the tree when a failure is shrunk. Throws what the Gen's value()
  // would.
  nlohmann::json drawObject(const rc::Random& random, int size,
                            ObjectMix mix = ObjectMix::Any) const;
  rc::Gen<nlohmann::json> shaped(const ObjectShape& shape) const;

  // Values for the field at `fieldPath` ("spec.replicas", "spec.ports[*]" for items,
  // "spec.selector[*]" for map values); a Gen that fails when the path is not in the schema.
  // Compiles on each call; not thread-safe with other calls on the same generator.
  rc::Gen<nlohmann::json> valueFor(const std::string& fieldPath) const;

  // Honest notes: patterns approximated, formats ignored, …
  const std::vector<std::string>& notes() const;
  // Validation rules objects could not be made to satisfy so far (with the share of drawn
  // objects each rejected), for the end of a run; rules kube-apiserver would refuse are in
  // notes().
  std::vector<std::string> ruleNotes() const;
  // The version's x-kubernetes-validations; null when it has none.
  const ValidationRules* validationRules() const;

  const ParsedSchema& schema() const;
  const std::string& version() const;
  const std::string& apiVersion() const;
  const std::string& kind() const;
  bool namespaced() const;

 private:
  struct State;
  explicit ObjectGenerator(std::shared_ptr<State> state) : state_(std::move(state)) {}
  std::shared_ptr<State> state_;
};

// Deterministic: the same generator and seed give the same n objects (rc::Random(seed), one
// split per object, sizes cycling through 10..100). Throws std::runtime_error when generation
// fails (a generator bug or an unsatisfiable schema), naming the object index.
std::vector<nlohmann::json> generateObjects(const ObjectGenerator& gen, std::uint64_t seed, int n);

// The same objects, each handed to `each` (index, object) as soon as it is made, so that callers
// that only check and print them need not hold them all. Throws as generateObjects does (for the
// lowest failing index). With `threads` > 1 the objects are made on that many threads and `each`
// is called concurrently, once per index, in no particular order (after a failure, possibly also
// for later indices).
void forEachGeneratedObject(const ObjectGenerator& gen, std::uint64_t seed, int n,
                            const std::function<void(int, nlohmann::json&&)>& each,
                            int threads = 1);

}  // namespace convcheck

#include "generators/object_gen.h"

#include <atomic>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "generators/applied_metadata.h"
#include "generators/metadata_gen.h"
#include "generators/pattern_strings.h"
#include "generators/validation_rules.h"

namespace convcheck {

using nlohmann::json;

namespace {

// kube-apiserver stores objects in etcd, whose default request limit is 1.5 MiB; generated
// objects stay below 1 MiB of JSON.
constexpr std::size_t kMaxObjectBytes = 1u << 20;

// Bytes of the compact JSON encoding, close enough without serialising.
std::size_t approxJsonBytes(const json& v) {
  switch (v.type()) {
    case json::value_t::object: {
      std::size_t n = 2;
      for (auto it = v.begin(); it != v.end(); ++it)
        n += it.key().size() + 4 + approxJsonBytes(it.value());
      return n;
    }
    case json::value_t::array: {
      std::size_t n = 2;
      for (const auto& x : v) n += 1 + approxJsonBytes(x);
      return n;
    }
    case json::value_t::string:
      return v.get_ref<const std::string&>().size() + 2;
    default:
      return 8;
  }
}

// Halves the size until the object fits kMaxObjectBytes.
JsonDrawGen capped(JsonDrawGen g) {
  return JsonDrawGen([g](const rc::Random& random, int size, const DrawOptions& draw) {
    rc::Random r = random;
    for (int s = size;; s /= 2) {
      auto x = g(r.split(), s, draw);
      x.check();
      if (s == 0 || approxJsonBytes(x.value) <= kMaxObjectBytes) return x;
    }
  });
}

}  // namespace

struct ObjectGenerator::State {
  std::string version, apiVersion, kind;
  bool namespaced = true;
  ParsedSchema schema;
  GeneratorOptions options;
  std::vector<std::string> apiVersions;
  PatternStrings patterns;
  GenNotes genNotes;
  std::vector<std::string> notes;
  // Root-property generators, compiled once for every shape (the mode comes with each draw).
  std::optional<std::map<std::string, JsonDrawGen>> rootFields;
  std::optional<JsonDrawGen> anyShape;
  std::optional<JsonDrawGen> minimalGen;
  std::optional<JsonDrawGen> listedGen;
  std::shared_ptr<const ValidationRules> rules;  // x-kubernetes-validations (null: none)

  SchemaGenEnv env(FieldCoverage c, bool unknown, bool longShapes = false) {
    return SchemaGenEnv{GenMode{c, unknown, options.formats, longShapes}, &patterns, &genNotes};
  }

  const JsonDrawGen& of(ObjectMix mix) const {
    switch (mix) {
      case ObjectMix::Minimal:
        return *minimalGen;
      case ObjectMix::Listed:
        return *listedGen;
      case ObjectMix::Any:
        break;
    }
    return *anyShape;
  }

  const std::map<std::string, JsonDrawGen>& fields() {
    if (rootFields) return *rootFields;
    auto& out = rootFields.emplace();
    const SchemaGenEnv e = env(FieldCoverage::Sparse, false);  // the mode comes with each draw
    for (const auto& [name, child] : schema.root->properties)
      if (name != "apiVersion" && name != "kind" && name != "metadata")
        out.emplace(name, schemaDrawsForAnyMode(child, e));
    return out;
  }

  // Objects of `shape` that satisfy the version's validation rules (a fuller shape when the
  // shape alone cannot).
  JsonDrawGen build(const ObjectShape& shape) {
    if (!rules || rules->empty()) return buildUnruled(shape);
    return satisfyingRules(buildUnruled(shape),
                           buildUnruled({FieldCoverage::Full, true, false, true}), rules,
                           schema.root);
  }

  JsonDrawGen buildUnruled(const ObjectShape& shape) {
    const bool unknown = shape.unknownFields && shape.coverage != FieldCoverage::Minimal;
    const auto& compiled = fields();
    std::map<std::string, FieldOverride> overrides;
    for (const auto& [name, g] : compiled) overrides[name] = FieldOverride{g, Presence::Auto};
    overrides["apiVersion"] = FieldOverride{justDraw(json(apiVersion)), Presence::Always};
    overrides["kind"] = FieldOverride{justDraw(json(kind)), Presence::Always};
    MetadataOptions md;
    md.namespaced = namespaced;
    md.apiVersions = apiVersions;
    md.apiVersion = apiVersion;
    md.minimal = !shape.fullMetadata || shape.coverage == FieldCoverage::Minimal;
    md.optionalProbability = shape.coverage == FieldCoverage::Full ? 0.8 : 0.5;
    md.listed = shape.listed;
    if (const SchemaNode* m = schema.root->property("metadata"))
      if (auto n = m->properties.find("name"); n != m->properties.end()) md.nameSchema = n->second;
    overrides["metadata"] = FieldOverride{drawOf(objectMeta(md)), Presence::Always};
    if (overrides.count("spec") && shape.coverage != FieldCoverage::Minimal)
      overrides["spec"].presence = Presence::Included;
    if (overrides.count("status"))
      overrides["status"].presence = shape.withStatus && shape.coverage != FieldCoverage::Minimal
                                         ? Presence::Included
                                         : Presence::Never;
    SchemaNodePtr root = schema.root;
    return capped(
        mapDraw(objectSchemaDraws(schema.root, env(shape.coverage, unknown, shape.longShapes),
                                  std::move(overrides), CheckOptions{true, true}),
                [root](json o) { return withAppliedMetadata(std::move(o), *root); }));
  }
};

std::variant<ObjectGenerator, std::string> ObjectGenerator::compile(const Crd& crd,
                                                                    const std::string& version,
                                                                    GeneratorOptions options) {
  const CrdVersion* v = crd.version(version);
  const std::string what = crd.name + " version " + version;
  if (!v) return what + ": no such version in the CRD";
  auto st = std::make_shared<State>();
  st->version = version;
  st->apiVersion = crd.group.empty() ? version : crd.apiVersion(version);
  st->kind = crd.kind;
  st->namespaced = crd.namespaced;
  st->options = options;
  for (const auto& other : crd.versions)
    st->apiVersions.push_back(crd.group.empty() ? other.name : crd.apiVersion(other.name));

  json schema = v->schema;
  if (schema.is_null()) {
    schema = {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}};
    st->notes.push_back(what + " has no schema: objects carry arbitrary preserved fields");
  }
  auto parsed = parseSchema(schema);
  if (auto* errors = std::get_if<std::vector<SchemaError>>(&parsed)) {
    std::string msg = what + ": schema is not structural or uses unsupported keywords:";
    for (const auto& e : *errors) msg += "\n  " + e.str();
    return msg;
  }
  st->schema = std::get<ParsedSchema>(std::move(parsed));
  if (st->schema.celRules > 0 && options.validationRules) {
    st->rules = std::make_shared<const ValidationRules>(schema);
    for (const auto& n : st->rules->refusedNotes()) st->notes.push_back(what + ": " + n);
  }
  if (crd.preserveUnknownFields)
    st->notes.push_back(what +
                        ": spec.preserveUnknownFields is true; kube-apiserver prunes nothing");
  for (const auto& n : st->schema.notes) st->notes.push_back(what + ": " + n);

  try {
    st->minimalGen = st->build({FieldCoverage::Minimal, false, false, false});
    // Every shape with full metadata, in short and (one object in four) long shapes.
    std::vector<JsonDrawGen> shapes, longShapes, listed;
    for (auto coverage : {FieldCoverage::Sparse, FieldCoverage::Full})
      for (bool status : {true, false})
        for (bool unknown : {false, true}) {
          shapes.push_back(st->build({coverage, status, unknown, true}));
          longShapes.push_back(st->build({coverage, status, unknown, true, true}));
          listed.push_back(st->build({coverage, status, unknown, true, false, true}));
          listed.push_back(st->build({coverage, status, unknown, true, true, true}));
        }
    shapes.push_back(*st->minimalGen);
    shapes.push_back(st->build({FieldCoverage::Sparse, true, false, false}));
    st->anyShape =
        weightedDraw({{3, pickDraw(std::move(shapes))}, {1, pickDraw(std::move(longShapes))}});
    st->listedGen = pickDraw(std::move(listed));
  } catch (const std::exception& e) {
    return what + ": cannot compile generators: " + e.what();
  }
  for (const auto& n : st->genNotes.all()) st->notes.push_back(what + ": " + n);
  for (const auto& n : st->patterns.notes()) st->notes.push_back(what + ": " + n);
  return ObjectGenerator(st);
}

rc::Gen<json> ObjectGenerator::objects() const { return genOf(*state_->anyShape); }

rc::Gen<json> ObjectGenerator::minimal() const { return genOf(*state_->minimalGen); }

rc::Gen<json> ObjectGenerator::listed() const { return genOf(*state_->listedGen); }

rc::Gen<json> ObjectGenerator::mix(ObjectMix mix) const { return genOf(state_->of(mix)); }

json ObjectGenerator::drawObject(const rc::Random& random, int size, ObjectMix mix) const {
  JsonDraw d = state_->of(mix)(random, size, DrawOptions{false});
  d.check();
  return std::move(d.value);
}

rc::Gen<json> ObjectGenerator::shaped(const ObjectShape& shape) const {
  return genOf(state_->build(shape));
}

rc::Gen<json> ObjectGenerator::valueFor(const std::string& fieldPath) const {
  SchemaNodePtr node = state_->schema.root;
  std::size_t i = 0;
  while (i < fieldPath.size() && node) {
    if (fieldPath[i] == '.') {
      ++i;
      continue;
    }
    if (fieldPath.compare(i, 3, "[*]") == 0) {
      node = node->items ? node->items : node->additionalProperties;
      i += 3;
      continue;
    }
    const std::size_t end = fieldPath.find_first_of(".[", i);
    const std::string name =
        fieldPath.substr(i, end == std::string::npos ? std::string::npos : end - i);
    auto it = node->properties.find(name);
    node = it == node->properties.end() ? nullptr : it->second;
    i = end == std::string::npos ? fieldPath.size() : end;
  }
  if (!node) {
    const std::string msg =
        "field " + fieldPath + " is not in the schema of version " + state_->version;
    return rc::Gen<json>([msg](const rc::Random&, int) -> rc::Shrinkable<json> {
      throw rc::GenerationFailure(msg);
    });
  }
  return schemaGen(node, state_->env(FieldCoverage::Sparse, false));
}

const std::vector<std::string>& ObjectGenerator::notes() const { return state_->notes; }
std::vector<std::string> ObjectGenerator::ruleNotes() const {
  return state_->rules ? state_->rules->notes() : std::vector<std::string>{};
}
const ValidationRules* ObjectGenerator::validationRules() const { return state_->rules.get(); }
const ParsedSchema& ObjectGenerator::schema() const { return state_->schema; }
const std::string& ObjectGenerator::version() const { return state_->version; }
const std::string& ObjectGenerator::apiVersion() const { return state_->apiVersion; }
const std::string& ObjectGenerator::kind() const { return state_->kind; }
bool ObjectGenerator::namespaced() const { return state_->namespaced; }

void forEachGeneratedObject(const ObjectGenerator& gen, std::uint64_t seed, int n,
                            const std::function<void(int, json&&)>& each, int threads) {
  auto make = [&](int i, const rc::Random& random) {
    json object;
    try {
      object = gen.drawObject(random, 10 + (i * 37) % 91);
    } catch (const std::exception& e) {
      throw std::runtime_error(gen.kind() + " " + gen.version() + ": object " + std::to_string(i) +
                               " (seed " + std::to_string(seed) + "): " + e.what());
    }
    each(i, std::move(object));
  };
  rc::Random random(seed);
  if (threads <= 1 || n < 2) {
    for (int i = 0; i < n; ++i) make(i, random.split());
    return;
  }
  // Object i is drawn from the i-th split whichever thread makes it.
  std::vector<rc::Random> randoms;
  randoms.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) randoms.push_back(random.split());
  std::atomic<int> next{0};
  std::mutex failureMutex;
  int failedIndex = n;  // the lowest failing index so far (n: none)
  std::exception_ptr failure;
  auto work = [&] {
    for (int i; (i = next.fetch_add(1)) < n;) {
      {
        std::lock_guard<std::mutex> lock(failureMutex);
        if (i > failedIndex) continue;
      }
      try {
        make(i, randoms[static_cast<std::size_t>(i)]);
      } catch (...) {
        std::lock_guard<std::mutex> lock(failureMutex);
        if (i < failedIndex) {
          failedIndex = i;
          failure = std::current_exception();
        }
      }
    }
  };
  std::vector<std::thread> workers;
  for (int t = 1; t < std::min(threads, n); ++t) workers.emplace_back(work);
  work();
  for (auto& w : workers) w.join();
  if (failure) std::rethrow_exception(failure);
}

std::vector<json> generateObjects(const ObjectGenerator& gen, std::uint64_t seed, int n) {
  std::vector<json> out;
  out.reserve(static_cast<std::size_t>(std::max(n, 0)));
  forEachGeneratedObject(gen, seed, n, [&out](int, json&& o) { out.push_back(std::move(o)); });
  return out;
}

namespace {

nlohmann::json editedCopyFrom(const ObjectGenerator& generator, const nlohmann::json& object,
                              std::uint64_t seed) {
  nlohmann::json fresh = generator.objects()(rc::Random(seed), 50).value();
  nlohmann::json edited = nlohmann::json::object();
  for (const char* key : {"apiVersion", "kind", "metadata"})
    if (object.contains(key)) edited[key] = object[key];
  for (auto item = fresh.begin(); item != fresh.end(); ++item)
    if (item.key() != "apiVersion" && item.key() != "kind" && item.key() != "metadata")
      edited[item.key()] = item.value();
  return edited;
}

}  // namespace

nlohmann::json editedCopyOf(const ObjectGenerator& generator, const nlohmann::json& object,
                            std::uint64_t seed) {
  // An update kube-apiserver accepts: the transition rules hold against the object edited.
  const ValidationRules* rules = generator.validationRules();
  nlohmann::json edited = editedCopyFrom(generator, object, seed);
  if (!rules || rules->empty()) return edited;
  rc::Random random(seed);
  for (int attempt = 0; attempt < 16 && !rules->hold(edited, &object); ++attempt)
    edited = editedCopyFrom(generator, object, random.split().next());
  return edited;
}

}  // namespace convcheck

#include "generators/schema_gen.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "generators/container_shapes.h"
#include "generators/format_check.h"
#include "generators/json_draw.h"
#include "generators/json_gen.h"
#include "generators/json_shrinkable.h"
#include "generators/metadata_gen.h"
#include "generators/number_gen.h"
#include "generators/pattern_strings.h"
#include "generators/string_gen.h"

namespace convcheck {

using nlohmann::json;
using JsonGen = JsonDrawGen;

double presenceProbability(FieldCoverage coverage, int size) {
  const double s = std::clamp(size / 35.0, 0.0, 1.0);
  switch (coverage) {
    case FieldCoverage::Minimal:
      return 0;
    case FieldCoverage::Sparse:
      return 0.4 * s;
    case FieldCoverage::Full:
      return 0.95 * s;
  }
  return 0;
}

unsigned drawMode(FieldCoverage coverage, bool unknownFields, bool longShapes) {
  return static_cast<unsigned>(coverage) | (unknownFields ? 4u : 0u) | (longShapes ? 8u : 0u);
}

FieldCoverage coverageOf(unsigned mode) { return static_cast<FieldCoverage>(mode & 3u); }

bool unknownFieldsOf(unsigned mode) { return (mode & 4u) != 0; }

bool longShapesOf(unsigned mode) { return (mode & 8u) != 0; }

namespace {

constexpr int kAttempts = 60;

std::string where(const SchemaNode& n) {
  return "openAPIV3Schema" + (n.schemaPath.empty() ? std::string() : "." + n.schemaPath);
}

// A failure that retrying cannot fix (an unsatisfiable node, or a node whose own retries are
// exhausted): enclosing retries pass it on at once instead of multiplying attempts per level.
struct PermanentFailure : rc::GenerationFailure {
  using rc::GenerationFailure::GenerationFailure;
};

JsonGen failing(std::string message) {
  return JsonGen([message](const rc::Random&, int, const DrawOptions&) -> JsonDraw {
    throw PermanentFailure(message);
  });
}

bool excluded(const SchemaNode& n, const json& v) {
  return std::find(n.excludedValues.begin(), n.excludedValues.end(), v) != n.excludedValues.end();
}

// The node's own constraints (children are valid by construction) plus generator steering.
LocalValidity localValidity(const SchemaNodePtr& node, CheckOptions opts) {
  opts.deep = false;
  return [node, opts](const json& v) {
    if (!node->excludedValues.empty() && excluded(*node, v)) return false;
    if (!node->forbiddenProperties.empty() && v.is_object())
      for (const auto& f : node->forbiddenProperties)
        if (v.contains(f)) return false;
    return checkValue(*node, v, "", nullptr, opts);
  };
}

// Draws from `inner` until the value satisfies `valid` (bounded), and keeps shrinks valid.
// Permanent failures below are passed on unless `acrossBranches` (junctor variants: another
// branch may still work).
JsonGen retrying(JsonGen inner, LocalValidity valid, std::string what,
                 bool acrossBranches = false) {
  return JsonGen([inner, valid, what, acrossBranches](const rc::Random& random, int size,
                                                      const DrawOptions& draw) {
    rc::Random r = random;
    std::string last;
    for (int i = 0; i < kAttempts; ++i) {
      auto s = inner(r.split(), size, draw);
      try {
        s.check();
        if (valid(s.value)) {
          if (draw.trees) s.tree = filterShrinks(std::move(*s.tree), valid);
          return s;
        }
        last = "last candidate violated the schema";
      } catch (const PermanentFailure& e) {
        if (!acrossBranches) throw;
        last = e.what();
      } catch (const rc::GenerationFailure& e) {
        last = e.what();
      }
    }
    throw PermanentFailure("no valid value for " + what + " after " + std::to_string(kAttempts) +
                           " attempts (" + last + ")");
  });
}

// Free-form JSON (json_gen's arbitraryJson), deep and wide now and then in the long-shapes mode.
JsonGen freeForm(int maxDepth, bool allowNull) {
  const JsonGen plain = drawOf(arbitraryJson(maxDepth, allowNull, false));
  const JsonGen shaped = drawOf(arbitraryJson(maxDepth, allowNull, true));
  return JsonGen([plain, shaped](const rc::Random& random, int size, const DrawOptions& draw) {
    return (longShapesOf(draw.mode) ? shaped : plain)(random, size, draw);
  });
}

JsonGen stringsToJson(rc::Gen<std::string> g) {
  return drawOf(rc::gen::map(std::move(g), [](std::string s) { return json(std::move(s)); }));
}

// ---- combinators --------------------------------------------------------------------------

std::shared_ptr<SchemaNode> copyOf(const SchemaNodePtr& n) {
  return std::make_shared<SchemaNode>(*n);
}

// A value-validation node that carries only the junctors of `b`.
SchemaNodePtr junctorsOf(const SchemaNode& b) {
  auto j = std::make_shared<SchemaNode>();
  j->schemaPath = b.schemaPath;
  j->valueValidation = true;
  j->allOf = b.allOf;
  j->anyOf = b.anyOf;
  j->oneOf = b.oneOf;
  j->notSchema = b.notSchema;
  return j;
}

void tightenMin(std::optional<std::uint64_t>& t, const std::optional<std::uint64_t>& b) {
  if (b && (!t || *b > *t)) t = b;
}
void tightenMax(std::optional<std::uint64_t>& t, const std::optional<std::uint64_t>& b) {
  if (b && (!t || *b < *t)) t = b;
}

// Folds the keywords of branch `b` into `t` (a conjunction). Junctors of `b` are appended to
// t.allOf and expanded when `t` is compiled. Constraints that cannot be folded (a second
// pattern) are left to the retry check against the original node.
void mergeInto(SchemaNode& t, const SchemaNode& b, bool presentProperties) {
  if (b.type != SchemaType::None) t.type = b.type;
  if (b.enumValues) {
    if (!t.enumValues) {
      t.enumValues = b.enumValues;
    } else {
      std::vector<json> both;
      for (const auto& v : *t.enumValues)
        if (std::find(b.enumValues->begin(), b.enumValues->end(), v) != b.enumValues->end())
          both.push_back(v);
      t.enumValues = both;
    }
  }
  for (const auto& r : b.required)
    if (!t.isRequired(r)) t.required.push_back(r);
  for (const auto& [k, bc] : b.properties) {
    auto it = t.properties.find(k);
    if (it == t.properties.end()) continue;
    auto c = copyOf(it->second);
    mergeInto(*c, *bc, false);
    it->second = c;
    if (presentProperties && !t.isRequired(k)) t.required.push_back(k);
  }
  if (b.items && t.items) {
    auto c = copyOf(t.items);
    mergeInto(*c, *b.items, false);
    t.items = c;
  }
  tightenMin(t.minLength, b.minLength);
  tightenMax(t.maxLength, b.maxLength);
  tightenMin(t.minItems, b.minItems);
  tightenMax(t.maxItems, b.maxItems);
  tightenMin(t.minProperties, b.minProperties);
  tightenMax(t.maxProperties, b.maxProperties);
  if (b.minimum && (!t.minimum || *b.minimum > *t.minimum)) {
    t.minimum = b.minimum;
    t.exclusiveMinimum = b.exclusiveMinimum;
  }
  if (b.maximum && (!t.maximum || *b.maximum < *t.maximum)) {
    t.maximum = b.maximum;
    t.exclusiveMaximum = b.exclusiveMaximum;
  }
  if (b.multipleOf && !t.multipleOf) t.multipleOf = b.multipleOf;
  if (b.pattern && !t.pattern) {
    t.pattern = b.pattern;
    t.patternRe = b.patternRe;
  }
  if (!b.format.empty() && (t.format.empty() || !isStringFormat(t.format))) t.format = b.format;
  t.uniqueItems = t.uniqueItems || b.uniqueItems;
  if (b.hasCombinators()) t.allOf.push_back(junctorsOf(b));
}

bool onlyRequired(const SchemaNode& x) {
  return !x.required.empty() && x.properties.empty() && !x.enumValues && !x.items &&
         !x.hasCombinators() && !x.pattern && x.format.empty() && !x.minimum && !x.maximum;
}
bool onlyEnum(const SchemaNode& x) {
  return x.enumValues && x.required.empty() && x.properties.empty() && !x.items &&
         !x.hasCombinators() && !x.pattern && x.format.empty();
}
bool onlyAnyOf(const SchemaNode& x) {
  return !x.anyOf.empty() && x.allOf.empty() && x.oneOf.empty() && !x.notSchema &&
         x.required.empty() && x.properties.empty() && !x.enumValues && !x.items;
}

// Steers `t` away from satisfying `x` where that is a simple matter (fields to leave out, values
// to avoid); anything else is left to the retry check.
void avoid(SchemaNode& t, const SchemaNode& x) {
  if (onlyRequired(x)) {
    for (const auto& r : x.required)
      if (!t.isRequired(r)) {
        if (std::find(t.forbiddenProperties.begin(), t.forbiddenProperties.end(), r) ==
            t.forbiddenProperties.end())
          t.forbiddenProperties.push_back(r);
        return;
      }
  } else if (onlyEnum(x)) {
    t.excludedValues.insert(t.excludedValues.end(), x.enumValues->begin(), x.enumValues->end());
  } else if (onlyAnyOf(x)) {
    for (const auto& b : x.anyOf) avoid(t, *b);
  }
  // Anything else (e.g. not {properties: …}) is left to the retry check.
}

struct Choice {
  std::vector<SchemaNodePtr> branches;
  bool exclusive;  // oneOf
};

// The variants of a node with junctors: allOf folded in, one branch chosen per anyOf/oneOf
// (all combinations up to a cap), `not` turned into steering.
std::vector<SchemaNodePtr> expandJunctors(const SchemaNodePtr& node) {
  SchemaNode base = *node;
  base.allOf.clear();
  base.anyOf.clear();
  base.oneOf.clear();
  base.notSchema.reset();
  std::vector<Choice> choices;
  std::vector<SchemaNodePtr> nots;
  std::vector<SchemaNodePtr> queue = {junctorsOf(*node)};
  while (!queue.empty()) {
    SchemaNodePtr j = queue.back();
    queue.pop_back();
    for (const auto& b : j->allOf) {
      SchemaNode plain = *b;
      plain.allOf.clear();
      plain.anyOf.clear();
      plain.oneOf.clear();
      plain.notSchema.reset();
      mergeInto(base, plain, false);
      if (b->hasCombinators()) queue.push_back(junctorsOf(*b));
    }
    if (!j->anyOf.empty()) choices.push_back({j->anyOf, false});
    if (!j->oneOf.empty()) choices.push_back({j->oneOf, true});
    if (j->notSchema) nots.push_back(j->notSchema);
  }
  std::size_t combos = 1;
  for (const auto& c : choices)
    combos = std::min<std::size_t>(combos * c.branches.size(), 1u << 20);
  const std::size_t limit = 48;
  const std::size_t stride = combos <= limit ? 1 : combos / limit;
  std::vector<SchemaNodePtr> variants;
  for (std::size_t combo = 0; combo < combos && variants.size() < limit; combo += stride) {
    auto v = std::make_shared<SchemaNode>(base);
    std::size_t rest = combo;
    for (const auto& c : choices) {
      const std::size_t k = rest % c.branches.size();
      rest /= c.branches.size();
      mergeInto(*v, *c.branches[k], c.exclusive);
      if (c.exclusive)
        for (std::size_t o = 0; o < c.branches.size(); ++o)
          if (o != k) avoid(*v, *c.branches[o]);
    }
    for (const auto& n : nots) avoid(*v, *n);
    variants.push_back(v);
  }
  return variants;
}

// ---- the fold -----------------------------------------------------------------------------

class Compiler {
 public:
  explicit Compiler(const SchemaGenEnv& env) : env_(env) {}

  JsonGen compile(const SchemaNodePtr& node) {
    if (node->hasCombinators()) {
      std::vector<JsonGen> gens;
      for (const auto& v : expandJunctors(node)) gens.push_back(compile(v));
      return retrying(pickDraw(std::move(gens)), localValidity(node, {}), where(*node), true);
    }
    JsonGen g = plain(node);
    // A field with a default sometimes carries exactly the default (what a write would store),
    // otherwise any valid value; it is never forced, since defaults apply only on write.
    if (node->defaultValue && checkValue(*node, *node->defaultValue, "", nullptr, {}))
      g = weightedDraw({{4, g}, {1, justDraw(*node->defaultValue)}});
    if (node->nullable &&
        (!node->enumValues || std::find(node->enumValues->begin(), node->enumValues->end(),
                                        json()) != node->enumValues->end())) {
      g = weightedDraw({{9, g}, {1, justDraw(json(nullptr))}});
    }
    return g;
  }

  JsonGen object(const SchemaNodePtr& node, std::map<std::string, FieldOverride> overrides,
                 CheckOptions check);

 private:
  const SchemaGenEnv& env_;

  JsonGen plain(const SchemaNodePtr& node) {
    if (node->enumValues) return enumGen(node);
    switch (node->type) {
      case SchemaType::Object:
        return object(node, {}, {});
      case SchemaType::Array:
        return array(node);
      case SchemaType::String:
        return retrying(strings(*node), localValidity(node, {}), where(*node));
      case SchemaType::Integer:
        return retrying(integers(*node), localValidity(node, {}), where(*node));
      case SchemaType::Number:
        return retrying(
            drawOf(numberValues(bounds(*node), normalizedFormat(node->format) == "float")),
            localValidity(node, {}), where(*node));
      case SchemaType::Boolean:
        return drawOf(rc::Gen<json>([](const rc::Random& random, int) {
          rc::Random r = random;
          const bool b = r.next() % 2 == 1;
          return b ? rc::shrinkable::just(json(true),
                                          rc::seq::just(rc::shrinkable::just(json(false))))
                   : rc::shrinkable::just(json(false));
        }));
      case SchemaType::None:
        break;
    }
    if (node->intOrString) {
      return retrying(pickDraw({integers(*node), strings(*node)}), localValidity(node, {}),
                      where(*node));
    }
    // x-kubernetes-preserve-unknown-fields without a type: any JSON (objects when properties
    // are specified).
    if (node->hasProperties || !node->required.empty()) return object(node, {}, {});
    return retrying(freeForm(2, false), localValidity(node, {}), where(*node));
  }

  static NumberBounds bounds(const SchemaNode& n) {
    return {n.minimum, n.maximum, n.exclusiveMinimum, n.exclusiveMaximum, n.multipleOf};
  }

  JsonGen integers(const SchemaNode& n) {
    if (normalizedFormat(n.format) == "int32")
      return drawOf(integerValues(bounds(n), IntegerWidth::Int32));
    const JsonGen int64 = drawOf(integerValues(bounds(n), IntegerWidth::Int64));
    if (!n.intOrString) return int64;
    // int-or-string values: mostly what Go's intstr.IntOrString holds (int32), but the API
    // server stores any int64, and a typed webhook that cannot decode one fails there.
    return weightedDraw({{3, drawOf(integerValues(bounds(n), IntegerWidth::Int32))}, {1, int64}});
  }

  JsonGen strings(const SchemaNode& n) {
    const std::size_t minLen = n.minLength.value_or(0);
    std::optional<std::size_t> maxLen;
    if (n.maxLength) maxLen = static_cast<std::size_t>(*n.maxLength);
    if (n.pattern && n.patternRe)
      return stringsToJson(env_.patterns->strings(*n.pattern, minLen, maxLen, where(n)));
    if (!n.format.empty())
      if (auto f = formatStrings(n.format, env_.mode.formats)) return stringsToJson(*f);
    return stringsToJson(plainStrings(minLen, maxLen));
  }

  JsonGen enumGen(const SchemaNodePtr& node) {
    std::vector<json> ok;
    SchemaNode withoutJunctors = *node;
    for (const auto& v : *node->enumValues) {
      if (excluded(*node, v)) continue;
      if (v.is_null() && !node->nullable) continue;
      if (!checkValue(withoutJunctors, v, "", nullptr, {})) continue;
      ok.push_back(v);
    }
    if (ok.empty()) {
      env_.notes->add("enum at " + where(*node) + " has no value satisfying the other keywords");
      return failing("enum at " + where(*node) + " has no usable value");
    }
    return drawOf(rc::Gen<json>([ok](const rc::Random& random, int) {
      rc::Random r = random;
      const std::size_t i = r.next() % ok.size();
      auto s = rc::shrinkable::shrinkRecur(i, [](std::size_t k) {
        return rc::seq::map(rc::seq::range<std::size_t>(0, k), [](std::size_t x) { return x; });
      });
      return rc::shrinkable::map(std::move(s), [ok](std::size_t k) { return ok[k]; });
    }));
  }

  JsonGen array(const SchemaNodePtr& node);
};

// ---- objects ------------------------------------------------------------------------------

struct FieldPlan {
  std::string name;
  JsonGen gen;
  bool required = false;
  bool never = false;
  bool always = false;    // present in every generated value
  bool removable = true;  // shrinking may drop it
};

struct ObjectPlan {
  SchemaNodePtr node;
  std::vector<FieldPlan> fields;
  std::optional<JsonGen> mapValues;  // additionalProperties
  LocalValidity valid;
  JsonGen unknownValues = freeForm(2, true);
};

JsonDraw generateObject(const ObjectPlan& plan, const rc::Random& random, int size,
                        const DrawOptions& draw) {
  const SchemaNode& n = *plan.node;
  const FieldCoverage coverage = coverageOf(draw.mode);
  // Unknown fields are added where the schema preserves them, when the mode asks for them.
  const bool unknownFields = n.preserveUnknownFields && unknownFieldsOf(draw.mode);
  rc::Random r = random;
  rc::Random dec = r.split();
  const double p = presenceProbability(coverage, size);
  auto chance = [&dec](double q) {
    return static_cast<double>(dec.next() % 1000000) < q * 1000000;
  };

  std::vector<const FieldPlan*> present, optionalAbsent;
  for (const auto& f : plan.fields) {
    if (f.never) continue;
    if (f.required || f.always || chance(p))
      present.push_back(&f);
    else
      optionalAbsent.push_back(&f);
  }
  std::size_t mapCount = 0, unknownCount = 0;
  int mapSize = elementSize(size), unknownSize = elementSize(size);
  if (plan.mapValues) {
    const ContainerSize extra = mapEntries(dec, coverage, longShapesOf(draw.mode), size);
    mapCount = n.minProperties.value_or(0) + extra.members;
    mapSize = extra.memberSize;
    if (coverage != FieldCoverage::Minimal && mapCount == 0 && chance(0.3)) mapCount = 1;
  }
  if (unknownFields && chance(0.6)) {
    const ContainerSize extra = mapEntries(dec, coverage, longShapesOf(draw.mode), size);
    unknownCount = std::max<std::size_t>(1 + dec.next() % 3, extra.members);
    unknownSize = extra.memberSize;
  }

  auto total = [&] { return present.size() + mapCount + unknownCount; };
  if (n.maxProperties) {
    while (total() > *n.maxProperties && unknownCount > 0) --unknownCount;
    while (total() > *n.maxProperties && mapCount > 0) --mapCount;
    for (auto it = present.end(); total() > *n.maxProperties && it != present.begin();) {
      --it;
      if (!(*it)->required && !(*it)->always) it = present.erase(it);
    }
  }
  if (n.minProperties) {
    for (auto* f : optionalAbsent) {
      if (total() >= *n.minProperties) break;
      present.push_back(f);
    }
    if (total() < *n.minProperties && plan.mapValues) mapCount += *n.minProperties - total();
    if (total() < *n.minProperties && n.preserveUnknownFields)
      unknownCount += *n.minProperties - total();
  }

  const int cs = childSize(size);
  std::vector<std::string> keys;
  std::vector<JsonDraw> draws;
  std::vector<bool> removables;
  // The first member that failed: the object fails with it once all members are drawn.
  std::exception_ptr failure;
  auto add = [&](std::string key, JsonDraw d, bool removable) {
    if (d.error && !failure) failure = d.error;
    keys.push_back(std::move(key));
    draws.push_back(std::move(d));
    removables.push_back(removable);
  };
  for (const auto* f : present) {
    auto s = f->gen(r.split(), cs, draw);
    const bool removable = f->removable;
    if (removable) {
      try {
        s.check();
      } catch (const rc::GenerationFailure&) {
        continue;  // an optional field whose value cannot be generated stays out
      }
    }
    add(f->name, std::move(s), removable);
  }
  // Names a fresh key must avoid: the schema's properties, forbidden names and the members so far.
  auto used = [&](const std::string& k) {
    if (n.properties.count(k)) return true;
    for (const auto& f : n.forbiddenProperties)
      if (f == k) return true;
    for (const auto& m : keys)
      if (m == k) return true;
    return false;
  };
  auto freshKey = [&](const rc::Gen<std::string>& keys) -> std::optional<std::string> {
    for (int i = 0; i < 20; ++i) {
      std::string k = keys(r.split(), size).value();
      if (!used(k) && k != "apiVersion" && k != "kind" && k != "metadata") return k;
    }
    return std::nullopt;
  };
  for (std::size_t i = 0; i < mapCount; ++i) {
    auto key = freshKey(mapKeys());
    if (!key) break;
    add(*key, (*plan.mapValues)(r.split(), mapSize, draw), true);
  }
  for (std::size_t i = 0; i < unknownCount; ++i) {
    auto key = freshKey(unknownFieldNames());
    if (!key) break;
    add(*key, plan.unknownValues(r.split(), unknownSize, draw), true);
  }
  if (failure) return JsonDraw::failed(failure);
  json value = json::object();
  for (std::size_t i = 0; i < keys.size(); ++i) value[keys[i]] = std::move(draws[i].value);
  if (!draw.trees) return JsonDraw{std::move(value), nullptr, std::nullopt};
  std::vector<JsonMember> members;
  members.reserve(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    members.push_back({std::move(keys[i]), std::move(*draws[i].tree), removables[i]});
  return JsonDraw{std::move(value), nullptr, lazyObjectShrinkable(std::move(members), plan.valid)};
}

JsonGen Compiler::object(const SchemaNodePtr& node, std::map<std::string, FieldOverride> overrides,
                         CheckOptions check) {
  auto plan = std::make_shared<ObjectPlan>();
  plan->node = node;
  plan->valid = localValidity(node, check);
  auto forbidden = [&](const std::string& k) {
    return std::find(node->forbiddenProperties.begin(), node->forbiddenProperties.end(), k) !=
           node->forbiddenProperties.end();
  };
  std::set<std::string> planned;
  auto addField = [&](const std::string& name, JsonGen gen, bool required) {
    FieldPlan f{name, std::move(gen), required, forbidden(name), false, !required};
    if (auto o = overrides.find(name); o != overrides.end()) {
      if (o->second.gen) f.gen = *o->second.gen;
      if (o->second.presence == Presence::Always) f.always = true, f.removable = false;
      if (o->second.presence == Presence::Included) f.always = true;
      if (o->second.presence == Presence::Never) f.never = true;
    }
    if (f.required && f.never) f.never = false;  // the schema wins
    plan->fields.push_back(std::move(f));
    planned.insert(name);
  };
  for (const auto& [name, child] : node->properties) {
    if (node->embeddedResource && name == "metadata" && !overrides.count(name)) {
      addField(name, drawOf(embeddedObjectMeta()), node->isRequired(name));
    } else if (overrides.count(name) && overrides[name].gen) {
      addField(name, *overrides[name].gen, node->isRequired(name));
    } else if (overrides.count(name) && overrides[name].presence == Presence::Never &&
               !node->isRequired(name)) {
      addField(name, failing("field " + name + " is never generated"), false);
    } else {
      addField(name, compile(child), node->isRequired(name));
    }
  }
  // Embedded resources carry apiVersion, kind and (optionally) metadata like a top-level object.
  if (node->embeddedResource) {
    static const std::vector<std::pair<std::string, std::string>> kGvks = {
        {"v1", "ConfigMap"},
        {"apps/v1", "Deployment"},
        {"example.com/v1alpha1", "Widget"},
        {"batch/v1", "Job"},
        {"fn.example.io/v1beta1", "Input"}};
    auto gvk = rc::gen::elementOf(kGvks);
    if (!planned.count("apiVersion"))
      addField("apiVersion", drawOf(rc::gen::map(gvk, [](auto p) { return json(p.first); })), true);
    if (!planned.count("kind"))
      addField("kind", drawOf(rc::gen::map(gvk, [](auto p) { return json(p.second); })), true);
    if (!planned.count("metadata")) addField("metadata", drawOf(embeddedObjectMeta()), false);
  }
  for (const auto& [name, o] : overrides)
    if (!planned.count(name) && o.gen) addField(name, *o.gen, false);
  // Required names without a property schema: values from additionalProperties or any JSON.
  for (const auto& r : node->required) {
    if (planned.count(r)) continue;
    if (node->additionalProperties)
      addField(r, compile(node->additionalProperties), true);
    else if (node->preserveUnknownFields)
      addField(r, freeForm(1, false), true);
    else
      addField(r, failing("required field " + r + " at " + where(*node) + " has no schema"), true);
  }
  if (node->additionalProperties)
    plan->mapValues = compile(node->additionalProperties);
  else if (node->additionalPropertiesBool && *node->additionalPropertiesBool)
    plan->mapValues = freeForm(1, true);

  const JsonGen gen([plan](const rc::Random& random, int size, const DrawOptions& draw) {
    return generateObject(*plan, random, size, draw);
  });
  return retrying(gen, plan->valid, where(*node));
}

// ---- arrays -------------------------------------------------------------------------------

JsonGen Compiler::array(const SchemaNodePtr& node) {
  SchemaNodePtr itemNode = node->items;
  if (node->listType == "map" && itemNode) {
    // Every generated map entry carries its keys, so uniqueness never depends on defaults.
    auto withKeys = copyOf(itemNode);
    for (const auto& k : node->listMapKeys)
      if (!withKeys->isRequired(k) && withKeys->property(k)) withKeys->required.push_back(k);
    itemNode = withKeys;
  }
  const JsonGen items = itemNode ? compile(itemNode) : freeForm(1, false);
  const bool unique = node->uniqueItems || node->listType == "set" || node->listType == "map";
  const std::vector<std::string> keys =
      node->listType == "map" ? node->listMapKeys : std::vector<std::string>{};
  const std::size_t minItems = node->minItems.value_or(0);
  const std::optional<std::uint64_t> maxItems = node->maxItems;
  auto valid = localValidity(node, {});
  const std::vector<std::string> repeatable = repeatableKeyFields(*node);
  const LocalValidity itemValid = itemNode ? localValidity(itemNode, {}) : LocalValidity();
  const std::string what = where(*node);
  const JsonGen gen([=](const rc::Random& random, int size, const DrawOptions& draw) {
    rc::Random r = random;
    rc::Random dec = r.split();
    const ContainerSize length =
        listLength(dec, coverageOf(draw.mode), longShapesOf(draw.mode), size, minItems, maxItems);
    const std::size_t n = length.members;
    std::vector<rc::Shrinkable<json>> out;
    std::size_t count = 0;
    json value = json::array();
    std::set<std::string> seen;
    std::string failure;
    for (std::size_t attempt = 0; count < n && attempt < n * 4 + 8; ++attempt) {
      auto s = items(r.split(), length.memberSize, draw);
      try {
        s.check();
      } catch (const rc::GenerationFailure& e) {
        failure = e.what();
        continue;
      }
      const json& v = s.value;
      if (unique) {
        std::string id;
        if (!keys.empty() && v.is_object()) {
          json k = json::array();
          for (const auto& key : keys) k.push_back(v.contains(key) ? v[key] : json());
          id = k.dump();
        } else {
          id = v.dump();
        }
        if (!seen.insert(std::move(id)).second) continue;
      }
      value.push_back(std::move(s.value));
      if (draw.trees) out.push_back(std::move(*s.tree));
      ++count;
    }
    if (count < minItems)
      throw rc::GenerationFailure("cannot generate " + std::to_string(minItems) + " items for " +
                                  what + (failure.empty() ? "" : " (" + failure + ")"));
    if (!repeatable.empty())
      repeatKeyFields(dec, repeatable, value, draw.trees ? &out : nullptr, itemValid, valid);
    if (!draw.trees) return JsonDraw{std::move(value), nullptr, std::nullopt};
    return JsonDraw{std::move(value), nullptr,
                    lazyArrayShrinkable(std::move(out), minItems, valid)};
  });
  return retrying(gen, valid, what);
}

}  // namespace

JsonDrawGen schemaDrawsForAnyMode(const SchemaNodePtr& node, const SchemaGenEnv& env) {
  Compiler c(env);
  return c.compile(node);
}

JsonDrawGen schemaDraws(const SchemaNodePtr& node, const SchemaGenEnv& env) {
  return bindMode(schemaDrawsForAnyMode(node, env),
                  drawMode(env.mode.coverage, env.mode.unknownFields, env.mode.longShapes));
}

rc::Gen<json> schemaGen(const SchemaNodePtr& node, const SchemaGenEnv& env) {
  return genOf(schemaDraws(node, env));
}

JsonDrawGen objectSchemaDraws(const SchemaNodePtr& node, const SchemaGenEnv& env,
                              std::map<std::string, FieldOverride> overrides, CheckOptions check) {
  Compiler c(env);
  return bindMode(c.object(node, std::move(overrides), check),
                  drawMode(env.mode.coverage, env.mode.unknownFields, env.mode.longShapes));
}

}  // namespace convcheck

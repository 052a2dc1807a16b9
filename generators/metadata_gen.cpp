#include "generators/metadata_gen.h"

#include <set>

#include "generators/format_gen.h"
#include "generators/json_shrinkable.h"
#include "generators/schema_check.h"
#include "generators/string_gen.h"
#include "kube/go/utf8.h"

namespace convcheck {

using nlohmann::json;

namespace {

std::uint64_t below(rc::Random& r, std::uint64_t n) { return r.next() % n; }

constexpr const char* kWords[] = {"web",   "api",     "cache", "db",     "worker", "frontend",
                                  "alpha", "payment", "edge",  "ingest", "batch",  "x"};
std::string word(rc::Random& r) { return kWords[below(r, sizeof(kWords) / sizeof(*kWords))]; }

std::string hex(rc::Random& r, int n) {
  static constexpr char h[] = "0123456789abcdef";
  std::string s;
  for (int i = 0; i < n; ++i) s += h[below(r, 16)];
  return s;
}

rc::Gen<std::string> picked(std::string simplest, std::function<std::string(rc::Random&)> f) {
  return rc::Gen<std::string>([simplest, f](const rc::Random& random, int) {
    rc::Random r = random;
    std::string v = f(r);
    if (v == simplest) return rc::shrinkable::just(v);
    return rc::shrinkable::just(v, rc::seq::just(rc::shrinkable::just(simplest)));
  });
}

rc::Gen<json> asJson(rc::Gen<std::string> g) {
  return rc::gen::map(std::move(g), [](std::string s) { return json(std::move(s)); });
}

std::string dnsPrefix(rc::Random& r) {
  static constexpr const char* kDomains[] = {"example.com", "app.kubernetes.io", "k8s.io",
                                             "acme.example.org", "a.b.c"};
  return kDomains[below(r, 5)];
}

std::string qualifiedName(rc::Random& r) {
  std::string name = word(r);
  switch (below(r, 4)) {
    case 0:
      name += "_" + std::to_string(below(r, 100));
      break;
    case 1:
      name += "." + word(r);
      break;
    case 2:
      name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
      break;
    default:
      break;
  }
  return below(r, 2) ? dnsPrefix(r) + "/" + name : name;
}

std::string labelValue(rc::Random& r) {
  switch (below(r, 6)) {
    case 0:
      return "";
    case 1:
      return "v" + std::to_string(below(r, 10)) + "." + std::to_string(below(r, 30));
    case 2:
      return std::string(63, 'a');
    default:
      return word(r) + "-" + std::to_string(below(r, 1000));
  }
}

// A map of 1..max distinct keys from `key` with values from `value`; entries shrink away down to 1.
rc::Gen<json> stringMap(std::function<std::string(rc::Random&)> key,
                        std::function<std::string(rc::Random&)> value, int max) {
  return rc::Gen<json>([key, value, max](const rc::Random& random, int) {
    rc::Random r = random;
    const int n = 1 + static_cast<int>(below(r, max));
    std::vector<JsonMember> members;
    std::set<std::string> keys;
    for (int i = 0; i < n * 3 && static_cast<int>(members.size()) < n; ++i) {
      std::string k = key(r);
      if (!keys.insert(k).second) continue;
      members.push_back({k, rc::shrinkable::just(json(value(r))), true});
    }
    return objectShrinkable(std::move(members), [](const json& v) { return !v.empty(); });
  });
}

std::string annotationValue(rc::Random& r) {
  switch (below(r, 6)) {
    case 0:
      return "";
    case 1:
      return R"({"apiVersion":"example.com/v1","kind":"Thing","spec":{"replicas":3}})";
    case 2:
      return "multi-line\nnote with \"quotes\" and unicode " + encodeRune(0x65E5) +
             encodeRune(0x1F600);
    case 3:
      return std::string(300, 'z');
    default:
      return word(r) + " " + std::to_string(below(r, 100000));
  }
}

struct Field {
  std::string key;
  rc::Gen<json> gen;
  bool required;
  double probability;
};

rc::Gen<json> composite(std::vector<Field> fields, LocalValidity valid) {
  return rc::Gen<json>([fields, valid](const rc::Random& random, int size) {
    rc::Random r = random;
    rc::Random dec = r.split();
    std::vector<JsonMember> members;
    for (const auto& f : fields) {
      const bool present =
          f.required || static_cast<double>(below(dec, 1000)) < f.probability * 1000;
      auto s = f.gen(r.split(), size);
      if (present) members.push_back({f.key, std::move(s), !f.required});
    }
    return objectShrinkable(std::move(members), valid);
  });
}

template <typename T>
rc::Gen<json> listOf(rc::Gen<json> item, int max, std::function<T(const json&)> identity) {
  return rc::Gen<json>([item, max, identity](const rc::Random& random, int size) {
    rc::Random r = random;
    rc::Random dec = r.split();
    const int n = 1 + static_cast<int>(below(dec, max));
    std::vector<rc::Shrinkable<json>> items;
    std::set<T> seen;
    for (int i = 0; i < n * 3 && static_cast<int>(items.size()) < n; ++i) {
      auto s = item(r.split(), size);
      if (!seen.insert(identity(s.value())).second) continue;
      items.push_back(std::move(s));
    }
    return arrayShrinkable(std::move(items), 1, nullptr);
  });
}

constexpr char kDns1123Alnum[] = "abcdefghijklmnopqrstuvwxyz0123456789";

char dnsAlnum(rc::Random& r) { return kDns1123Alnum[below(r, sizeof(kDns1123Alnum) - 1)]; }

// A name of exactly `length` characters from the whole DNS-1123 alphabet: [a-z0-9] first and
// last, '-' and (when `dots`) '.' inside, a '.' only between two of [a-z0-9] (a subdomain's
// labels are joined by dots; a label has no dots).
std::string anyDns1123(rc::Random& r, std::size_t length, bool dots) {
  std::string s;
  s.reserve(length);
  for (std::size_t i = 0; i < length; ++i) {
    const bool inside = i > 0 && i + 1 < length;
    const char previous = i > 0 ? s.back() : 'a';
    const auto c = inside ? below(r, 100) : 100;
    if (c < 15 && previous != '.')
      s += '-';
    else if (c < 30 && dots && previous != '-' && previous != '.')
      s += '.';
    else
      s += dnsAlnum(r);
  }
  return s;
}

// The lengths name rules care about (1, the 63 of a label, `longest`) now and then, else short.
std::size_t dns1123Length(rc::Random& r, std::size_t longest) {
  switch (below(r, 8)) {
    case 0:
      return longest;
    case 1:
      return 63;
    case 2:
      return 1;
    default:
      return 2 + below(r, 30);
  }
}

// Label keys and values as tools set them (app.kubernetes.io/*, Helm's), or any qualified name.
std::string labelKey(rc::Random& r) {
  static constexpr const char* kKeys[] = {"app.kubernetes.io/name",
                                          "app.kubernetes.io/instance",
                                          "app.kubernetes.io/version",
                                          "app.kubernetes.io/component",
                                          "app.kubernetes.io/part-of",
                                          "app.kubernetes.io/managed-by",
                                          "helm.sh/chart",
                                          "app",
                                          "tier",
                                          "environment"};
  return below(r, 2) ? std::string(kKeys[below(r, sizeof(kKeys) / sizeof(*kKeys))])
                     : qualifiedName(r);
}

std::string storedLabelValue(rc::Random& r) {
  switch (below(r, 5)) {
    case 0:
      return "Helm";
    case 1:
      return word(r) + "-" + std::to_string(below(r, 10)) + "." + std::to_string(below(r, 30)) +
             "." + std::to_string(below(r, 10));
    default:
      return labelValue(r);
  }
}

// Annotation keys and values as controllers and deploy tools leave them.
std::string storedAnnotationKey(rc::Random& r) {
  static constexpr const char* kKeys[] = {
      "meta.helm.sh/release-name",      "meta.helm.sh/release-namespace",
      "argocd.argoproj.io/tracking-id", "deployment.kubernetes.io/revision",
      "example.com/config-hash",        "kubernetes.io/description"};
  return below(r, 2) ? std::string(kKeys[below(r, sizeof(kKeys) / sizeof(*kKeys))])
                     : qualifiedName(r);
}

std::string storedAnnotationValue(rc::Random& r) {
  switch (below(r, 8)) {
    case 0:
      return word(r) + ":example.com/Widget:" + word(r) + "/" + word(r) + "-" +
             std::to_string(below(r, 100));
    case 1:
      return "sha256:" + hex(r, 64);
    case 2:
      return "Managed by " + word(r) + "; see https://example.com/docs?topic=" + word(r) +
             "&lang=en#" + word(r);
    default:
      return annotationValue(r);
  }
}

// managedFields as the API server keeps them: the manager that created the object (kubectl
// apply, client or server side, helm, Argo CD, kubectl create, an operator), sometimes a later
// kubectl edit and kubectl label, a controller (finalizers, owner references) and a status
// writer. fieldsV1 is left empty: withAppliedMetadata fills it from the object. Entries shrink
// away down to one (the field itself is optional).
rc::Gen<json> managedFieldsEntries(std::vector<std::string> apiVersions, std::string own) {
  return rc::Gen<json>([apiVersions, own](const rc::Random& random, int size) {
    rc::Random gens = random;
    rc::Random r = gens.split();
    auto entry = [&](const char* manager, const char* operation, bool status) {
      const std::string version =
          !own.empty() && below(r, 4) != 0 ? own : apiVersions[below(r, apiVersions.size())];
      json e = {{"manager", manager},       {"operation", operation},
                {"apiVersion", version},    {"time", rfc3339Seconds()(gens.split(), size).value()},
                {"fieldsType", "FieldsV1"}, {"fieldsV1", json::object()}};
      if (status) e["subresource"] = "status";
      return rc::shrinkable::just(std::move(e));
    };
    static constexpr std::pair<const char*, const char*> kCreators[] = {
        {"kubectl-client-side-apply", "Update"},
        {"kubectl-client-side-apply", "Update"},
        {"kubectl-client-side-apply", "Update"},
        {"kubectl", "Apply"},
        {"helm", "Update"},
        {"argocd-controller", "Apply"},
        {"kubectl-create", "Update"},
        {"example-operator", "Update"}};
    const auto& creator = kCreators[below(r, sizeof(kCreators) / sizeof(*kCreators))];
    std::vector<rc::Shrinkable<json>> items;
    items.push_back(entry(creator.first, creator.second, false));
    if (below(r, 4) == 0) items.push_back(entry("kubectl-edit", "Update", false));
    if (below(r, 5) == 0) items.push_back(entry("kubectl-label", "Update", false));
    if (below(r, 3) == 0) items.push_back(entry("manager", "Update", false));
    if (below(r, 5) < 3) items.push_back(entry("manager", "Update", true));
    return arrayShrinkable(std::move(items), 1, nullptr);
  });
}

rc::Gen<json> storedAnnotationMaps() {
  return stringMap(storedAnnotationKey, storedAnnotationValue, 4);
}

}  // namespace

rc::Gen<std::string> dns1123Names() {
  return picked("a", [](rc::Random& r) {
    std::string s;
    switch (below(r, 10)) {
      case 7:
      case 8:
      case 9:  // any character of the alphabet in any position, at the lengths that matter
        s = anyDns1123(r, dns1123Length(r, 253), true);
        break;
      case 0:
        s = word(r);
        break;
      case 1:
        s = word(r) + "-" + std::to_string(below(r, 100));  // ends in digits
        break;
      case 2:
        s = word(r) + "-" + hex(r, 5);
        break;
      case 3:
        s = word(r) + "." + word(r) + ".example.com";
        break;
      case 4:
        s = std::to_string(below(r, 1000)) + "-" + word(r);
        break;
      case 5: {  // long names up to the 253-character limit
        while (s.size() < 200) s += word(r) + "-" + hex(r, 8) + ".";
        s += "end";
        break;
      }
      default:
        s = word(r) + "-" + word(r) + "-" + std::to_string(below(r, 10));
        break;
    }
    return s;
  });
}

rc::Gen<std::string> namespaceNames() {
  return picked("default", [](rc::Random& r) {
    static constexpr const char* kNs[] = {"default", "kube-system", "team-a", "prod", "ns1"};
    switch (below(r, 6)) {
      case 0:
      case 1:
        return word(r) + "-" + std::to_string(below(r, 100));
      case 2:
        return anyDns1123(r, dns1123Length(r, 63), false);
      default:
        return std::string(kNs[below(r, 5)]);
    }
  });
}

rc::Gen<std::string> uids() {
  return picked("00000000-0000-4000-8000-000000000000", [](rc::Random& r) {
    return hex(r, 8) + "-" + hex(r, 4) + "-4" + hex(r, 3) + "-" +
           std::string(1, "89ab"[below(r, 4)]) + hex(r, 3) + "-" + hex(r, 12);
  });
}

rc::Gen<json> labelMaps() { return stringMap(labelKey, storedLabelValue, 8); }

rc::Gen<json> annotationMaps() {
  return stringMap(
      [](rc::Random& r) {
        return below(r, 5) == 0 ? std::string("kubectl.kubernetes.io/last-applied-configuration")
                                : qualifiedName(r);
      },
      annotationValue, 3);
}

rc::Gen<json> objectMeta(const MetadataOptions& o) {
  std::vector<std::string> apiVersions =
      o.apiVersions.empty() ? std::vector<std::string>{"example.com/v1"} : o.apiVersions;
  const double p = o.minimal ? 0.0 : o.optionalProbability;

  rc::Gen<json> name = asJson(dns1123Names());
  if (o.nameSchema) {
    SchemaNodePtr ns = o.nameSchema;
    name = rc::gen::suchThat(name,
                             [ns](const json& v) { return checkValue(*ns, v, "", nullptr, {}); });
  }
  auto generation = rc::Gen<json>([](const rc::Random& random, int) {
    rc::Random r = random;
    const std::int64_t g =
        below(r, 2) == 0 ? 1
                         : 1 + static_cast<std::int64_t>(below(r, below(r, 4) == 0 ? 1000000 : 20));
    auto s = rc::shrinkable::shrinkRecur(g, [](std::int64_t v) {
      return v > 1 ? rc::seq::just<std::int64_t>(1) : rc::Seq<std::int64_t>();
    });
    return rc::shrinkable::map(std::move(s), [](std::int64_t v) { return json(v); });
  });
  auto resourceVersion =
      asJson(picked("1", [](rc::Random& r) { return std::to_string(1 + below(r, 99999999)); }));
  auto finalizers =
      listOf<std::string>(asJson(picked("example.com/cleanup",
                                        [](rc::Random& r) {
                                          switch (below(r, 5)) {
                                            case 0:
                                              return std::string("foregroundDeletion");
                                            default:
                                              return dnsPrefix(r) + "/" + word(r) + "-finalizer";
                                          }
                                        })),
                          2, [](const json& v) { return v.get<std::string>(); });
  auto ownerRef = rc::Gen<json>([apiVersions](const rc::Random& random, int size) {
    rc::Random gens = random;
    rc::Random r = gens.split();
    json ref = {{"apiVersion",
                 below(r, 2) ? std::string("apps/v1") : apiVersions[below(r, apiVersions.size())]},
                {"kind", below(r, 2) ? "ReplicaSet" : "Owner"},
                {"name", dns1123Names()(gens.split(), size).value()},
                {"uid", uids()(gens.split(), size).value()}};
    if (below(r, 2)) ref["blockOwnerDeletion"] = below(r, 2) == 0;
    return rc::shrinkable::just(ref);
  });
  auto ownerReferences = rc::gen::map(
      listOf<std::string>(ownerRef, 2, [](const json& v) { return v["uid"].get<std::string>(); }),
      [](json refs) {
        // At most one controller reference.
        for (std::size_t i = 0; i < refs.size(); ++i) refs[i]["controller"] = i == 0;
        return refs;
      });
  auto managedFields = managedFieldsEntries(apiVersions, o.apiVersion);

  const double tagged = o.listed ? std::max(p, 0.8) : p;
  std::vector<Field> fields = {
      {"name", name, true, 1},
      {"uid", asJson(uids()), true, 1},
      {"creationTimestamp", asJson(rfc3339Seconds()), true, 1},
      {"generation", generation, true, 1},
      {"resourceVersion", resourceVersion, false, o.listed ? 1.0 : p},
      {"labels", labelMaps(), false, tagged},
      {"annotations", storedAnnotationMaps(), false, tagged},
      {"finalizers", finalizers, false, p * 0.5},
      {"ownerReferences", ownerReferences, false, p * 0.5},
      {"managedFields", managedFields, false,
       o.minimal  ? 0.0
       : o.listed ? 1.0
                  : std::max(p, 0.85)},
  };
  if (o.namespaced) fields.push_back({"namespace", asJson(namespaceNames()), true, 1});
  return composite(std::move(fields), nullptr);
}

rc::Gen<json> embeddedObjectMeta() {
  return composite({{"name", asJson(dns1123Names()), true, 1},
                    {"namespace", asJson(namespaceNames()), false, 0.3},
                    {"labels", labelMaps(), false, 0.4},
                    {"annotations", annotationMaps(), false, 0.3}},
                   nullptr);
}

}  // namespace convcheck

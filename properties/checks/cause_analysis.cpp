#include "properties/checks/cause_analysis.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "kube/apiserver/group_version.h"
#include "kube/go/utf8.h"
#include "properties/checks/json_diff.h"
#include "properties/checks/problem_identity.h"
#include "properties/checks/property_registry.h"

namespace convcheck {

using nlohmann::json;

const char* severityName(Severity severity) {
  switch (severity) {
    case Severity::DataLoss:
      return "data loss";
    case Severity::Outage:
      return "outage";
    case Severity::Rejected:
      return "rejected";
    case Severity::Invented:
      return "invented data";
    case Severity::Cosmetic:
      return "cosmetic";
  }
  return "data loss";
}

namespace {

std::string shortValue(const json& value) {
  std::string s = value.dump(-1, ' ', false, json::error_handler_t::replace);
  return shortenUtf8(s, 60);
}

// The problem of a value at `path` that differs: the path without trailing list items, so that
// entries added to a list and a whole list added are one problem.
std::string fieldProblem(std::string path) {
  while (path.size() > 3 && path.compare(path.size() - 3, 3, "[*]") == 0)
    path.resize(path.size() - 3);
  return "field|" + path;
}

// How kube-apiserver fails a request the webhook's answer breaks: a Failure answer rejects the
// inputs the webhook cannot convert; every other stage fails whatever was sent.
Severity rejectionSeverity(ModelStage stage) {
  return stage == ModelStage::ResultStatus ? Severity::Rejected : Severity::Outage;
}

// Severity of a failure that shows no differing value and no rejection.
Severity plainSeverity(const std::string& id) {
  const Property* property = findProperty(id);
  return property != nullptr ? property->severity : Severity::DataLoss;
}

std::string rejectionStage(const Exchange& ex) {
  std::string stage = modelStageName(ex.verdict.stage);
  if (ex.verdict.stage == ModelStage::Transport)
    stage += std::string(":") + transportErrorKindName(ex.http.transportErrorKind);
  if (ex.verdict.stage == ModelStage::HttpStatus) stage += fmt::format(":{}", ex.http.status);
  return stage;
}

// A whole labels or annotations map added or lost stands for each of its keys, so that an
// annotation the webhook adds is one cause whether or not the object had annotations before.
std::vector<DiffLine> labelAndAnnotationKeys(std::vector<DiffLine> lines) {
  std::vector<DiffLine> out;
  for (auto& line : lines) {
    const json& map = line.missing ? line.expected : line.got;
    const bool whole = (line.missing || line.added) && map.is_object() && line.steps.size() == 2 &&
                       line.steps[0].key == "metadata" &&
                       (line.steps[1].key == "labels" || line.steps[1].key == "annotations");
    if (!whole) {
      out.push_back(std::move(line));
      continue;
    }
    for (auto it = map.begin(); it != map.end(); ++it) {
      DiffLine each = line;
      each.path = diffChildPath(line.path, it.key());
      each.steps.push_back({it.key()});
      (line.missing ? each.expected : each.got) = it.value();
      out.push_back(std::move(each));
    }
  }
  return out;
}

// The string values of the objects of a case's first request, by path: which objects were written
// with a value at a path (made once per finding, when a difference could be one).
class InputStrings {
 public:
  explicit InputStrings(const SharedObjects& input) {
    for (const auto& object : input) {
      std::string at;
      add(object, at, identityOf(object));
    }
    objects_ = input.size();
  }

  // An object's namespace and name, as elsewhere() takes them.
  static std::string identityOf(const json& object) {
    const auto meta = object.find("metadata");
    if (meta == object.end() || !meta->is_object()) return {};
    return meta->value("name", "") + '\0' + meta->value("namespace", "");
  }

  // Whether an object other than the one named `identity` was written with `value` at `steps`,
  // and not every object of the request was (a value all hold is nobody's in particular).
  bool elsewhere(const std::vector<PathStep>& steps, const std::string& value,
                 const std::string& identity) const {
    auto found = holders_.find(keyOf(steps) + kValueMark + value);
    if (found == holders_.end()) return false;
    const Holders& h = found->second;
    if (objects_ > 1 && h.count == objects_) return false;
    return h.first != identity || (h.second && *h.second != identity);
  }

 private:
  // Marks in the index's keys that no Kubernetes name or key holds: a key "a.b" and the path a, b
  // stay apart.
  static constexpr char kValueMark = '\x1f';
  static constexpr char kKeyMark = '\x1e';
  static constexpr char kIndexMark = '\x1d';
  // Leaves indexed at most: a LIST chunk of large objects is indexed up to this many.
  static constexpr std::size_t kMaxLeaves = 200000;
  struct Holders {
    std::size_t count = 0;
    std::string first;                  // the first two distinct objects that hold the value
    std::optional<std::string> second;  // (enough to tell "another object" from "this one")
  };

  static std::string keyOf(const std::vector<PathStep>& steps) {
    std::string key;
    for (const auto& step : steps)
      key += step.isIndex ? kIndexMark + std::to_string(step.index) : kKeyMark + step.key;
    return key;
  }

  void add(const json& value, std::string& at, const std::string& identity) {
    if (leaves_ >= kMaxLeaves) return;
    if (value.is_string()) {
      ++leaves_;
      Holders& h = holders_[at + kValueMark + value.get_ref<const std::string&>()];
      if (h.count++ == 0)
        h.first = identity;
      else if (!h.second && h.first != identity)
        h.second = identity;
      return;
    }
    const std::size_t length = at.size();
    if (value.is_object()) {
      for (const auto& [key, child] : value.items()) {
        at += kKeyMark + key;
        add(child, at, identity);
        at.resize(length);
      }
    } else if (value.is_array()) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        at += kIndexMark + std::to_string(i);
        add(value[i], at, identity);
        at.resize(length);
      }
    }
  }

  std::unordered_map<std::string, Holders> holders_;
  std::size_t leaves_ = 0;
  std::size_t objects_ = 0;
};

// Whether the value `line` added or changed is what another object of the case's first request
// was written with at the same path (an annotation of the object before it in the batch): another
// object's data in this one. Only strings count, added or changed to one of three or more
// characters (a shared "a" or 0 is chance). What the other object was written with, not what the
// webhook made of it: two values it truncated alike, or an annotation it stamps on every object,
// would look alike. `input` is made on first use.
bool fromAnotherObject(const Finding& f, const DiffLine& line, std::optional<InputStrings>& input) {
  constexpr std::size_t kDistinctive = 3;
  if (line.missing || !line.got.is_string()) return false;
  // A changed value of three or more characters (two values of "ab" are chance), or any value
  // under a key the object did not have (an annotation "db": "" of the object before it: the
  // webhook wrote the key, and another object was written with it).
  if (!line.added && line.got.get_ref<const std::string&>().size() < kDistinctive) return false;
  if (!f.expected.is_object() || !f.expected.contains("metadata")) return false;
  if (f.exchanges.empty()) return false;
  if (!f.expected["metadata"].is_object()) return false;
  if (!input) input.emplace(f.exchanges.front()->sent.objects);
  return input->elsewhere(line.steps, line.got.get_ref<const std::string&>(),
                          InputStrings::identityOf(f.expected));
}

void diffCauses(const Finding& f, const SchemaLookup& schemaOf, std::vector<Cause>& out) {
  const json* schema = nullptr;
  if (schemaOf) schema = schemaOf(objectVersion(f.expected));
  const Property* property = findProperty(f.property);
  const bool metadataProperty = property != nullptr && property->aboutMetadata;
  std::optional<InputStrings> input;
  for (const auto& line : labelAndAnnotationKeys(jsonDiff(f.expected, f.got))) {
    if (isFloat64Rounding(line.expected, line.got)) {
      out.push_back(
          {f.property + "|float64", Severity::DataLoss, float64Title(line.expected, line.got), {}});
      continue;
    }
    const std::string path = normalisedPath(line.steps, schema);
    bool inMetadata = metadataProperty;
    for (const auto& step : line.steps)
      if (!step.isIndex) {
        inMetadata |= step.key == "metadata";
        break;
      }
    // Another object's value in this one: a batch bug (state kept across the loop), which hands
    // one client's data to another: one problem per section it lands in, never cosmetic.
    if (fromAnotherObject(f, line, input)) {
      std::string section;
      for (std::size_t i = 0; i < line.steps.size() && i < 2; ++i)
        section = diffChildPath(section, line.steps[i].isIndex ? "*" : line.steps[i].key);
      out.push_back({f.property + "|contamination|" + section, Severity::DataLoss,
                     fmt::format("{} gets a value of another object of the same request ({}): "
                                 "the webhook carries data from one object into the next",
                                 path.empty() ? "the object" : path, shortValue(line.got)),
                     section});
      continue;
    }
    const char* what = line.missing ? "lost" : line.added ? "added" : "changed";
    Severity severity = inMetadata   ? Severity::Cosmetic
                        : line.added ? Severity::Invented
                                     : Severity::DataLoss;
    std::string shown = path.empty() ? "the object" : path;
    std::string title = line.missing
                            ? fmt::format("{} is lost (was {})", shown, shortValue(line.expected))
                        : line.added ? fmt::format("{} is added ({})", shown, shortValue(line.got))
                                     : fmt::format("{} changes ({} -> {})", shown,
                                                   shortValue(line.expected), shortValue(line.got));
    // Lost, changed or added, the value at one path differs from what the client wrote: one
    // problem (a stale copy loses an edit here and brings a deleted value back there; a toggled
    // annotation is lost in one case and changed in the next; an entry added to a list, or the
    // whole list when there was none).
    const bool lostZero = line.missing && isZeroValue(line.expected);
    out.push_back({f.property + "|" + what + "|" + path, severity, std::move(title), path,
                   fieldProblem(path), lostZero});
  }
}

void detailCauses(const Finding& f, const SchemaLookup& schemaOf, std::vector<Cause>& out) {
  const Property* property = findProperty(f.property);
  if (property != nullptr && property->causesInDetails != nullptr)
    property->causesInDetails(f, schemaOf, out);
}

}  // namespace

// A path that comes as text ("spec.items[3].x", "spec.env[\"k\"]") normalised with the schema of
// `version`, as a differing path is: "spec.items[*].x", "spec.env.*".
std::string normalisedTextPath(const std::string& path, const SchemaLookup& schemaOf,
                               const std::string& version) {
  return normalisedPath(pathSteps(path), schemaOf ? schemaOf(version) : nullptr);
}

namespace {

// The value at a text path of `object`, or null.
json valueAt(const json& object, const std::string& path) {
  const json* node = &object;
  for (const auto& step : pathSteps(path)) {
    if (step.isIndex) {
      if (!node->is_array() || step.index >= node->size()) return nullptr;
      node = &(*node)[step.index];
    } else {
      if (!node->is_object() || !node->contains(step.key)) return nullptr;
      node = &(*node)[step.key];
    }
  }
  return *node;
}

}  // namespace

std::string float64Title(const json& expected, const json& got) {
  return fmt::format(
      "integer {} came back as {}: the webhook parses JSON numbers as float64 (as JavaScript and "
      "float-parsing Python do), so integers beyond 2^53 lose precision",
      expected.is_string() ? expected.get<std::string>() : expected.dump(), got.dump());
}

// The value the webhook was sent at `path` of the converted object `index` and the value it
// answered there, when the answer rounded an integer beyond 2^53 as float64 does.
std::optional<std::pair<json, json>> float64RoundedAt(const Finding& f, std::size_t index,
                                                      const std::string& path) {
  for (const auto& ex : f.exchanges) {
    if (!ex->verdict.accepted() || index >= ex->verdict.visible.size() ||
        index >= ex->sent.objects.size())
      continue;
    json sent = valueAt(ex->sent.objects[index], path);
    json got = valueAt(ex->verdict.visible[index], path);
    if (isFloat64Rounding(sent, got)) return std::make_pair(std::move(sent), std::move(got));
    // The field may have another name in the source version: a float with no fraction beyond
    // 2^53 where the schema wants an integer is what a float64 parser makes of a large integer.
    if (got.is_number_float() && std::abs(got.get<double>()) >= 9007199254740992.0 &&
        std::trunc(got.get<double>()) == got.get<double>())
      return std::make_pair(json("an integer beyond 2^53"), std::move(got));
  }
  return std::nullopt;
}

bool isFloat64Rounding(const json& expected, const json& got) {
  if (!expected.is_number_integer() || !got.is_number()) return false;
  if (got.is_number_integer() && expected == got) return false;  // the same integer
  constexpr std::uint64_t kExact = std::uint64_t{1} << 53;  // every integer up to 2^53 is exact
  double e = 0;
  if (expected.is_number_unsigned()) {
    const auto u = expected.get<std::uint64_t>();
    if (u <= kExact) return false;
    e = static_cast<double>(u);
  } else {
    const auto i = expected.get<std::int64_t>();
    if (i >= -static_cast<std::int64_t>(kExact) && i <= static_cast<std::int64_t>(kExact))
      return false;
    e = static_cast<double>(i);
  }
  const double g = got.is_number_unsigned()  ? static_cast<double>(got.get<std::uint64_t>())
                   : got.is_number_integer() ? static_cast<double>(got.get<std::int64_t>())
                                             : got.get<double>();
  return g == e;
}

std::string normalisedPath(const std::vector<PathStep>& steps, const json* schema) {
  std::string out;
  const json* node = schema && schema->is_object() ? schema : nullptr;
  bool unknownBelow = false;  // inside x-kubernetes-preserve-unknown-fields: every key is data
  for (const auto& step : steps) {
    if (step.isIndex) {
      out += "[*]";
      if (node) {
        auto items = node->find("items");
        node = items != node->end() && items->is_object() ? &*items : nullptr;
      }
      continue;
    }
    std::string shown = unknownBelow ? "*" : step.key;
    if (node) {
      auto props = node->find("properties");
      auto extra = node->find("additionalProperties");
      if (props != node->end() && props->is_object() && props->contains(step.key)) {
        node = &(*props)[step.key];
      } else if (extra != node->end() && extra->is_object()) {
        shown = "*";
        node = &*extra;
      } else {
        if (node->value("x-kubernetes-preserve-unknown-fields", false) == true) {
          shown = "*";
          unknownBelow = true;
        }
        node = nullptr;
      }
    }
    out = diffChildPath(out, shown);
  }
  return out;
}

std::vector<Cause> causesOf(const Finding& f, const SchemaLookup& schemaOf) {
  std::vector<Cause> found;
  for (const auto& shared : f.exchanges) {
    const Exchange& ex = *shared;
    if (ex.verdict.accepted()) continue;
    std::string message = ex.verdict.message;
    message = shortenUtf8(message, 300);
    // Two crashes are two problems: the masked message is part of the key, so shrinking keeps
    // the message it started from. A transport failure carries no message of the webhook's, only
    // the HTTP client's wording of its kind ("Operation timed out" or "Connection timed out"
    // after the same webhook stopped answering): its kind is the whole key.
    const bool transport = ex.verdict.stage == ModelStage::Transport;
    found.push_back({f.property + "|rejected|" + rejectionStage(ex) +
                         (transport ? std::string() : "|" + maskedRejection(ex)),
                     rejectionSeverity(ex.verdict.stage),
                     "kube-apiserver rejects the answer: " + message,
                     {}});
    break;
  }
  if (found.empty()) {
    if (!f.expected.is_null() || !f.got.is_null()) diffCauses(f, schemaOf, found);
    detailCauses(f, schemaOf, found);
  }
  if (found.empty())
    found.push_back({f.property + "|" + f.property, plainSeverity(f.property), f.summary, {}});
  std::vector<Cause> out;
  for (auto& c : found) {
    if (std::find(out.begin(), out.end(), c) != out.end()) continue;
    if (c.problem.empty()) c.problem = problemOfCauseKey(c.key);
    out.push_back(std::move(c));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Cause& a, const Cause& b) { return a.severity < b.severity; });
  return out;
}

}  // namespace convcheck

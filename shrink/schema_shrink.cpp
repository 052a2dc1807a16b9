#include "shrink/schema_shrink.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "kube/go/utf8.h"
#include "shrink/object_size.h"

namespace convcheck {

using nlohmann::json;
using Pointer = json::json_pointer;

namespace {

const std::set<std::string>& storedMetadata() {
  static const std::set<std::string> keys = {"name", "namespace", "uid", "creationTimestamp",
                                             "generation"};
  return keys;
}

// UTF-8 code points of `s` (invalid bytes count as one each, as utf8.RuneCountInString counts).
std::vector<std::string> codePoints(const std::string& s) {
  std::vector<std::string> out;
  std::string_view rest = s;
  while (!rest.empty()) {
    const std::size_t width = decodeRune(rest).second;
    out.emplace_back(rest.substr(0, width));
    rest.remove_prefix(width);
  }
  return out;
}

std::string joinRange(const std::vector<std::string>& cps, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to && i < cps.size(); ++i) out += cps[i];
  return out;
}

std::vector<json> shorterStrings(const std::string& s, const SchemaNode* node) {
  std::vector<std::string> cps = codePoints(s);
  const std::size_t n = cps.size();
  const std::size_t minLen =
      node && node->minLength ? static_cast<std::size_t>(*node->minLength) : 0;
  std::vector<std::string> candidates;
  if (node && node->enumValues) {
    // An enum string becomes the enum's first value; nothing else would be valid.
    for (const auto& e : *node->enumValues)
      if (e.is_string()) {
        candidates.push_back(e.get<std::string>());
        break;
      }
  } else if (n > minLen) {
    candidates.push_back(joinRange(cps, 0, minLen));
    candidates.push_back(joinRange(cps, n - minLen, n));
    if (n / 2 > minLen) {
      candidates.push_back(joinRange(cps, 0, n / 2));
      candidates.push_back(joinRange(cps, n - n / 2, n));
    }
    candidates.push_back(joinRange(cps, 0, n - 1));
    candidates.push_back(joinRange(cps, 1, n));
  }
  std::vector<json> out;
  std::set<std::string> seen{s};
  for (auto& c : candidates)
    if (seen.insert(c).second) out.emplace_back(c);
  return out;
}

std::vector<json> smallerNumbers(const json& v, const SchemaNode* node) {
  std::vector<json> out;
  if (v.is_number_integer() || v.is_number_unsigned()) {
    // Doubles hold every value a schema bound can name; the JSON keeps integers integral.
    const double x = v.get<double>();
    double target = 0;
    if (node && node->minimum) {
      target = std::ceil(*node->minimum);
      if (node->exclusiveMinimum && target == *node->minimum) target += 1;
    } else if (node && node->maximum && *node->maximum < 0) {
      target = std::floor(*node->maximum);
      if (node->exclusiveMaximum && target == *node->maximum) target -= 1;
    }
    // The target, then ever closer to the value (as RapidCheck shrinks integers): a greedy
    // search takes O(log² |x - target|) steps instead of one step per unit.
    std::vector<double> cands = {target};
    for (double d = std::trunc((x - target) / 2); std::abs(d) >= 1 && cands.size() < 64;
         d = std::trunc(d / 2))
      cands.push_back(x - d);
    cands.push_back(x > target ? x - 1 : x + 1);
    std::set<double> seen{x};
    for (double c : cands)
      if (std::abs(c - target) < std::abs(x - target) && seen.insert(c).second &&
          std::abs(c) < 9.2e18)
        out.emplace_back(static_cast<std::int64_t>(c));
  } else if (v.is_number_float()) {
    const double x = v.get<double>();
    double target = node && node->minimum ? *node->minimum : 0;
    std::vector<double> cands = {target, std::trunc(x), target + (x - target) / 2};
    std::set<double> seen{x};
    for (double c : cands)
      if (std::isfinite(c) && std::abs(c - target) < std::abs(x - target) && seen.insert(c).second)
        out.emplace_back(c);
  }
  if (node && node->enumValues && !node->enumValues->empty() && node->enumValues->front() != v)
    out.insert(out.begin(), node->enumValues->front());
  return out;
}

// One-item drops are offered for the first items only: enough for lists of real objects, and
// the halving edit covers long ones.
constexpr std::size_t kMaxItemDrops = 32;

class EditCollector {
 public:
  std::vector<SimplerEdit> structural;
  std::vector<SimplerEdit> scalars;

  void visitRoot(const json& object, const SchemaNode* root) {
    if (!object.is_object()) return;
    for (auto it = object.begin(); it != object.end(); ++it) {
      const std::string& key = it.key();
      if (key == "apiVersion" || key == "kind") continue;
      Pointer at = Pointer() / key;
      if (key == "metadata") {
        visitMetadata(it.value(), at);
        continue;
      }
      structural.push_back({at, true, json(), 1 + fieldCount(it.value())});
      visit(it.value(), root ? root->property(key) : nullptr, at);
    }
  }

 private:
  void visitMetadata(const json& metadata, const Pointer& at) {
    if (!metadata.is_object()) return;
    for (auto it = metadata.begin(); it != metadata.end(); ++it) {
      const std::string& key = it.key();
      Pointer child = at / key;
      if (key == "uid" || key == "creationTimestamp") continue;
      if (!storedMetadata().count(key))
        structural.push_back({child, true, json(), 1 + fieldCount(it.value())});
      visit(it.value(), nullptr, child);
    }
  }

  void visit(const json& value, const SchemaNode* node, const Pointer& at) {
    if (value.is_object()) {
      if (!value.empty()) structural.push_back({at, false, json::object(), fieldCount(value)});
      for (auto it = value.begin(); it != value.end(); ++it) {
        const SchemaNode* child = nullptr;
        if (node) {
          if (const SchemaNode* p = node->property(it.key()))
            child = p;
          else if (node->additionalProperties)
            child = node->additionalProperties.get();
        }
        Pointer childAt = at / it.key();
        structural.push_back({childAt, true, json(), 1 + fieldCount(it.value())});
        visit(it.value(), child, childAt);
      }
      return;
    }
    if (value.is_array()) {
      const std::size_t n = value.size();
      if (n > 0) structural.push_back({at, false, json::array(), fieldCount(value)});
      if (n > 1) {
        json half(value.begin(), value.begin() + static_cast<std::ptrdiff_t>(n / 2));
        structural.push_back({at, false, half, fieldCount(value) - fieldCount(half)});
      }
      for (std::size_t i = 0; i < n && i < kMaxItemDrops; ++i) {
        json dropped = value;
        dropped.erase(i);
        structural.push_back({at, false, dropped, 1 + fieldCount(value[i])});
      }
      const SchemaNode* items = node ? node->items.get() : nullptr;
      for (std::size_t i = 0; i < n; ++i) visit(value[i], items, at / std::to_string(i));
      return;
    }
    if (value.is_string()) {
      for (auto& s : shorterStrings(value.get_ref<const std::string&>(), node))
        scalars.push_back({at, false, std::move(s), 0});
    } else if (value.is_number()) {
      for (auto& x : smallerNumbers(value, node)) scalars.push_back({at, false, std::move(x), 0});
    } else if (value.is_boolean() && value.get<bool>()) {
      scalars.push_back({at, false, false, 0});
    }
  }
};

}  // namespace

std::vector<SimplerEdit> simplerEdits(const json& object, const SchemaNode* root) {
  EditCollector c;
  c.visitRoot(object, root);
  std::stable_sort(c.structural.begin(), c.structural.end(),
                   [](const SimplerEdit& a, const SimplerEdit& b) { return a.weight > b.weight; });
  std::vector<SimplerEdit> out;
  for (auto& e : c.structural)
    if (e.weight > 0) out.push_back(std::move(e));
  for (auto& e : c.scalars) out.push_back(std::move(e));
  return out;
}

json applyEdit(json object, const SimplerEdit& edit) {
  if (edit.remove) {
    json& parent = object.at(edit.at.parent_pointer());
    const std::string key = edit.at.back();
    if (parent.is_object())
      parent.erase(key);
    else if (parent.is_array())
      parent.erase(static_cast<std::size_t>(std::stoul(key)));
    return object;
  }
  object.at(edit.at) = edit.value;
  return object;
}

json greedyShrink(json start, const SchemaNode* root,
                  const std::function<bool(const json&)>& accept, const std::function<bool()>& stop,
                  GreedyStats* stats) {
  json current = std::move(start);
  bool progress = true;
  while (progress && !stop()) {
    progress = false;
    std::vector<SimplerEdit> edits = simplerEdits(current, root);
    for (std::size_t i = 0; i < edits.size() && !stop();) {
      json candidate = applyEdit(current, edits[i]);
      if (stats) ++stats->examined;
      if (candidate != current && accept(candidate)) {
        current = std::move(candidate);
        if (stats) ++stats->accepted;
        progress = true;
        edits = simplerEdits(current, root);  // go on from the same position
      } else {
        ++i;
      }
    }
  }
  return current;
}

}  // namespace convcheck

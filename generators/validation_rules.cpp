#include "generators/validation_rules.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "generators/json_shrinkable.h"
#include "generators/rule_bounds.h"

namespace convcheck {

using nlohmann::json;

namespace {

constexpr int kRedraws = 12;

// "spec.rules[2].filters[0]" → the steps "spec", 2 (index), "rules"… as JSON pointer tokens.
std::vector<std::string> pathTokens(const std::string& field) {
  std::vector<std::string> out;
  if (field == "<nil>") return out;
  std::string cur;
  for (std::size_t i = 0; i < field.size(); ++i) {
    const char c = field[i];
    if (c == '.') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else if (c == '[') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
      const auto close = field.find(']', i);
      out.push_back(field.substr(i + 1, close - i - 1));
      i = close;
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// The member or list item of `at` that the path token `t` names, or nullptr.
json* child(json* at, const std::string& t) {
  if (at->is_object() && at->contains(t)) return &(*at)[t];
  if (at->is_array() && !t.empty() && std::all_of(t.begin(), t.end(), ::isdigit) &&
      std::stoul(t) < at->size())
    return &(*at)[std::stoul(t)];
  return nullptr;
}

// Drops the innermost optional field or list item at or above `field` whose removal keeps the
// object schema-valid; false when none does.
bool dropAround(json& object, const std::string& field, const SchemaNode& root) {
  auto tokens = pathTokens(field);
  while (!tokens.empty()) {
    json copy = object;
    json* parent = &copy;
    for (std::size_t i = 0; i + 1 < tokens.size() && parent; ++i) parent = child(parent, tokens[i]);
    bool found = parent != nullptr;
    const std::string& last = tokens.back();
    if (found) {
      if (parent->is_object() && parent->contains(last)) {
        parent->erase(last);
      } else if (parent->is_array() && !last.empty() &&
                 std::all_of(last.begin(), last.end(), ::isdigit) &&
                 std::stoul(last) < parent->size()) {
        parent->erase(std::stoul(last));
      } else {
        found = false;
      }
    }
    if (found && checkValue(root, copy, "", nullptr, CheckOptions{true, true})) {
      object = std::move(copy);
      return true;
    }
    tokens.pop_back();
  }
  return false;
}

// Drops one member of the object at `field` (tried from a seeded start) whose removal keeps
// the object schema-valid and clears `violation`: a rule between siblings ("only one of a or
// b", "c only with d") is met by leaving one out while the object the rule sits on stays.
bool dropMemberFor(json& object, const cel::RuleViolation& violation, const cel::RuleSet& rules,
                   rc::Random& random, const SchemaNode& root) {
  json* at = &object;
  for (const std::string& t : pathTokens(violation.field))
    if (at) at = child(at, t);
  if (!at || !at->is_object() || at->empty()) return false;
  std::vector<std::string> keys;
  for (const auto& [key, value] : at->items()) keys.push_back(key);
  const std::size_t start = random.next() % keys.size();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    json copy = object;
    json* node = &copy;
    for (const std::string& t : pathTokens(violation.field)) node = child(node, t);
    node->erase(keys[(start + i) % keys.size()]);
    if (!checkValue(root, copy, "", nullptr, CheckOptions{true, true})) continue;
    const auto left = rules.validate(copy);
    const bool cleared = std::none_of(left.begin(), left.end(), [&violation](const auto& v) {
      return v.rule == violation.rule && v.field == violation.field;
    });
    if (!cleared) continue;
    object = std::move(copy);
    return true;
  }
  return false;
}

// Moves the integer at `field` into the range of `rule` when the rule is a value-range rule
// (rule_bounds.h) and the moved value keeps the object schema-valid; false otherwise.
bool moveIntoRange(json& object, const std::string& field, const cel::CompiledRule& rule,
                   rc::Random& random, const SchemaNode& root) {
  if (!rule.program || rule.transition) return false;
  const auto bounds = selfIntegerBounds(rule.program->ast());
  if (!bounds) return false;
  json copy = object;
  json* at = &copy;
  for (const std::string& t : pathTokens(field))
    if (at) at = child(at, t);
  if (!at || !at->is_number_integer()) return false;
  const std::uint64_t width =
      static_cast<std::uint64_t>(bounds->hi) - static_cast<std::uint64_t>(bounds->lo);
  const std::uint64_t offset = width == UINT64_MAX ? random.next() : random.next() % (width + 1);
  *at = static_cast<std::int64_t>(static_cast<std::uint64_t>(bounds->lo) + offset);
  if (!checkValue(root, copy, "", nullptr, CheckOptions{true, true})) return false;
  object = std::move(copy);
  return true;
}

}  // namespace

ValidationRules::ValidationRules(const json& openAPIV3Schema)
    : rules_(cel::RuleSet::compile(openAPIV3Schema)),
      rejected_(new std::atomic<std::uint64_t>[rules_.rules().size() + 1]()),
      unsatisfied_(new std::atomic<std::uint64_t>[rules_.rules().size() + 1]()) {}

std::size_t ValidationRules::indexOf(const cel::CompiledRule* rule) const {
  return static_cast<std::size_t>(rule - rules_.rules().data());
}

std::vector<Violation> ValidationRules::violations(const json& object, const json* old) const {
  std::vector<Violation> out;
  for (const auto& v : rules_.validate(object, old)) {
    std::string message = v.message;
    const std::string prefix = v.field + ": ";
    if (message.compare(0, prefix.size(), prefix) == 0) message = message.substr(prefix.size());
    out.push_back({v.field == "<nil>" ? "" : v.field, message, true});
  }
  return out;
}

bool ValidationRules::hold(const json& object, const json* old) const {
  return rules_.empty() || rules_.validate(object, old).empty();
}

void ValidationRules::countDraw(const std::vector<cel::RuleViolation>& violated) const {
  drawn_.fetch_add(1, std::memory_order_relaxed);
  std::vector<std::size_t> seen;
  for (const auto& v : violated) {
    const std::size_t i = indexOf(v.rule);
    if (std::find(seen.begin(), seen.end(), i) != seen.end()) continue;
    seen.push_back(i);
    rejected_[i].fetch_add(1, std::memory_order_relaxed);
  }
}

void ValidationRules::countUnsatisfied(const std::vector<cel::RuleViolation>& violated) const {
  std::vector<std::size_t> seen;
  for (const auto& v : violated) {
    const std::size_t i = indexOf(v.rule);
    if (std::find(seen.begin(), seen.end(), i) != seen.end()) continue;
    seen.push_back(i);
    unsatisfied_[i].fetch_add(1, std::memory_order_relaxed);
  }
}

std::vector<std::string> ValidationRules::refusedNotes() const {
  std::vector<std::string> out;
  for (const auto& r : rules_.rules())
    if (!r.problem.empty())
      out.push_back("CEL validation rule not evaluated (kube-apiserver would refuse it): " +
                    r.describe() + ": " + r.problem);
  return out;
}

std::vector<std::string> ValidationRules::notes() const {
  std::vector<std::string> out;
  const std::uint64_t drawn = drawn_.load();
  for (std::size_t i = 0; i < rules_.rules().size(); ++i) {
    const auto& r = rules_.rules()[i];
    if (!r.problem.empty()) continue;
    const std::uint64_t left = unsatisfied_[i].load();
    if (left == 0 || drawn == 0) continue;
    char share[32];
    std::snprintf(share, sizeof share, "%.1f%%",
                  100.0 * static_cast<double>(rejected_[i].load()) / static_cast<double>(drawn));
    out.push_back("CEL validation rule convcheck could not satisfy: " + r.describe() +
                  " (rejected " + share + " of drawn objects; " + std::to_string(left) + " of " +
                  std::to_string(drawn) + " sent objects still violate it)");
  }
  return out;
}

JsonDrawGen satisfyingRules(JsonDrawGen shape, JsonDrawGen fallback,
                            std::shared_ptr<const ValidationRules> rules, SchemaNodePtr root) {
  if (!rules || rules->empty()) return shape;
  return JsonDrawGen([shape, fallback, rules, root](const rc::Random& random, int size,
                                                    const DrawOptions& draw) {
    auto finish = [&rules](JsonDraw d) {
      if (d.tree) {
        auto keep = rules;
        d.tree = filterShrinks(*d.tree, [keep](const json& v) { return keep->hold(v); });
      }
      return d;
    };
    JsonDraw first = shape(random, size, draw);
    if (first.error) return first;
    auto violated = rules->ruleSet().validate(first.value);
    rules->countDraw(violated);
    if (violated.empty()) return finish(std::move(first));
    // Repair (cheap): a number moved into a value-range rule's range, else drop a member of the
    // object a violation sits on or else what it sits in, while the schema allows it; nothing when
    // a violation is left that neither fixes.
    rc::Random moves = random;
    auto repair = [&rules, &root, &moves](json value) -> std::optional<json> {
      for (int step = 0; step < 64; ++step) {
        auto left = rules->ruleSet().validate(value);
        if (left.empty()) return value;
        bool changed = false;
        for (const auto& v : left)
          if (root && ((v.rule && moveIntoRange(value, v.field, *v.rule, moves, *root)) ||
                       dropMemberFor(value, v, rules->ruleSet(), moves, *root) ||
                       dropAround(value, v.field, *root))) {
            changed = true;
            break;
          }
        if (!changed) return std::nullopt;
      }
      return std::nullopt;
    };
    auto repaired = [&draw](json value) {
      JsonDraw d;
      d.value = std::move(value);
      if (draw.trees) d.tree = rc::Shrinkable<json>(rc::shrinkable::just(d.value));
      return d;
    };
    if (auto fixed = repair(first.value)) return repaired(std::move(*fixed));
    // Then redraws, each repaired too: of the shape, then of the fuller fallback shape.
    rc::Random r = random;
    for (int attempt = 0; attempt < 2 * kRedraws; ++attempt) {
      // The fallback draws at a larger size too: small sizes leave optional fields out.
      const bool fuller = attempt >= kRedraws;
      JsonDraw d = (fuller ? fallback : shape)(r.split(), fuller ? std::max(size, 50) : size, draw);
      if (d.error) continue;
      if (rules->hold(d.value)) return finish(std::move(d));
      if (auto fixed = repair(d.value)) return repaired(std::move(*fixed));
    }
    rules->countUnsatisfied(rules->ruleSet().validate(first.value));
    return first;
  });
}

}  // namespace convcheck

#include "engine/run/schema_coverage.h"

#include <algorithm>
#include <cmath>

#include "properties/checks/json_diff.h"

namespace convcheck {

using nlohmann::json;

namespace {

std::uint64_t codePoints(const std::string& s) {
  return static_cast<std::uint64_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// A bound as JSON: an integer when it is one (so it prints as 3, not 3.0).
json number(double d) {
  if (std::floor(d) == d && std::fabs(d) < 9e15) return static_cast<std::int64_t>(d);
  return d;
}

const char* boundName(int bound) {
  static const char* const names[] = {"enum",     "minLength",     "maxLength",     "minItems",
                                      "maxItems", "minProperties", "maxProperties", "minimum",
                                      "maximum",  "null",          "default",       "non-default"};
  return names[bound];
}

}  // namespace

SchemaCoverage::SchemaCoverage(std::string version, const SchemaNode& root)
    : version_(std::move(version)) {
  addSlot("", root, true);
}

std::size_t SchemaCoverage::addSlot(std::string path, const SchemaNode& node, bool required) {
  const std::size_t index = slots_.size();
  slots_.push_back(Slot{std::move(path), &node, required});
  addBoundaries(slots_[index]);
  std::vector<std::pair<std::string, std::size_t>> fields;
  for (const auto& [name, child] : node.properties) {
    if (index == 0 && (name == "apiVersion" || name == "kind" || name == "metadata")) continue;
    if (!child) continue;
    fields.emplace_back(
        name, addSlot(diffChildPath(slots_[index].path, name), *child, node.isRequired(name)));
  }
  slots_[index].fields = std::move(fields);  // node.properties is ordered: so are they
  if (node.items) slots_[index].items = addSlot(slots_[index].path + "[*]", *node.items, true);
  if (node.additionalProperties) {
    const std::string& parent = slots_[index].path;
    slots_[index].values =
        addSlot(parent.empty() ? "*" : parent + ".*", *node.additionalProperties, true);
  }
  return index;
}

void SchemaCoverage::addBoundaries(Slot& slot) const {
  const SchemaNode& n = *slot.node;
  auto add = [&](Bound b, json value) { slot.boundaries.push_back({b, std::move(value)}); };
  if (n.enumValues)
    for (const auto& v : *n.enumValues) add(Bound::Enum, v);
  if (n.minLength) add(Bound::MinLength, *n.minLength);
  if (n.maxLength) add(Bound::MaxLength, *n.maxLength);
  if (n.minItems) add(Bound::MinItems, *n.minItems);
  if (n.maxItems) add(Bound::MaxItems, *n.maxItems);
  if (n.minProperties) add(Bound::MinProps, *n.minProperties);
  if (n.maxProperties) add(Bound::MaxProps, *n.maxProperties);
  // The smallest and largest values allowed: for integers the nearest integers inside the bounds;
  // an exclusive bound of a number has no nearest value and is left out.
  const bool integer = n.type == SchemaType::Integer;
  if (n.minimum && (integer || !n.exclusiveMinimum))
    add(Bound::Min, number(!integer             ? *n.minimum
                           : n.exclusiveMinimum ? std::floor(*n.minimum) + 1
                                                : std::ceil(*n.minimum)));
  if (n.maximum && (integer || !n.exclusiveMaximum))
    add(Bound::Max, number(!integer             ? *n.maximum
                           : n.exclusiveMaximum ? std::ceil(*n.maximum) - 1
                                                : std::floor(*n.maximum)));
  if (n.nullable) add(Bound::Null, nullptr);
  if (n.defaultValue) {
    add(Bound::Default, *n.defaultValue);
    add(Bound::NonDefault, *n.defaultValue);
  }
}

bool SchemaCoverage::at(const Boundary& b, const json& value) {
  switch (b.bound) {
    case Bound::Enum:
    case Bound::Default:
      return value == b.value;
    case Bound::NonDefault:
      return !value.is_null() && value != b.value;
    case Bound::Null:
      return value.is_null();
    case Bound::MinLength:
    case Bound::MaxLength:
      return value.is_string() &&
             codePoints(value.get_ref<const std::string&>()) == b.value.get<std::uint64_t>();
    case Bound::MinItems:
    case Bound::MaxItems:
      return value.is_array() && value.size() == b.value.get<std::uint64_t>();
    case Bound::MinProps:
    case Bound::MaxProps:
      return value.is_object() && value.size() == b.value.get<std::uint64_t>();
    case Bound::Min:
    case Bound::Max:
      return value.is_number() && value.get<double>() == b.value.get<double>();
  }
  return false;
}

void SchemaCoverage::add(const json& object) {
  ++objects_;
  visit(0, object);
}

void SchemaCoverage::visit(std::size_t index, const json& value) {
  Slot& slot = slots_[index];  // slots_ does not grow once built
  ++slot.present;
  for (auto& b : slot.boundaries)
    if (at(b, value)) ++b.hits;
  if (value.is_object()) {
    ++slot.asObject;
    for (auto it = value.begin(); it != value.end(); ++it) {
      auto field = std::lower_bound(slot.fields.begin(), slot.fields.end(), it.key(),
                                    [](const std::pair<std::string, std::size_t>& f,
                                       const std::string& key) { return f.first < key; });
      if (field != slot.fields.end() && field->first == it.key())
        visit(field->second, it.value());
      else if (slot.values != 0)
        visit(slot.values, it.value());
    }
  } else if (value.is_array() && slot.items != 0) {
    for (const auto& item : value) visit(slot.items, item);
  }
}

VersionCoverage SchemaCoverage::result() const {
  VersionCoverage out;
  out.version = version_;
  out.objects = objects_;
  std::vector<std::int64_t> parentObjects(slots_.size(), 0);  // asObject of each slot's parent
  for (const Slot& slot : slots_)
    for (const auto& [name, child] : slot.fields) parentObjects[child] = slot.asObject;
  for (std::size_t i = 1; i < slots_.size(); ++i) {
    const Slot& slot = slots_[i];
    PathCoverage p;
    p.path = slot.path;
    p.type = slot.node->intOrString ? "int-or-string" : schemaTypeName(slot.node->type);
    p.required = slot.required;
    p.present = slot.present;
    p.absent = slot.required ? 0 : parentObjects[i] - slot.present;
    for (const auto& b : slot.boundaries)
      p.boundaries.push_back({boundName(static_cast<int>(b.bound)),
                              b.bound == Bound::Null ? "" : b.value.dump(), b.hits});
    out.paths.push_back(std::move(p));
  }
  return out;
}

}  // namespace convcheck

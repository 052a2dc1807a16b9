#include "generators/metadata_check.h"

#include <cctype>
#include <set>

#include "generators/format_check.h"
#include "kube/names/field_errors.h"
#include "kube/names/name_rules.h"

namespace convcheck {

using nlohmann::json;

namespace {

bool isRfc3339UtcSeconds(const std::string& s) {
  return s.size() == 20 && s[19] == 'Z' && formatAccepts("date-time", s) &&
         s.find('.') == std::string::npos;
}

bool nonEmptyString(const json& v) {
  return v.is_string() && !v.get_ref<const std::string&>().empty();
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// field.Invalid(path, value, <the rule's messages joined>), as apimachinery words a bad name.
std::string invalidName(const json& value, const std::vector<std::string>& errors) {
  std::string detail;
  for (const auto& e : errors) detail += (detail.empty() ? "" : ", ") + e;
  return invalidValue(value, detail);
}

}  // namespace

void checkLabels(const json& labels, const std::string& path, std::vector<Violation>& out) {
  if (!labels.is_object()) return out.push_back({path, "must be a map of strings"});
  if (labels.empty()) out.push_back({path, "empty map (kube-apiserver omits empty maps)"});
  for (const auto& [k, v] : labels.items()) {
    if (!isQualifiedName(k)) out.push_back({childPath(path, k), invalidName(k, labelKeyErrors(k))});
    if (!v.is_string())
      out.push_back({childPath(path, k), "value must be a string"});
    else if (!isLabelValue(v.get_ref<const std::string&>()))
      out.push_back(
          {childPath(path, k), invalidName(v, labelValueErrors(v.get_ref<const std::string&>()))});
  }
}

void checkAnnotations(const json& annotations, const std::string& path,
                      std::vector<Violation>& out) {
  if (!annotations.is_object()) return out.push_back({path, "must be a map of strings"});
  if (annotations.empty()) out.push_back({path, "empty map (kube-apiserver omits empty maps)"});
  std::size_t total = 0;
  for (const auto& [k, v] : annotations.items()) {
    if (!isQualifiedName(lower(k)))
      out.push_back({childPath(path, k), invalidName(k, labelKeyErrors(lower(k)))});
    if (!v.is_string())
      out.push_back({childPath(path, k), "value must be a string"});
    else
      total += k.size() + v.get_ref<const std::string&>().size();
  }
  if (total > 256 * 1024) out.push_back({path, "annotations exceed 256 KiB"});
}

void checkObjectMeta(const json& md, const MetadataRules& rules, const std::string& path,
                     std::vector<Violation>& out) {
  if (!md.is_object()) return out.push_back({path, "must be an object"});
  static const std::set<std::string> known = {"name",
                                              "generateName",
                                              "namespace",
                                              "selfLink",
                                              "uid",
                                              "resourceVersion",
                                              "generation",
                                              "creationTimestamp",
                                              "deletionTimestamp",
                                              "deletionGracePeriodSeconds",
                                              "labels",
                                              "annotations",
                                              "ownerReferences",
                                              "finalizers",
                                              "managedFields"};
  for (const auto& [k, v] : md.items()) {
    if (!known.count(k))
      out.push_back({childPath(path, k), "not an ObjectMeta field (dropped by kube-apiserver)"});
    if (v.is_null())
      out.push_back({childPath(path, k), "null (kube-apiserver omits unset metadata)"});
  }
  auto field = [&](const char* k) -> const json* {
    auto it = md.find(k);
    return it == md.end() || it->is_null() ? nullptr : &*it;
  };
  const std::string p = path;
  if (const json* name = field("name")) {
    if (!name->is_string())
      out.push_back({childPath(p, "name"), "must be a string, got " + name->dump()});
    else if (!isDns1123Subdomain(name->get<std::string>()))
      out.push_back({childPath(p, "name"),
                     invalidName(*name, dns1123SubdomainErrors(name->get<std::string>()))});
  } else if (!rules.embedded) {
    out.push_back({childPath(p, "name"), requiredValue("name or generateName is required")});
  }
  if (const json* ns = field("namespace")) {
    if (!rules.namespaced && !rules.embedded)
      out.push_back({childPath(p, "namespace"), "must be absent for a cluster-scoped kind"});
    else if (!ns->is_string())
      out.push_back({childPath(p, "namespace"), "must be a string, got " + ns->dump()});
    else if (!isDns1123Label(ns->get<std::string>()))
      out.push_back({childPath(p, "namespace"),
                     invalidName(*ns, dns1123LabelErrors(ns->get<std::string>()))});
  } else if (rules.namespaced && !rules.embedded) {
    out.push_back({childPath(p, "namespace"), requiredValue()});
  }
  if (!rules.embedded) {
    const json* uid = field("uid");
    if (!uid || !nonEmptyString(*uid) || !formatAccepts("uuid", uid->get<std::string>()))
      out.push_back({childPath(p, "uid"), "must be a UUID"});
    const json* ts = field("creationTimestamp");
    if (!ts || !ts->is_string() || !isRfc3339UtcSeconds(ts->get<std::string>()))
      out.push_back(
          {childPath(p, "creationTimestamp"), "must be RFC 3339 UTC with seconds precision"});
    const json* gen = field("generation");
    if (!gen || !gen->is_number_integer() || gen->get<std::int64_t>() < 1)
      out.push_back({childPath(p, "generation"), "must be an integer ≥ 1"});
  }
  if (const json* rv = field("resourceVersion")) {
    if (!nonEmptyString(*rv))
      out.push_back({childPath(p, "resourceVersion"), "must be a non-empty string"});
  }
  if (const json* l = field("labels")) checkLabels(*l, childPath(p, "labels"), out);
  if (const json* a = field("annotations")) checkAnnotations(*a, childPath(p, "annotations"), out);
  if (const json* f = field("finalizers")) {
    const std::string fp = childPath(p, "finalizers");
    if (!f->is_array() || f->empty()) {
      out.push_back({fp, "must be a non-empty list (kube-apiserver omits empty lists)"});
    } else {
      std::set<std::string> seen;
      for (std::size_t i = 0; i < f->size(); ++i) {
        const json& e = (*f)[i];
        if (!e.is_string() || !isQualifiedName(e.get<std::string>()))
          out.push_back({indexPath(fp, i), "must be a qualified name"});
        else if (!seen.insert(e.get<std::string>()).second)
          out.push_back({indexPath(fp, i), "duplicate finalizer"});
      }
      if (seen.count("orphan") && seen.count("foregroundDeletion"))
        out.push_back({fp, "orphan and foregroundDeletion cannot both be set"});
    }
  }
  if (const json* refs = field("ownerReferences")) {
    const std::string rp = childPath(p, "ownerReferences");
    if (!refs->is_array() || refs->empty()) {
      out.push_back({rp, "must be a non-empty list (kube-apiserver omits empty lists)"});
    } else {
      int controllers = 0;
      for (std::size_t i = 0; i < refs->size(); ++i) {
        const json& r = (*refs)[i];
        for (const char* k : {"apiVersion", "kind", "name", "uid"})
          if (!r.is_object() || !r.contains(k) || !nonEmptyString(r[k]))
            out.push_back({childPath(indexPath(rp, i), k), "required non-empty string"});
        if (r.is_object() && r.value("controller", false) == true) ++controllers;
      }
      if (controllers > 1)
        out.push_back({rp, "only one reference can have controller set to true"});
    }
  }
  if (const json* mf = field("managedFields")) {
    const std::string mp = childPath(p, "managedFields");
    if (!mf->is_array() || mf->empty()) {
      out.push_back({mp, "must be a non-empty list"});
    } else {
      for (std::size_t i = 0; i < mf->size(); ++i) {
        const json& e = (*mf)[i];
        const std::string ep = indexPath(mp, i);
        if (!e.is_object()) {
          out.push_back({ep, "must be an object"});
          continue;
        }
        const std::string op = e.value("operation", "");
        if (op != "Apply" && op != "Update")
          out.push_back({childPath(ep, "operation"), "must be Apply or Update"});
        if (!nonEmptyString(e.value("apiVersion", json())))
          out.push_back({childPath(ep, "apiVersion"), "required"});
        if (e.value("fieldsType", "") != "FieldsV1")
          out.push_back({childPath(ep, "fieldsType"), "must be FieldsV1"});
        if (!e.contains("fieldsV1") || !e["fieldsV1"].is_object())
          out.push_back({childPath(ep, "fieldsV1"), "must be an object"});
        if (e.contains("time") &&
            (!e["time"].is_string() || !isRfc3339UtcSeconds(e["time"].get<std::string>())))
          out.push_back({childPath(ep, "time"), "must be RFC 3339 UTC with seconds precision"});
      }
    }
  }
}

}  // namespace convcheck

#include "kube/crd/crd_loader.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <new>
#include <string_view>

#include <nlohmann/json.hpp>

#include "kube/crd/api_resource_schema.h"
#include "kube/crd/crd_decode.h"
#include "kube/crd/crd_validate.h"
#include "kube/crd/yaml_json.h"
#include "kube/crd/yaml_scalar.h"

namespace convcheck {

namespace {

using nlohmann::json;

const char* const kHelmAdvice =
    "this looks like an unrendered Helm template ({{ ... }}): render the chart with "
    "`helm template` first and pass its output";

constexpr int kMaxJsonDepth = YamlLimits{}.maxDepth;

bool startsWithHelmAction(std::string_view line) {
  const std::size_t first = line.find_first_not_of(" \t");
  return first != std::string_view::npos && line.substr(first, 2) == "{{";
}

std::string_view lineAt(std::string_view text, int line) {
  std::size_t start = 0;
  for (int i = 1; i < line; ++i) {
    start = text.find('\n', start);
    if (start == std::string_view::npos) return {};
    ++start;
  }
  const std::size_t end = text.find('\n', start);
  return text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
}

// Whether a YAML syntax error at `line` is best explained by Helm template syntax.
bool syntaxErrorLooksLikeHelm(std::string_view text, int line) {
  if (lineAt(text, line).find("{{") != std::string_view::npos) return true;
  if (line > 1 && lineAt(text, line - 1).find("{{") != std::string_view::npos) return true;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    if (startsWithHelmAction(text.substr(start, end - start))) return true;
    start = end + 1;
  }
  return false;
}

// Deepest [ / { nesting outside JSON strings: checked before parsing so that nothing downstream
// recurses through hostile input.
int jsonNestingDepth(std::string_view text) {
  int depth = 0, deepest = 0;
  bool inString = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

void normaliseNumbers(json& value) {
  if (value.is_structured()) {
    for (auto& child : value) normaliseNumbers(child);
  } else if (value.is_number()) {
    value = normaliseJsonNumber(std::move(value));
  }
}

std::string describeObject(const json& object) {
  auto text = [&object](const char* key) -> std::string {
    auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  std::string name;
  if (auto md = object.find("metadata"); md != object.end() && md->is_object()) {
    if (auto n = md->find("name"); n != md->end() && n->is_string()) name = n->get<std::string>();
  }
  std::string out = text("apiVersion");
  const std::string kind = text("kind");
  out += out.empty() ? kind : " " + kind;
  if (out.empty()) out = "an object without apiVersion and kind";
  if (!name.empty()) out += " \"" + name + "\"";
  return out;
}

const char* describeType(const json& v) {
  switch (v.type()) {
    case json::value_t::array:
      return "a list";
    case json::value_t::string:
      return "a string";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
      return "a number";
    default:
      return "something else";
  }
}

class Loader {
 public:
  explicit Loader(LoadResult& out) : out_(out) {}

  void loadText(std::string_view text, const std::string& source) {
    if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) {
      warn(LoadError{{source, 0}, "", "empty input", 0, 0});
      return;
    }
    if ((text[first] == '{' || text[first] == '[') && loadJson(text, source)) return;
    loadYaml(text, source);
  }

  void finish(const std::string& inputName) {
    if (out_.crds.empty() && out_.errors.empty())
      out_.errors.push_back(
          LoadError{{inputName, 0}, "", "no CustomResourceDefinition found in the input", 0, 0});
  }

 private:
  void error(LoadError e) { out_.errors.push_back(std::move(e)); }
  void warn(const LoadError& e) { out_.warnings.push_back(e.text()); }

  // True when `text` was JSON (and has been handled); false to read it as YAML instead.
  bool loadJson(std::string_view text, const std::string& source) {
    if (jsonNestingDepth(text) > kMaxJsonDepth) {
      error(LoadError{{source, 1},
                      "",
                      "nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels",
                      0,
                      0});
      return true;
    }
    json value = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (value.is_discarded()) return false;  // maybe YAML flow syntax; YAML reports errors
    normaliseNumbers(value);
    handleObject(value, SourceLocation{source, 1}, "");
    return true;
  }

  void loadYaml(std::string_view text, const std::string& source) {
    YamlStream stream = parseYamlStream(text);
    for (YamlDocument& doc : stream.documents) {
      const SourceLocation where{source, doc.index};
      for (const YamlIssue& issue : doc.warnings)
        warn(LoadError{where, issue.path, issue.message, issue.line, issue.column});
      if (!doc.errors.empty()) {
        for (const YamlIssue& issue : doc.errors)
          error(LoadError{where, issue.path, issue.message, issue.line, issue.column});
        continue;
      }
      if (doc.value.is_null()) continue;  // empty document
      handleObject(doc.value, where, "");
    }
    if (stream.fatal) {
      const YamlIssue& f = *stream.fatal;
      std::string message = f.message;
      if (f.line > 0 && syntaxErrorLooksLikeHelm(text, f.line))
        message = std::string(kHelmAdvice) + " (" + message + ")";
      error(LoadError{{source, f.document}, "", message, f.line, f.column});
    }
  }

  void handleObject(const json& object, const SourceLocation& where, const std::string& prefix) {
    if (!object.is_object()) {
      warn(LoadError{
          where, prefix.empty() ? "" : prefix.substr(0, prefix.size() - 1),
          std::string("skipped: ") + describeType(object) + " is not a Kubernetes object", 0, 0});
      return;
    }
    const auto kindIt = object.find("kind");
    const std::string kind =
        kindIt != object.end() && kindIt->is_string() ? kindIt->get<std::string>() : "";
    const auto apiIt = object.find("apiVersion");
    const std::string apiVersion =
        apiIt != object.end() && apiIt->is_string() ? apiIt->get<std::string>() : "";
    const auto items = object.find("items");
    if (kind.size() >= 4 && kind.compare(kind.size() - 4, 4, "List") == 0 &&
        items != object.end() && (items->is_array() || items->is_null())) {
      if (items->is_array())
        for (std::size_t i = 0; i < items->size(); ++i)
          handleObject((*items)[i], where, prefix + "items[" + std::to_string(i) + "].");
      return;
    }
    if (isApiResourceSchema(object)) {
      addCrd(crdOfApiResourceSchema(object), where, prefix, true);
      return;
    }
    if (kind != "CustomResourceDefinition" || apiVersion.rfind("apiextensions.k8s.io/", 0) != 0) {
      warn(LoadError{where, prefix.empty() ? "" : prefix.substr(0, prefix.size() - 1),
                     "skipped: " + describeObject(object) + " is not a CustomResourceDefinition", 0,
                     0});
      return;
    }
    addCrd(object, where, prefix, false);
  }

  // Decodes and checks one CRD (`apiResourceSchema`: one translated from an APIResourceSchema,
  // whose fields the messages name as it writes them).
  void addCrd(const json& object, const SourceLocation& where, const std::string& prefix,
              bool apiResourceSchema) {
    auto located = [apiResourceSchema](LoadError e) {
      if (apiResourceSchema) e.field = apiResourceSchemaField(e.field);
      return e;
    };
    CrdDecodeResult decoded = decodeCrd(object, where, prefix);
    for (auto& w : decoded.warnings) warn(located(w));
    for (auto& e : decoded.errors) error(located(std::move(e)));
    if (!decoded.crd) return;
    CrdValidation checked = validateCrd(*decoded.crd, decoded.layout);
    for (auto& w : checked.warnings) warn(located(w));
    if (!checked.errors.empty()) {
      for (auto& e : checked.errors) error(located(std::move(e)));
      return;
    }
    for (const Crd& other : out_.crds) {
      if (other.name == decoded.crd->name) {
        warn(LoadError{where, "",
                       "CustomResourceDefinition \"" + other.name + "\" was already read from " +
                           other.source.file + ", document " +
                           std::to_string(other.source.document) + "; both are kept",
                       0, 0});
        break;
      }
    }
    out_.crds.push_back(std::move(*decoded.crd));
  }

  LoadResult& out_;
};

// Reads at most kMaxCrdInputBytes + 1 bytes; false with `why` on failure.
bool readAll(std::istream& in, std::string& out, std::string& why) {
  out.clear();
  char buffer[1 << 16];
  while (in) {
    in.read(buffer, sizeof buffer);
    out.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (out.size() > kMaxCrdInputBytes) {
      why = "the input is larger than " + std::to_string(kMaxCrdInputBytes >> 20) + " MiB";
      return false;
    }
  }
  if (in.bad()) {
    why = "read error";
    return false;
  }
  return true;
}

void loadFile(Loader& loader, LoadResult& out, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    out.errors.push_back(
        LoadError{{path, 0}, "", std::string("cannot read: ") + std::strerror(errno), 0, 0});
    return;
  }
  std::string text, why;
  if (!readAll(in, text, why)) {
    out.errors.push_back(LoadError{{path, 0}, "", "cannot read: " + why, 0, 0});
    return;
  }
  loader.loadText(text, path);
}

bool hasCrdExtension(const std::filesystem::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

void loadDirectory(Loader& loader, LoadResult& out, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<std::string> files;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code typeEc;
    if (it->is_regular_file(typeEc) && hasCrdExtension(it->path()))
      files.push_back(it->path().filename().string());
  }
  if (ec) {
    out.errors.push_back(LoadError{{dir, 0}, "", "cannot list directory: " + ec.message(), 0, 0});
    return;
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    out.errors.push_back(
        LoadError{{dir, 0}, "", "the directory has no *.yaml, *.yml or *.json file", 0, 0});
    return;
  }
  const std::string base = dir.empty() || dir.back() == '/' ? dir : dir + "/";
  for (const auto& name : files) loadFile(loader, out, base + name);
}

}  // namespace

LoadResult loadCrdText(const std::string& text, const std::string& sourceName) {
  LoadResult out;
  try {
    Loader loader(out);
    loader.loadText(text, sourceName);
    loader.finish(sourceName);
  } catch (const std::exception& e) {
    out.crds.clear();
    out.errors.push_back(
        LoadError{{sourceName, 0}, "", std::string("cannot load: ") + e.what(), 0, 0});
  }
  return out;
}

LoadResult loadCrdInput(const std::string& pathOrDashOrDir, std::istream& stdinStream) {
  LoadResult out;
  try {
    Loader loader(out);
    if (pathOrDashOrDir == "-") {
      std::string text, why;
      if (!readAll(stdinStream, text, why))
        out.errors.push_back(LoadError{{"<stdin>", 0}, "", "cannot read: " + why, 0, 0});
      else
        loader.loadText(text, "<stdin>");
      loader.finish("<stdin>");
      return out;
    }
    std::error_code ec;
    if (std::filesystem::is_directory(pathOrDashOrDir, ec))
      loadDirectory(loader, out, pathOrDashOrDir);
    else
      loadFile(loader, out, pathOrDashOrDir);
    loader.finish(pathOrDashOrDir);
  } catch (const std::exception& e) {
    out.crds.clear();
    out.errors.push_back(
        LoadError{{pathOrDashOrDir, 0}, "", std::string("cannot load: ") + e.what(), 0, 0});
  }
  return out;
}

}  // namespace convcheck

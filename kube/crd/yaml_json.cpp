#include "kube/crd/yaml_json.h"

#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "kube/crd/yaml_scalar.h"
#include "kube/go/utf8.h"
#include "kube/go/yaml_events.h"

namespace convcheck {

namespace {

using Mark = YamlMark;

// Reading stops here: nesting beyond the limit.
struct NestingTooDeep {
  Mark mark;
};

// go-yaml v2 decode.go: the share of alias-expanded nodes allowed for a document of a size.
double allowedAliasRatio(std::size_t decodeCount) {
  constexpr double kLow = 400000, kHigh = 4000000;
  const double count = static_cast<double>(decodeCount);
  if (count <= kLow) return 0.99;
  if (count >= kHigh) return 0.10;
  return 0.99 - 0.89 * ((count - kLow) / (kHigh - kLow));
}

// A node whose anchor was defined, kept to expand its aliases.
struct Anchored {
  bool complete = false;  // false while the anchored collection is still being read
  nlohmann::json value;   // the converted value (scalars: unnormalised, see `scalar`)
  std::optional<ResolvedScalar> scalar;  // set when the anchored node is a scalar
  std::size_t nodes = 1;                 // JSON values in the subtree
  int height = 0;                        // nesting levels inside the value
};

// A finished node on its way into its parent.
struct Finished {
  nlohmann::json value;
  std::optional<ResolvedScalar> scalar;  // for keys: the resolved scalar before normalisation
  bool plainMergeKey = false;            // a plain `<<`
  Mark mark;
  std::size_t nodes = 1;
  int height = 0;
};

// A sequence or mapping being read.
struct Frame {
  bool isMap = false;
  nlohmann::json value;
  Mark mark;
  std::string anchor;  // empty: none
  std::size_t nodes = 1;
  int height = 1;
  // sequences
  std::size_t index = 0;
  // mappings
  bool haveKey = false;
  bool keyIsMerge = false;
  std::string key;
  Mark keyMark;
  std::vector<std::pair<nlohmann::json, Mark>> merges;  // `<<` values, in order
};

// Builds one document's JSON from libyaml's events (the parser go-yaml v2 was ported from).
class JsonBuilder {
 public:
  JsonBuilder(std::string_view text, const YamlLimits& limits, YamlDocument& doc)
      : text_(text), limits_(limits), doc_(doc) {}

  void documentStart(const Mark& mark) { doc_.line = mark.line + 1; }
  void documentEnd() {
    if (!doc_.errors.empty()) doc_.value = nullptr;
  }

  void scalar(const YamlEvent& e) {
    if (failed()) return;
    ResolvedScalar r = resolveYamlScalar(e);
    if (!r.error.empty()) return fail(e.start, r.error);
    const bool plainMergeKey = e.plain && e.tag.empty() && e.value == "<<";
    finishScalar(e.start, e.anchor, std::move(r), plainMergeKey);
  }

  void alias(const Mark& mark, const std::string& anchor) {
    if (failed()) return;
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) return fail(mark, "alias refers to an unknown anchor");
    const Anchored& a = it->second;
    if (!a.complete)
      return fail(mark, "recursive alias: the alias is inside the node it refers to");
    if (static_cast<int>(stack_.size()) + a.height > limits_.maxDepth)
      return fail(mark, "nesting deeper than " + std::to_string(limits_.maxDepth) +
                            " levels after expanding this alias");
    // go-yaml counts the alias node itself, then every node of its expansion as aliased.
    if (!countNodes(mark, 1, false) || !countNodes(mark, a.nodes, true)) return;
    Finished f;
    f.value = a.value;
    f.scalar = a.scalar;
    f.mark = mark;
    f.nodes = a.nodes;
    f.height = a.height;
    place(std::move(f));
  }

  void collectionStart(const Mark& mark, const std::string& anchor, bool isMap) {
    enter(mark);
    if (failed()) return;
    open(mark, anchor, isMap);
  }
  void collectionEnd() { leave(); }

 private:
  bool failed() const { return !doc_.errors.empty(); }

  void fail(const Mark& mark, std::string message) {
    YamlIssue issue;
    issue.document = doc_.index;
    issue.line = mark.line + 1;
    issue.column = mark.column + 1;
    issue.path = currentPath();
    issue.message = std::move(message);
    doc_.errors.push_back(std::move(issue));
    stack_.clear();
  }

  void warn(const Mark& mark, std::string message) {
    YamlIssue issue;
    issue.document = doc_.index;
    issue.line = mark.line + 1;
    issue.column = mark.column + 1;
    issue.path = currentPath();
    issue.message = std::move(message);
    doc_.warnings.push_back(std::move(issue));
  }

  // Depth is tracked even after a failure: the events go on until the document ends.
  void enter(const Mark& mark) {
    if (++depth_ > limits_.maxDepth) throw NestingTooDeep{mark};
  }
  void leave() {
    --depth_;
    if (failed()) return;
    closeTop();
  }

  bool countNodes(const Mark& mark, std::size_t n, bool fromAlias) {
    decodeCount_ += n;
    if (fromAlias) aliasCount_ += n;
    if (aliasCount_ > 100 && decodeCount_ > 1000 &&
        static_cast<double>(aliasCount_) / static_cast<double>(decodeCount_) >
            allowedAliasRatio(decodeCount_)) {
      fail(mark, "document contains excessive aliasing (" + std::to_string(aliasCount_) + " of " +
                     std::to_string(decodeCount_) + " values come from aliases)");
      return false;
    }
    if (decodeCount_ > limits_.maxNodes) {
      fail(mark, "document expands to more than " + std::to_string(limits_.maxNodes) +
                     " values (aliases expanded)");
      return false;
    }
    return true;
  }

  void open(const Mark& mark, const std::string& anchor, bool isMap) {
    if (!countNodes(mark, 1, false)) return;
    Frame frame;
    frame.isMap = isMap;
    frame.value = isMap ? nlohmann::json::object() : nlohmann::json::array();
    frame.mark = mark;
    frame.anchor = anchor;
    if (!anchor.empty()) anchors_[anchor] = Anchored{};  // incomplete until closed
    stack_.push_back(std::move(frame));
  }

  void closeTop() {
    Frame frame = std::move(stack_.back());
    stack_.pop_back();
    if (frame.isMap) applyMerges(frame);
    Finished f;
    f.value = std::move(frame.value);
    f.mark = frame.mark;
    f.nodes = frame.nodes;
    f.height = frame.height;
    if (!frame.anchor.empty()) {
      Anchored& a = anchors_[frame.anchor];
      a.complete = true;
      a.value = f.value;
      a.nodes = f.nodes;
      a.height = f.height;
    }
    place(std::move(f));
  }

  // Merged maps fill in keys the mapping does not set itself; earlier merges win.
  void applyMerges(Frame& frame) {
    for (auto& [merged, mark] : frame.merges) {
      auto addMissing = [&frame](nlohmann::json& source) {
        for (auto it = source.begin(); it != source.end(); ++it)
          if (!frame.value.contains(it.key())) frame.value[it.key()] = std::move(it.value());
      };
      if (merged.is_object()) {
        addMissing(merged);
      } else {
        for (auto& element : merged) addMissing(element);
      }
    }
    frame.merges.clear();
  }

  void finishScalar(const Mark& mark, const std::string& anchor, ResolvedScalar r,
                    bool plainMergeKey) {
    if (!countNodes(mark, 1, false)) return;
    Finished f;
    f.value = r.value;
    f.mark = mark;
    f.plainMergeKey = plainMergeKey;
    if (!anchor.empty()) {
      Anchored a;
      a.complete = true;
      a.value = r.value;
      a.scalar = r;
      anchors_[anchor] = std::move(a);
    }
    f.scalar = std::move(r);
    place(std::move(f));
  }

  // Puts a finished node where it belongs: the document root, a sequence item, a mapping key or
  // a mapping value.
  void place(Finished f) {
    if (stack_.empty()) {
      if (!checkValue(f)) return;
      doc_.value = normaliseJsonNumber(std::move(f.value));
      return;
    }
    Frame& parent = stack_.back();
    parent.nodes += f.nodes;
    parent.height = std::max(parent.height, f.height + 1);
    if (!parent.isMap) {
      if (!checkValue(f)) return;
      parent.value.push_back(normaliseJsonNumber(std::move(f.value)));
      ++parent.index;
      return;
    }
    if (!parent.haveKey) {
      placeKey(parent, std::move(f));
      return;
    }
    parent.haveKey = false;
    if (parent.keyIsMerge) {
      if (!isMergeable(f.value)) {
        parent.haveKey = true;  // keep the key in the error path
        return fail(f.mark, "map merge requires map or sequence of maps as the value");
      }
      parent.merges.emplace_back(std::move(f.value), f.mark);
      return;
    }
    parent.haveKey = true;  // the key is part of the path while the value is checked
    if (!checkValue(f)) return;
    if (parent.value.contains(parent.key))
      warn(parent.keyMark, "duplicate key \"" + parent.key + "\"; the last value wins");
    parent.haveKey = false;
    parent.value[parent.key] = normaliseJsonNumber(std::move(f.value));
  }

  void placeKey(Frame& parent, Finished f) {
    parent.keyMark = f.mark;
    if (!f.scalar) {
      if (looksLikeHelm(f.mark))
        return fail(f.mark, "unrendered Helm template expression " + helmSnippet(f.mark) +
                                "; render the chart with `helm template` first");
      return fail(f.mark, std::string("a ") + (f.value.is_object() ? "mapping" : "sequence") +
                              " cannot be a map key in JSON");
    }
    if (f.plainMergeKey) {
      parent.keyIsMerge = true;
      parent.key = "<<";
      parent.haveKey = true;
      return;
    }
    std::string key, why;
    if (!yamlKeyToString(*f.scalar, key, why)) return fail(f.mark, why);
    parent.keyIsMerge = false;
    parent.key = std::move(key);
    parent.haveKey = true;
  }

  static bool isMergeable(const nlohmann::json& v) {
    if (v.is_object()) return true;
    if (!v.is_array()) return false;
    for (const auto& element : v)
      if (!element.is_object()) return false;
    return true;
  }

  // JSON has no Infinity or NaN: go's json.Marshal fails on them, so the document does too.
  bool checkValue(const Finished& f) {
    if (!f.scalar || f.scalar->nonFinite == NonFiniteFloat::None) return true;
    const char* what = f.scalar->nonFinite == NonFiniteFloat::NaN                ? "NaN"
                       : f.scalar->nonFinite == NonFiniteFloat::PositiveInfinity ? "+Inf"
                                                                                 : "-Inf";
    fail(f.mark, std::string("the value is ") + what +
                     ", which JSON cannot hold (quote it to make it a string)");
    return false;
  }

  bool looksLikeHelm(const Mark& mark) const {
    const std::size_t pos = byteOffset(mark);
    const std::size_t from = pos == 0 ? 0 : pos - 1;
    return text_.substr(from, 3).find("{{") != std::string_view::npos;
  }

  // libyaml counts characters after a byte order mark; the text is valid UTF-8.
  std::size_t byteOffset(const Mark& mark) const {
    std::size_t i = text_.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    for (std::size_t chars = 0; i < text_.size() && chars < mark.pos; ++chars)
      i += decodeRune(text_.substr(i)).second;
    return i;
  }

  std::string helmSnippet(const Mark& mark) const {
    const std::size_t pos = byteOffset(mark);
    const std::size_t start = text_.rfind("{{", pos + 1);
    if (start == std::string_view::npos) return "`{{ ... }}`";
    std::size_t end = text_.find("}}", start);
    const std::size_t eol = text_.find('\n', start);
    if (end == std::string_view::npos || (eol != std::string_view::npos && end > eol) ||
        end - start > 80)
      return "`{{ ... }}`";
    return "`" + std::string(text_.substr(start, end + 2 - start)) + "`";
  }

  std::string currentPath() const {
    std::string path;
    for (const Frame& frame : stack_) {
      if (frame.isMap) {
        if (frame.haveKey) appendPathKey(path, frame.key);
      } else {
        path += "[" + std::to_string(frame.index) + "]";
      }
    }
    return path;
  }

  std::string_view text_;
  const YamlLimits& limits_;
  YamlDocument& doc_;
  std::vector<Frame> stack_;
  std::unordered_map<std::string, Anchored> anchors_;  // a later definition replaces one
  int depth_ = 0;
  std::size_t decodeCount_ = 0;
  std::size_t aliasCount_ = 0;
};

void positionOf(std::string_view text, std::size_t offset, int& line, int& column) {
  line = 1;
  column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
}

}  // namespace

std::string YamlIssue::text() const {
  std::string out;
  auto add = [&out](const std::string& part) {
    if (!out.empty()) out += ", ";
    out += part;
  };
  if (document > 0) add("document " + std::to_string(document));
  if (line > 0) add("line " + std::to_string(line));
  if (column > 0) add("column " + std::to_string(column));
  if (!path.empty()) add(path);
  return out.empty() ? message : out + ": " + message;
}

void appendPathKey(std::string& path, std::string_view key) {
  bool plain = !key.empty();
  for (char c : key) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '$' || c == '@';
    if (!ok) {
      plain = false;
      break;
    }
  }
  if (plain) {
    if (!path.empty()) path += '.';
    path += key;
    return;
  }
  path += "[" + nlohmann::json(std::string(key)).dump() + "]";
}

YamlStream parseYamlStream(std::string_view text, const YamlLimits& limits) {
  YamlStream stream;
  if (const auto bad = firstInvalidUtf8(text); bad != std::string_view::npos) {
    YamlIssue issue;
    positionOf(text, bad, issue.line, issue.column);
    issue.message = "the input is not valid UTF-8 (convert the file to UTF-8)";
    stream.fatal = std::move(issue);
    return stream;
  }
  YamlEventReader reader(text);
  std::optional<YamlDocument> doc;
  std::optional<JsonBuilder> builder;
  std::unordered_set<std::string> anchors;  // defined so far in the document, even after a failure
  int index = 0;
  auto failAt = [&](const Mark& mark, std::string message) {
    YamlIssue issue;
    issue.document = doc ? doc->index : index + 1;
    issue.line = mark.line + 1;
    issue.column = mark.column + 1;
    issue.message = std::move(message);
    stream.fatal = std::move(issue);
  };
  try {
    YamlEvent e;
    while (!stream.fatal) {
      if (!reader.next(e)) {
        failAt(reader.problemMark(), "YAML syntax error: " + reader.problem());
        break;
      }
      if (!e.anchor.empty() && e.type != YamlEvent::Type::Alias) anchors.insert(e.anchor);
      switch (e.type) {
        case YamlEvent::Type::StreamStart:
          break;
        case YamlEvent::Type::StreamEnd:
          return stream;
        case YamlEvent::Type::DocumentStart:
          doc.emplace();
          doc->index = ++index;
          builder.emplace(text, limits, *doc);
          // An explicit document starts at its "---" (the event's end), after any directives.
          builder->documentStart(e.explicitDocument ? e.end : e.start);
          break;
        case YamlEvent::Type::DocumentEnd:
          builder->documentEnd();
          builder.reset();
          anchors.clear();
          stream.documents.push_back(std::move(*doc));
          doc.reset();
          break;
        case YamlEvent::Type::Scalar:
          builder->scalar(e);
          break;
        case YamlEvent::Type::Alias:
          // go-yaml fails the whole input on an alias to an anchor never defined.
          if (anchors.count(e.anchor) == 0) {
            failAt(e.start, "YAML syntax error: unknown anchor '" + e.anchor + "' referenced");
            break;
          }
          builder->alias(e.start, e.anchor);
          break;
        case YamlEvent::Type::SequenceStart:
        case YamlEvent::Type::MappingStart:
          builder->collectionStart(e.start, e.anchor, e.type == YamlEvent::Type::MappingStart);
          break;
        case YamlEvent::Type::SequenceEnd:
        case YamlEvent::Type::MappingEnd:
          builder->collectionEnd();
          break;
      }
    }
  } catch (const NestingTooDeep& e) {
    failAt(e.mark, "nesting deeper than " + std::to_string(limits.maxDepth) + " levels");
  } catch (const std::exception& e) {
    failAt(Mark{}, std::string("cannot read YAML: ") + e.what());
    stream.fatal->line = stream.fatal->column = 0;
  }
  return stream;
}

}  // namespace convcheck

#include "kube/apiserver/yaml_body.h"

#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "kube/crd/yaml_scalar.h"
#include "kube/go/go_format.h"
#include "kube/go/yaml_events.h"

namespace convcheck {
namespace {

using nlohmann::json;

// Safety limits of the YAML fallback (go-yaml has none this tight; a conversion answer in YAML
// with more is hostile): every level and every value costs memory.
constexpr int kMaxYamlDepth = 1000;
constexpr std::size_t kMaxYamlNodes = 1'000'000;

// Thrown from the builder: a hostile body must be stopped while it descends, and alias expansion
// must be bounded before it allocates.
struct YamlRefused {
  std::string message;
};

// Builds the JSON value of the first document from go-yaml's parser events, expanding aliases,
// within the limits of yaml_body.h.
class BoundedJsonBuilder {
 public:
  // Returns false once the first document has ended.
  bool add(const YamlEvent& e) {
    using Type = YamlEvent::Type;
    switch (e.type) {
      case Type::StreamStart:
      case Type::DocumentStart:
        return true;
      case Type::StreamEnd:
      case Type::DocumentEnd:
        return false;
      case Type::Scalar:
        scalar(e);
        return true;
      case Type::Alias:
        alias(e.anchor);
        return true;
      case Type::SequenceStart:
        open(json::array(), e.anchor);
        return true;
      case Type::MappingStart:
        open(json::object(), e.anchor);
        return true;
      case Type::SequenceEnd:
      case Type::MappingEnd:
        close();
        return true;
    }
    return true;
  }

  json take() { return std::move(root_); }
  // The first value JSON cannot hold ("+Inf", "-Inf", "NaN"), which json.Marshal then refuses.
  const std::string& nonFinite() const { return nonFinite_; }

 private:
  struct Anchored {
    bool complete = false;
    json value;
    std::size_t nodes = 1;
    int height = 0;
  };
  struct Frame {
    json value;
    std::string anchor;
    std::size_t nodes = 1;
    int height = 1;
    bool haveKey = false;
    std::string key = {};
  };

  static double aliasRatio(std::size_t decoded) {
    constexpr double kLow = 400000, kHigh = 4000000;
    const double n = static_cast<double>(decoded);
    if (n <= kLow) return 0.99;
    if (n >= kHigh) return 0.10;
    return 0.99 - 0.89 * ((n - kLow) / (kHigh - kLow));
  }

  void count(std::size_t n) {
    nodes_ += n;
    if (nodes_ > kMaxYamlNodes)
      throw YamlRefused{"document too large: more than " + std::to_string(kMaxYamlNodes) +
                        " values (convcheck's limit for YAML answers)"};
  }

  // go-yaml v2's resolution (kube/crd/yaml_scalar.h, the table the CRD reader uses too).
  void scalar(const YamlEvent& e) {
    count(1);
    ResolvedScalar r = resolveYamlScalar(e);
    if (!r.error.empty()) throw YamlRefused{r.error};
    json value = normaliseJsonNumber(r.value);
    // An alias of it stands for the value, also when the anchored scalar is a key.
    if (!e.anchor.empty()) anchors_[e.anchor] = Anchored{true, value, 1, 0};
    const bool isKey = !stack_.empty() && stack_.back().value.is_object() && !stack_.back().haveKey;
    if (isKey) {
      // convertToJSONableObject: keys become strings (1 -> "1", .inf -> ".inf").
      std::string key, why;
      if (!yamlKeyToString(r, key, why)) throw YamlRefused{why};
      value = std::move(key);
    } else if (r.nonFinite != NonFiniteFloat::None && nonFinite_.empty()) {
      nonFinite_ = r.nonFinite == NonFiniteFloat::NaN                ? "NaN"
                   : r.nonFinite == NonFiniteFloat::PositiveInfinity ? "+Inf"
                                                                     : "-Inf";
    }
    finish(std::move(value), "", 1, 0);
  }

  void alias(const std::string& anchor) {
    // go-yaml's decoder.alias messages.
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) throw YamlRefused{"unknown anchor '" + anchor + "' referenced"};
    if (!it->second.complete) throw YamlRefused{"anchor '" + anchor + "' value contains itself"};
    const Anchored& a = it->second;
    if (static_cast<int>(stack_.size()) + a.height > kMaxYamlDepth)
      throw YamlRefused{"exceeded max depth of " + std::to_string(kMaxYamlDepth)};
    aliased_ += a.nodes;
    count(a.nodes);
    // go-yaml v2's rule against alias bombs (decode.go allowedAliasRatio).
    if (aliased_ > 100 && nodes_ > 1000 &&
        static_cast<double>(aliased_) / static_cast<double>(nodes_) > aliasRatio(nodes_))
      throw YamlRefused{"document contains excessive aliasing"};
    finish(a.value, "", a.nodes, a.height);
  }

  void open(json value, const std::string& anchor) {
    if (static_cast<int>(stack_.size()) >= kMaxYamlDepth)
      throw YamlRefused{"exceeded max depth of " + std::to_string(kMaxYamlDepth)};
    count(1);
    if (!anchor.empty()) anchors_[anchor] = Anchored{};  // incomplete until closed
    stack_.push_back(Frame{std::move(value), anchor});
  }

  void close() {
    Frame frame = std::move(stack_.back());
    stack_.pop_back();
    if (!frame.anchor.empty())
      anchors_[frame.anchor] = Anchored{true, frame.value, frame.nodes, frame.height};
    finish(std::move(frame.value), "", frame.nodes, frame.height);
  }

  // Places a finished value into its parent (or as the document); `anchor` names a scalar.
  void finish(json value, const std::string& anchor, std::size_t nodes, int height) {
    if (!anchor.empty()) anchors_[anchor] = Anchored{true, value, nodes, height};
    if (stack_.empty()) {
      root_ = std::move(value);
      return;
    }
    Frame& parent = stack_.back();
    parent.nodes += nodes;
    parent.height = std::max(parent.height, height + 1);
    if (parent.value.is_array()) {
      parent.value.push_back(std::move(value));
    } else if (!parent.haveKey) {
      parent.key = value.is_string() ? value.get<std::string>()
                                     : value.dump(-1, ' ', false, json::error_handler_t::replace);
      parent.haveKey = true;
    } else {
      parent.value[parent.key] = std::move(value);
      parent.haveKey = false;
    }
  }

  std::vector<Frame> stack_;
  std::unordered_map<std::string, Anchored> anchors_;
  std::size_t nodes_ = 0, aliased_ = 0;
  json root_;
  std::string nonFinite_;
};

// Flow collections nest without indentation, and the scanner keeps state for every '[' and '{'
// before the builder (where the depth limit acts) sees them: a body of a million '[' would cost
// memory and time for nothing. Counts flow nesting outside quoted scalars and comments (a quote or
// '#' counts only where a scalar or comment can start), so such bodies are refused before scanning.
bool flowNestingWithin(std::string_view text, int limit) {
  int depth = 0;
  char quote = 0;
  bool comment = false;
  auto boundary = [&](std::size_t i) {
    if (i == 0) return true;
    const char p = text[i - 1];
    return p == ' ' || p == '\t' || p == '\n' || p == '\r' || p == ',' || p == '[' || p == '{' ||
           p == ':' || p == '-';
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (comment) {
      comment = c != '\n';
      continue;
    }
    if (quote != 0) {
      if (quote == '"' && c == '\\') {
        ++i;
      } else if (c == quote) {
        quote = 0;
      }
      continue;
    }
    if ((c == '"' || c == '\'') && boundary(i)) {
      quote = c;
    } else if (c == '#' && boundary(i)) {
      comment = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return false;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return true;
}

}  // namespace

bool looksLikeJson(std::string_view body) {
  std::string trimmed = goTrimSpace(body);
  return !trimmed.empty() && trimmed[0] == '{';
}

YamlAsJson yamlToJson(std::string_view body) {
  YamlAsJson out;
  if (!flowNestingWithin(body, kMaxYamlDepth)) {
    out.error = "error converting YAML to JSON: yaml: exceeded max depth of " +
                std::to_string(kMaxYamlDepth);
    return out;
  }
  try {
    YamlEventReader reader(body);
    BoundedJsonBuilder builder;
    YamlEvent event;
    // The first document only, as go-yaml's Unmarshal, which still reads the event after it.
    bool ended = false;
    for (;;) {
      if (!reader.next(event)) {
        out.error = "error converting YAML to JSON: yaml: " + reader.goMessage();
        return out;
      }
      if (ended) break;
      if (!builder.add(event)) {
        if (event.type == YamlEvent::Type::StreamEnd) break;
        ended = true;
      }
    }
    if (!builder.nonFinite().empty()) {
      out.error = "error converting YAML to JSON: json: unsupported value: " + builder.nonFinite();
      return out;
    }
    out.json = builder.take().dump(-1, ' ', false, json::error_handler_t::replace);
  } catch (const YamlRefused& e) {
    out.error = "error converting YAML to JSON: yaml: " + e.message;
  }
  return out;
}

}  // namespace convcheck

#include "kube/apiserver/yaml_body.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include <sstream>
#include <unordered_map>
#include <vector>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>
#include <nlohmann/json.hpp>

#include "kube/go/go_format.h"

namespace convcheck {
namespace {

using nlohmann::json;

std::optional<json> resolveInt(std::string plain) {
  std::string digits;
  for (char c : plain)
    if (c != '_') digits += c;
  if (digits.empty()) return std::nullopt;
  bool negative = false;
  std::string_view s = digits;
  if (s[0] == '+' || s[0] == '-') {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    base = 2;
    s.remove_prefix(2);
  } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'O')) {
    base = 8;
    s.remove_prefix(2);
  } else if (s.size() > 1 && s[0] == '0') {
    base = 8;
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  std::uint64_t magnitude = 0;
  auto res = std::from_chars(s.data(), s.data() + s.size(), magnitude, base);
  if (res.ec != std::errc() || res.ptr != s.data() + s.size()) return std::nullopt;
  if (!negative && magnitude <= std::uint64_t(INT64_MAX)) return json(std::int64_t(magnitude));
  if (negative && magnitude <= std::uint64_t(INT64_MAX) + 1)
    return json(magnitude == std::uint64_t(INT64_MAX) + 1 ? INT64_MIN : -std::int64_t(magnitude));
  if (!negative) return json(static_cast<double>(magnitude));  // uint64 → float64 in JSON
  return std::nullopt;
}

// Go's json.Marshal writes an integral float64 below 1e21 without a fraction; mirror that so the
// JSON decoder sees the same literal.
json goFloat(double d) {
  if (std::trunc(d) == d && std::fabs(d) < 9.2e18) return json(static_cast<std::int64_t>(d));
  return json(d);
}

// go-yaml v2's float syntax: [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
bool isYamlFloat(std::string_view s) {
  auto digits = [&](std::size_t& i) {
    std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i > start;
  };
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!digits(i)) return false;
  } else {
    if (!digits(i)) return false;
    if (i < s.size() && s[i] == '.') {
      ++i;
      digits(i);
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits(i)) return false;
  }
  return i == s.size();
}

json resolvePlain(const std::string& s) {
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return nullptr;
  for (const char* t : {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"})
    if (s == t) return true;
  for (const char* f : {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"})
    if (s == f) return false;
  if (auto i = resolveInt(s)) return *i;
  std::string noUnderscore;
  for (char c : s)
    if (c != '_') noUnderscore += c;
  if (isYamlFloat(noUnderscore)) return goFloat(std::strtod(noUnderscore.c_str(), nullptr));
  return s;
}

// Safety limits of the YAML fallback (go-yaml has none this tight; a conversion answer in YAML
// with more is hostile): yaml-cpp recurses once per level, and every value costs memory.
constexpr int kMaxYamlDepth = 1000;
constexpr std::size_t kMaxYamlNodes = 1'000'000;

// Thrown from the event handler: yaml-cpp's parser recurses per nesting level, so a hostile body
// must be stopped while it descends, and alias expansion must be bounded before it allocates.
struct YamlRefused {
  std::string message;
};

// Builds the JSON value of the first document from yaml-cpp's events, expanding aliases, within
// the limits of yaml_body.h.
class BoundedJsonBuilder : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t anchor) override {
    count(1);
    finish(nullptr, anchor, 1, 0);
  }
  void OnScalar(const YAML::Mark&, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    count(1);
    // Quoted scalars carry the non-specific tag "!": they stay strings.
    finish(tag == "!" ? json(value) : resolvePlain(value), anchor, 1, 0);
  }
  void OnAlias(const YAML::Mark&, YAML::anchor_t anchor) override {
    auto it = anchors_.find(anchor);
    if (it == anchors_.end() || !it->second.complete)
      throw YamlRefused{"unknown anchor referenced"};
    const Anchored& a = it->second;
    if (static_cast<int>(stack_.size()) + a.height > kMaxYamlDepth)
      throw YamlRefused{"exceeded max depth of " + std::to_string(kMaxYamlDepth)};
    aliased_ += a.nodes;
    count(a.nodes);
    // go-yaml v2's rule against alias bombs (decode.go allowedAliasRatio).
    if (aliased_ > 100 && nodes_ > 1000 &&
        static_cast<double>(aliased_) / static_cast<double>(nodes_) > aliasRatio(nodes_))
      throw YamlRefused{"document contains excessive aliasing"};
    finish(a.value, YAML::NullAnchor, a.nodes, a.height);
  }
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(json::array(), anchor);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(json::object(), anchor);
  }
  void OnMapEnd() override { close(); }

  json take() { return std::move(root_); }

 private:
  struct Anchored {
    bool complete = false;
    json value;
    std::size_t nodes = 1;
    int height = 0;
  };
  struct Frame {
    json value;
    YAML::anchor_t anchor;
    std::size_t nodes = 1;
    int height = 1;
    bool haveKey = false;
    std::string key;
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

  void open(json value, YAML::anchor_t anchor) {
    if (static_cast<int>(stack_.size()) >= kMaxYamlDepth)
      throw YamlRefused{"exceeded max depth of " + std::to_string(kMaxYamlDepth)};
    count(1);
    if (anchor != YAML::NullAnchor) anchors_[anchor] = Anchored{};  // incomplete until closed
    stack_.push_back(Frame{std::move(value), anchor});
  }

  void close() {
    Frame frame = std::move(stack_.back());
    stack_.pop_back();
    if (frame.anchor != YAML::NullAnchor)
      anchors_[frame.anchor] = Anchored{true, frame.value, frame.nodes, frame.height};
    finish(std::move(frame.value), YAML::NullAnchor, frame.nodes, frame.height);
  }

  // Places a finished value into its parent (or as the document); `anchor` names a scalar.
  void finish(json value, YAML::anchor_t anchor, std::size_t nodes, int height) {
    if (anchor != YAML::NullAnchor) anchors_[anchor] = Anchored{true, value, nodes, height};
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
  std::unordered_map<YAML::anchor_t, Anchored> anchors_;
  std::size_t nodes_ = 0, aliased_ = 0;
  json root_;
};

// Flow collections nest without indentation, and yaml-cpp's scanner queues tokens for every '['
// and '{' before its parser (where the depth limit acts) sees them: a body of a million '[' would
// cost gigabytes. Counts flow nesting outside quoted scalars and comments (a quote or '#' counts
// only where a scalar or comment can start), so such bodies are refused before scanning.
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
    std::istringstream in{std::string(body)};
    YAML::Parser parser(in);
    BoundedJsonBuilder builder;
    parser.HandleNextDocument(builder);  // the first document only, as YAML::Load
    out.json = builder.take().dump(-1, ' ', false, json::error_handler_t::replace);
  } catch (const YamlRefused& e) {
    out.error = "error converting YAML to JSON: yaml: " + e.message;
  } catch (const YAML::Exception& e) {
    out.error = "error converting YAML to JSON: yaml: line " + std::to_string(e.mark.line + 1) +
                ": " + e.msg;
  }
  return out;
}

}  // namespace convcheck

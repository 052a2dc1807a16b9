#include "properties/checks/problem_identity.h"

#include <algorithm>
#include <cctype>
#include <regex>

#include "kube/apiserver/group_version.h"
#include "kube/go/utf8.h"

namespace convcheck {

namespace {

constexpr std::size_t kMaskedLength = 200;
constexpr std::size_t kMaskedInput = 4096;

bool wordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
}

bool separator(char c) { return c == '-' || c == '.' || c == '_'; }

// Whether `word` is `literal` or has it as a part between separators ("x-converted" and
// "web-1.x" for "x"; "alphanumeric" is not "alpha"). One or two letters standing between spaces
// (`inProse`) are a word of the message ("a", "or", "to"), not a name ("v1" and "(t/x)" are
// names); digits alone are left to the number mask.
bool namesWord(const std::string& word, const std::string& literal, bool inProse) {
  if (literal.empty() || literal.size() > word.size()) return false;
  const bool letters = std::all_of(literal.begin(), literal.end(), [](char c) {
    return std::isalpha(static_cast<unsigned char>(c)) != 0;
  });
  const bool digits = std::all_of(literal.begin(), literal.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
  if (inProse && letters && literal.size() < 3 && literal.size() == word.size()) return false;
  if (digits) return false;
  for (std::size_t at = word.find(literal); at != std::string::npos;
       at = word.find(literal, at + 1)) {
    const std::size_t end = at + literal.size();
    if ((at == 0 || separator(word[at - 1])) && (end == word.size() || separator(word[end])))
      return true;
  }
  return false;
}

// Quoted values ("x" with backslash escapes, 'x', `x`) as "<v>"; a quote that is not closed stays.
std::string maskQuoted(const std::string& text) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    const char q = text[i];
    if (q != '"' && q != '\'' && q != '`') {
      out += text[i++];
      continue;
    }
    std::size_t j = i + 1;
    while (j < text.size() && text[j] != q) j += q == '"' && text[j] == '\\' ? 2 : 1;
    if (j >= text.size()) {
      out += text[i++];
      continue;
    }
    out += "\"<v>\"";
    i = j + 1;
  }
  return out;
}

// Each word (a run of letters, digits, '-', '_' and '.', without a sentence's final dot) that is
// one of `literals` or has one as a part, as <name>.
std::string maskWords(const std::string& text, const std::vector<std::string>& literals) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (!wordChar(text[i])) {
      out += text[i++];
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && wordChar(text[end])) ++end;
    std::size_t wordEnd = end;
    while (wordEnd > i && text[wordEnd - 1] == '.') --wordEnd;
    const std::string word = text.substr(i, wordEnd - i);
    const bool inProse = (i == 0 || text[i - 1] == ' ') &&
                         (end == text.size() || text[end] == ' ' || text[end] == ',');
    const bool masked = std::any_of(literals.begin(), literals.end(), [&](const std::string& l) {
      return namesWord(word, l, inProse);
    });
    out += masked ? "<name>" : word;
    out += text.substr(wordEnd, end - wordEnd);
    i = end;
  }
  return out;
}

// kube-apiserver words one bad object differently in a list and alone ("invalid converted object
// at index 3", "invalid object at index 0", "invalid metadata in object at index 2", "invalid
// metadata"): one wording, without the index.
std::string oneObjectWording(const std::string& text) {
  static const std::regex atIndex(R"(invalid (converted )?object at index \d+)");
  static const std::regex metadataAt(R"(invalid metadata in object at index \d+)");
  return std::regex_replace(std::regex_replace(text, atIndex, "invalid object"), metadataAt,
                            "invalid metadata");
}

// kube-apiserver's check of a converted object's identity ("must have the same name: db != db-x",
// values unquoted as Go's %v prints them): both values as <v>, whatever they are, so a short name
// that reads like a word of the message does not make one defect a problem per object.
std::string maskIdentityValues(const std::string& text) {
  static const std::regex sameValue(R"((must have the same [A-Za-z]+): \S* != \S*)");
  return std::regex_replace(text, sameValue, "$1: <v> != <v>");
}

// "conversion webhook for example.dev/v1, Kind=Widget failed" -> "... for <gvk> failed": the
// group/version before each ", Kind=" and the kind after it (by hand: a regex would backtrack
// over every long word).
std::string maskGroupVersionKinds(const std::string& text) {
  static const std::string marker = ", Kind=";
  auto gvChar = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '/';
  };
  std::string out;
  std::size_t from = 0;
  for (std::size_t at = text.find(marker); at != std::string::npos;
       at = text.find(marker, at + marker.size())) {
    std::size_t start = at;
    while (start > from && gvChar(text[start - 1])) --start;
    std::size_t end = at + marker.size();
    while (end < text.size() && std::isalnum(static_cast<unsigned char>(text[end]))) ++end;
    if (start == at) continue;  // no group/version before the marker
    out += text.substr(from, start - from) + "<gvk>";
    from = end;
  }
  return out + text.substr(from);
}

}  // namespace

std::string maskMessage(const std::string& message, const std::vector<std::string>& literals) {
  static const std::regex number(R"(\b\d+(?:\.\d+)?(?:[eE][-+]?\d+)?\b)");
  // Masked before they are cut (a name may be cut short), but only the start of a long message
  // is worth masking: it tells crashes apart.
  std::string s =
      oneObjectWording(maskGroupVersionKinds(std::string(utf8Prefix(message, kMaskedInput))));
  s = maskQuoted(maskWords(s, literals));
  s = maskIdentityValues(std::regex_replace(s, number, "<n>"));
  // Cut on a character boundary: the key is shown and written into JSON reports and bundles.
  if (s.size() > kMaskedLength) s = std::string(utf8Prefix(s, kMaskedLength));
  return s;
}

std::string maskedRejection(const Exchange& ex) {
  std::vector<std::string> literals;
  auto addVersion = [&](const std::string& apiVersion) {
    if (apiVersion.empty()) return;
    literals.push_back(apiVersion);
    if (auto gv = parseGroupVersion(apiVersion)) literals.push_back(gv->version);
  };
  addVersion(ex.sent.desiredApiVersion);
  for (const auto& object : ex.sent.objects) {
    if (!object.is_object()) continue;
    addVersion(object.value("apiVersion", ""));
    const auto meta = object.find("metadata");
    if (meta == object.end() || !meta->is_object()) continue;
    for (const char* key : {"name", "namespace", "uid", "generateName"}) {
      const auto value = meta->find(key);
      if (value != meta->end() && value->is_string()) literals.push_back(value->get<std::string>());
    }
  }
  std::sort(literals.begin(), literals.end());
  literals.erase(std::unique(literals.begin(), literals.end()), literals.end());
  return maskMessage(ex.verdict.message, std::move(literals));
}

std::string problemOfCauseKey(const std::string& causeKey) {
  const auto bar = causeKey.find('|');
  return bar == std::string::npos ? causeKey : causeKey.substr(bar + 1);
}

std::vector<PathStep> pathSteps(const std::string& path) {
  std::vector<PathStep> steps;
  std::size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '.') {
      ++i;
      continue;
    }
    if (path[i] == '[') {
      std::size_t close = std::string::npos;
      std::string inner;
      if (i + 1 < path.size() && path[i + 1] == '"') {
        // A JSON-quoted key: find its closing quote, honouring escapes.
        std::size_t j = i + 2;
        while (j < path.size() && path[j] != '"') j += path[j] == '\\' ? 2 : 1;
        try {
          inner = nlohmann::json::parse(path.substr(i + 1, j - i)).get<std::string>();
        } catch (const nlohmann::json::exception&) {
          inner = path.substr(i + 2, j - i - 2);
        }
        close = path.find(']', j);
      } else {
        close = path.find(']', i);
        inner = path.substr(i + 1, close == std::string::npos ? std::string::npos : close - i - 1);
        if (!inner.empty() && inner.find_first_not_of("0123456789") == std::string::npos) {
          steps.push_back({"", static_cast<std::size_t>(std::stoull(inner)), true});
          i = close == std::string::npos ? path.size() : close + 1;
          continue;
        }
      }
      steps.push_back({inner});
      i = close == std::string::npos ? path.size() : close + 1;
      continue;
    }
    const std::size_t end = path.find_first_of(".[", i);
    steps.push_back({path.substr(i, end == std::string::npos ? std::string::npos : end - i)});
    i = end == std::string::npos ? path.size() : end;
  }
  return steps;
}

}  // namespace convcheck

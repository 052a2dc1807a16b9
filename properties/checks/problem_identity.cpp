#include "properties/checks/problem_identity.h"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "kube/apiserver/group_version.h"
#include "kube/go/utf8.h"

namespace convcheck {

namespace {

constexpr std::size_t kMaskedLength = 200;
constexpr std::size_t kMaskedInput = 4096;

bool wordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
}

// What stands between the parts of a name or of a quoted value ("web-1.x", "https://api-7f").
bool separator(char c) {
  return c == '-' || c == '.' || c == '_' || c == '/' || c == ':' || c == '@' || c == '=';
}

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
  // A name of letters alone standing between spaces reads as a word of the message ("batch of 9
  // objects" from a webhook whose objects include one named "batch").
  if (inProse && letters && literal.size() == word.size()) return false;
  if (digits) return false;
  for (std::size_t at = word.find(literal); at != std::string::npos;
       at = word.find(literal, at + 1)) {
    const std::size_t end = at + literal.size();
    if ((at == 0 || separator(word[at - 1])) && (end == word.size() || separator(word[end])))
      return true;
  }
  return false;
}

// Whether the text of a quoted value came from the request: it is, or has as a part between
// separators, one of `values` (strings and numbers the request holds), or it is a number.
bool fromRequest(const std::string& quoted, const std::vector<std::string>& values) {
  if (!quoted.empty() && quoted.find_first_not_of("0123456789.-+eE") == std::string::npos)
    return true;
  return std::any_of(values.begin(), values.end(), [&](const std::string& v) {
    return v == quoted || (v.size() >= 3 && namesWord(quoted, v, false));
  });
}

// Quoted values ("x" with backslash escapes, 'x', `x`) that came from the request as "<v>"; what
// the webhook's code wrote itself ('apiKeyVerification', the property a crash read) stays, so two
// crashes stay two. A quote that is not closed stays.
std::string maskQuoted(const std::string& text, const std::vector<std::string>& values) {
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
    const std::string inner = text.substr(i + 1, j - i - 1);
    out += fromRequest(inner, values) ? std::string("\"<v>\"") : text.substr(i, j - i + 1);
    i = j + 1;
  }
  return out;
}

// Whether `word` is shaped as a Kubernetes version name: v1, v2beta1, v1alpha3.
bool kubeVersion(std::string_view word) {
  auto digitsAt = [&word](std::size_t at) {
    std::size_t end = at;
    while (end < word.size() && std::isdigit(static_cast<unsigned char>(word[end]))) ++end;
    return end > at && word[at] != '0' ? end : std::string_view::npos;
  };
  if (word.empty() || word[0] != 'v') return false;
  std::size_t at = digitsAt(1);
  if (at == std::string_view::npos || at == word.size()) return at == word.size();
  for (std::string_view stage : {"alpha", "beta"})
    if (word.substr(at, stage.size()) == stage) return digitsAt(at + stage.size()) == word.size();
  return false;
}

// The word next to [at, end) in `text` across one list separator (", ", " and ", " or ", "/"),
// before it (`before`) or after it; "" when none.
std::string_view listNeighbour(std::string_view text, std::size_t at, std::size_t end,
                               bool before) {
  for (std::string_view gap : {", ", " and ", " or ", ",", "/"}) {
    if (before && at >= gap.size() && text.substr(at - gap.size(), gap.size()) == gap) {
      std::size_t from = at - gap.size();
      while (from > 0 && wordChar(text[from - 1])) --from;
      return text.substr(from, at - gap.size() - from);
    }
    if (!before && text.substr(end, gap.size()) == gap) {
      std::size_t to = end + gap.size();
      while (to < text.size() && wordChar(text[to])) ++to;
      return text.substr(end + gap.size(), to - end - gap.size());
    }
  }
  return {};
}

// Each word (a run of letters, digits, '-', '_' and '.', without a sentence's final dot) that is
// one of `literals` or has one as a part, as <v>; but a version name in a list of version names
// ("converts v1beta1, v1 and v2") stays: the list is the webhook's, whichever of them a request
// asked for.
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
    if (i > 0 && text[i - 1] == '<' && end < text.size() && text[end] == '>') {  // <gvk>, <v>
      out += text.substr(i, end - i);
      i = end;
      continue;
    }
    const bool inProse = (i == 0 || text[i - 1] == ' ') &&
                         (end == text.size() || text[end] == ' ' || text[end] == ',');
    const bool inVersionList =
        kubeVersion(word) && (kubeVersion(listNeighbour(text, i, wordEnd, true)) ||
                              kubeVersion(listNeighbour(text, i, wordEnd, false)));
    const bool masked =
        !inVersionList && std::any_of(literals.begin(), literals.end(), [&](const std::string& l) {
          return namesWord(word, l, inProse);
        });
    out += masked ? "<v>" : word;
    out += text.substr(wordEnd, end - wordEnd);
    i = end;
  }
  return out;
}

// `text` with each `from` followed by digits replaced by `to`.
std::string replaceIndexed(const std::string& text, const std::string& from,
                           const std::string& to) {
  std::string out;
  std::size_t at = 0;
  for (std::size_t hit = text.find(from); hit != std::string::npos; hit = text.find(from, at)) {
    std::size_t end = hit + from.size();
    const std::size_t digits = end;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
    out += text.substr(at, hit - at);
    out += end > digits ? to : text.substr(hit, end - hit);
    at = end;
  }
  return out + text.substr(at);
}

// kube-apiserver words one bad object differently in a list and alone ("invalid converted object
// at index 3", "invalid object at index 0", "invalid metadata in object at index 2", "invalid
// metadata"): one wording, without the index.
std::string oneObjectWording(const std::string& text) {
  std::string s = replaceIndexed(text, "invalid converted object at index ", "invalid object");
  s = replaceIndexed(s, "invalid object at index ", "invalid object");
  return replaceIndexed(s, "invalid metadata in object at index ", "invalid metadata");
}

// kube-apiserver's check of a converted object's identity ("must have the same name: db != db-x",
// values unquoted as Go's %v prints them): both values as <v>, whatever they are, so a short name
// that reads like a word of the message does not make one defect a problem per object.
std::string maskIdentityValues(const std::string& text) {
  static const std::string marker = "must have the same ";
  std::string out;
  std::size_t at = 0;
  for (std::size_t hit = text.find(marker); hit != std::string::npos; hit = text.find(marker, at)) {
    std::size_t end = hit + marker.size();
    while (end < text.size() && std::isalpha(static_cast<unsigned char>(text[end]))) ++end;
    out += text.substr(at, end - at);
    at = end;
    if (end + 1 >= text.size() || text[end] != ':' || text[end + 1] != ' ') continue;
    // ": <value> != <value>", each value a run of non-spaces (the first may be empty)
    std::size_t v = end + 2;
    while (v < text.size() && text[v] != ' ') ++v;
    if (text.compare(v, 4, " != ") != 0) continue;
    std::size_t w = v + 4;
    while (w < text.size() && text[w] != ' ') ++w;
    out += ": <v> != <v>";
    at = w;
  }
  return out + text.substr(at);
}

// Standalone numbers ("12", "12.5", "1e9"; not the digits of "v1beta1" or "x2") as <v>.
std::string maskNumbers(const std::string& text) {
  auto wordLike = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (!digit(text[i]) || (i > 0 && wordLike(text[i - 1]))) {
      out += text[i++];
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && digit(text[end])) ++end;
    if (end + 1 < text.size() && text[end] == '.' && digit(text[end + 1])) {
      end += 1;
      while (end < text.size() && digit(text[end])) ++end;
    }
    if (end < text.size() && (text[end] == 'e' || text[end] == 'E')) {
      std::size_t e = end + 1;
      if (e < text.size() && (text[e] == '-' || text[e] == '+')) ++e;
      if (e < text.size() && digit(text[e])) {
        while (e < text.size() && digit(text[e])) ++e;
        end = e;
      }
    }
    if (end < text.size() && wordLike(text[end])) {  // "12ab": a word, not a number
      while (end < text.size() && wordLike(text[end])) ++end;
      out += text.substr(i, end - i);
    } else {
      out += "<v>";
    }
    i = end;
  }
  return out;
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

std::string maskMessage(const std::string& message, const std::vector<std::string>& literals,
                        const std::vector<std::string>& values) {
  // Masked before they are cut (a name may be cut short), but only the start of a long message
  // is worth masking: it tells crashes apart.
  std::string s =
      oneObjectWording(maskGroupVersionKinds(std::string(utf8Prefix(message, kMaskedInput))));
  std::vector<std::string> fromInput = values;
  fromInput.insert(fromInput.end(), literals.begin(), literals.end());
  s = maskQuoted(maskWords(s, literals), fromInput);
  s = maskIdentityValues(maskNumbers(s));
  // Cut on a character boundary: the key is shown and written into JSON reports and bundles.
  if (s.size() > kMaskedLength) s = std::string(utf8Prefix(s, kMaskedLength));
  return s;
}

namespace {

constexpr std::size_t kValuesKept = 4096;  // values of a request a message is checked against
constexpr std::size_t kValueLength = 256;  // longer strings are not worth looking for

// The strings and numbers of `value` (not its keys), into `out`.
void requestValues(const nlohmann::json& value, std::vector<std::string>& out) {
  if (out.size() >= kValuesKept) return;
  if (value.is_string()) {
    const auto& s = value.get_ref<const std::string&>();
    if (!s.empty() && s.size() <= kValueLength) out.push_back(s);
  } else if (value.is_number()) {
    out.push_back(value.dump());
  } else if (value.is_structured()) {
    for (const auto& item : value) requestValues(item, out);
  }
}

}  // namespace

std::string maskedRejection(const Exchange& ex) {
  std::vector<std::string> literals, values;
  auto addVersion = [&](const std::string& apiVersion) {
    if (apiVersion.empty()) return;
    literals.push_back(apiVersion);
    if (auto gv = parseGroupVersion(apiVersion)) literals.push_back(gv->version);
  };
  addVersion(ex.sent.desiredApiVersion);
  if (!ex.sent.uid.empty()) literals.push_back(ex.sent.uid);  // request.uid, fresh per call
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
  // The values of the objects the message names (kube-apiserver and most webhooks name the
  // object that failed), or of every object of a small request: in a LIST chunk of realistic
  // objects some value is bound to equal a word the webhook's code wrote ('phase', 'length').
  constexpr std::size_t kSmallRequest = 2;
  const std::string& message = ex.verdict.message;
  for (const auto& object : ex.sent.objects) {
    bool named = ex.sent.objects.size() <= kSmallRequest;
    const auto meta = object.is_object() ? object.find("metadata") : object.end();
    if (!named && meta != object.end() && meta->is_object()) {
      const std::string name = meta->value("name", "");
      named = !name.empty() && message.find("(" + meta->value("namespace", "") + "/" + name +
                                            ")") != std::string::npos;
      named = named || (name.size() >= 3 && message.find(name) != std::string::npos);
    }
    if (named) requestValues(object, values);
  }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  std::sort(literals.begin(), literals.end());
  literals.erase(std::unique(literals.begin(), literals.end()), literals.end());
  return maskMessage(ex.verdict.message, literals, values);
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

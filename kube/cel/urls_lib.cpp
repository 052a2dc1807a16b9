// Kubernetes' urls library: url(), isURL(), getScheme, getHost, getHostname, getPort,
// getEscapedPath, getQuery; a URL is what Go's url.ParseRequestURI accepts (absolute, or an
// absolute path).
#include <cstring>

#include "kube/cel/builtins.h"

namespace convcheck::cel {

namespace {

struct Url {
  std::string text, scheme, host, path, rawQuery;
};

class UrlValue final : public OpaqueImpl {
 public:
  explicit UrlValue(Url u) : url(std::move(u)) {}
  const char* typeName() const override { return "kubernetes.URL"; }
  bool equals(const OpaqueImpl& o) const override {
    return static_cast<const UrlValue&>(o).url.text == url.text;
  }
  Url url;
};

bool validScheme(const std::string& s) {
  if (s.empty() || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '-' && c != '.')
      return false;
  return true;
}

bool validEscapes(const std::string& s) {
  for (std::size_t i = 0; i < s.size(); ++i)
    if (s[i] == '%' && (i + 2 >= s.size() || !std::isxdigit(static_cast<unsigned char>(s[i + 1])) ||
                        !std::isxdigit(static_cast<unsigned char>(s[i + 2]))))
      return false;
  return true;
}

std::optional<Url> parseRequestUri(const std::string& s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f || c == ' ') return std::nullopt;
  Url u;
  u.text = s;
  std::string rest = s;
  if (auto hash = rest.find('#'); hash != std::string::npos) rest = rest.substr(0, hash);
  if (auto q = rest.find('?'); q != std::string::npos) {
    u.rawQuery = rest.substr(q + 1);
    rest = rest.substr(0, q);
  }
  if (!rest.empty() && rest[0] == '/') {
    if (rest.compare(0, 2, "//") == 0) return std::nullopt;
    u.path = rest;
    return validEscapes(u.path) ? std::optional<Url>(u) : std::nullopt;
  }
  const auto colon = rest.find(':');
  if (colon == std::string::npos || !validScheme(rest.substr(0, colon))) return std::nullopt;
  u.scheme = rest.substr(0, colon);
  rest = rest.substr(colon + 1);
  if (rest.compare(0, 2, "//") == 0) {
    rest = rest.substr(2);
    const auto slash = rest.find('/');
    u.host = rest.substr(0, slash);
    if (auto at = u.host.rfind('@'); at != std::string::npos) u.host = u.host.substr(at + 1);
    u.path = slash == std::string::npos ? "" : rest.substr(slash);
  } else {
    if (rest.empty() || rest[0] != '/') return std::nullopt;  // opaque URIs are not request URIs
    u.path = rest;
  }
  if (!validEscapes(u.path)) return std::nullopt;
  return u;
}

const UrlValue* urlOf(const Value& v) {
  if (v.kind() != Kind::Opaque || std::strcmp(v.asOpaque().typeName(), "kubernetes.URL") != 0)
    return nullptr;
  return static_cast<const UrlValue*>(&v.asOpaque());
}

Value url(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n != 1 || a[0].kind() != Kind::String) return noSuchOverload("url");
  st.cost += traversalCost(a[0].str().size());
  auto u = parseRequestUri(a[0].str());
  if (!u) return Value::error("URL parse error during conversion from string: " + a[0].str());
  return Value::opaque(std::make_shared<const UrlValue>(*u));
}

Value isURL(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n != 1 || a[0].kind() != Kind::String) return noSuchOverload("isURL");
  st.cost += traversalCost(a[0].str().size());
  return Value::boolean(parseRequestUri(a[0].str()).has_value());
}

std::string hostname(const std::string& host) {
  if (!host.empty() && host[0] == '[') {
    const auto close = host.find(']');
    return host.substr(1, close == std::string::npos ? std::string::npos : close - 1);
  }
  return host.substr(0, host.find(':'));
}

std::string port(const std::string& host) {
  std::size_t from = 0;
  if (!host.empty() && host[0] == '[') from = host.find(']');
  if (from == std::string::npos) return "";
  const auto colon = host.find(':', from);
  return colon == std::string::npos ? "" : host.substr(colon + 1);
}

std::string unescape(const std::string& s, bool plusIsSpace) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else if (s[i] == '+' && plusIsSpace) {
      out += ' ';
    } else {
      out += s[i];
    }
  }
  return out;
}

template <int Part>
Value urlPart(const Value* a, std::size_t n, EvalState&) {
  if (const Value* e = firstError(a, n)) return *e;
  const UrlValue* v = n == 1 ? urlOf(a[0]) : nullptr;
  if (!v) return noSuchOverload("url accessor");
  const Url& u = v->url;
  switch (Part) {
    case 0:
      return Value::string(u.scheme);
    case 1:
      return Value::string(u.host);
    case 2:
      return Value::string(hostname(u.host));
    case 3:
      return Value::string(port(u.host));
    case 4:
      return Value::string(u.path);
    default: {
      std::vector<std::pair<Value, Value>> entries;
      std::size_t pos = 0;
      const std::string& q = u.rawQuery;
      while (pos < q.size()) {
        auto amp = q.find('&', pos);
        const std::string pair =
            q.substr(pos, amp == std::string::npos ? std::string::npos : amp - pos);
        pos = amp == std::string::npos ? q.size() : amp + 1;
        if (pair.empty() || pair.find(';') != std::string::npos) continue;
        const auto eq = pair.find('=');
        const std::string k = unescape(pair.substr(0, eq), true);
        const std::string val = eq == std::string::npos ? "" : unescape(pair.substr(eq + 1), true);
        bool found = false;
        for (auto& [ek, ev] : entries) {
          if (ek.str() != k) continue;
          std::vector<Value> items;
          for (std::size_t i = 0; i < ev.asList().size(); ++i) items.push_back(ev.asList().at(i));
          items.push_back(Value::string(val));
          ev = Value::list(std::move(items));
          found = true;
        }
        if (!found) entries.emplace_back(Value::string(k), Value::list({Value::string(val)}));
      }
      return Value::map(std::make_shared<const VectorMap>(std::move(entries)));
    }
  }
}

}  // namespace

void addUrlsLibrary(FunctionTable& t) {
  t.global("url", url);
  t.global("isURL", isURL);
  t.member("getScheme", urlPart<0>);
  t.member("getHost", urlPart<1>);
  t.member("getHostname", urlPart<2>);
  t.member("getPort", urlPart<3>);
  t.member("getEscapedPath", urlPart<4>);
  t.member("getQuery", urlPart<5>);
}

}  // namespace convcheck::cel

#include "kube/apiserver/media_type.h"

#include <cctype>
#include <map>

namespace convcheck {
namespace {

bool isTSpecial(char c) {
  return std::string_view("()<>@,;:\\\"/[]?=").find(c) != std::string_view::npos;
}
bool isTokenChar(char c) {
  auto u = static_cast<unsigned char>(c);
  return u > 0x20 && u < 0x7F && !isTSpecial(c);
}
bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

std::string_view trimLeft(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  return s;
}
std::string_view trim(std::string_view s) {
  s = trimLeft(s);
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return s;
}
std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// consumeToken: the leading run of token characters and the rest.
std::pair<std::string_view, std::string_view> consumeToken(std::string_view v) {
  std::size_t n = 0;
  while (n < v.size() && isTokenChar(v[n])) ++n;
  return {v.substr(0, n), v.substr(n)};
}

std::pair<std::string, std::string_view> consumeValue(std::string_view v) {
  if (v.empty()) return {"", v};
  if (v[0] != '"') {
    auto [token, rest] = consumeToken(v);
    return {std::string(token), rest};
  }
  std::string buffer;
  for (std::size_t i = 1; i < v.size(); ++i) {
    char r = v[i];
    if (r == '"') return {buffer, v.substr(i + 1)};
    if (r == '\\' && i + 1 < v.size() && isTSpecial(v[i + 1])) {
      buffer += v[++i];
      continue;
    }
    if (r == '\r' || r == '\n') return {"", v};
    buffer += r;
  }
  return {"", v};
}

struct Param {
  std::string key, value;
  std::string_view rest;
};

Param consumeMediaParam(std::string_view v) {
  std::string_view rest = trimLeft(v);
  if (rest.empty() || rest[0] != ';') return {"", "", v};
  rest = trimLeft(rest.substr(1));
  auto [token, afterToken] = consumeToken(rest);
  std::string param = lower(token);
  if (param.empty()) return {"", "", v};
  rest = trimLeft(afterToken);
  if (rest.empty() || rest[0] != '=') return {"", "", v};
  rest = trimLeft(rest.substr(1));
  auto [value, rest2] = consumeValue(rest);
  if (value.empty() && rest2.data() == rest.data() && rest2.size() == rest.size())
    return {"", "", v};
  return {param, value, rest2};
}

std::string checkMediaTypeDisposition(std::string_view s) {
  auto [type, rest] = consumeToken(s);
  if (type.empty()) return "mime: no media type";
  if (rest.empty()) return "";
  if (rest[0] != '/') return "mime: expected slash after first token";
  auto [subtype, rest2] = consumeToken(rest.substr(1));
  if (subtype.empty()) return "mime: expected token after slash";
  if (!rest2.empty()) return "mime: unexpected content after media subtype";
  return "";
}

}  // namespace

MediaType parseMediaType(std::string_view header) {
  MediaType result;
  std::string_view base = header.substr(0, header.find(';'));
  std::string mediaType = std::string(trim(lower(base)));
  if (auto err = checkMediaTypeDisposition(mediaType); !err.empty()) {
    result.error = err;
    return result;
  }
  std::map<std::string, std::string> params;
  std::string_view v = header.substr(base.size());
  while (!v.empty()) {
    v = trimLeft(v);
    if (v.empty()) break;
    Param p = consumeMediaParam(v);
    if (p.key.empty()) {
      if (trim(p.rest) == ";") break;  // trailing semicolon
      result.error = "mime: invalid media parameter";
      return result;
    }
    if (auto it = params.find(p.key); it != params.end() && it->second != p.value) {
      result.error = "mime: duplicate parameter name";
      return result;
    }
    params[p.key] = p.value;
    v = p.rest;
  }
  result.mediaType = mediaType;
  return result;
}

}  // namespace convcheck

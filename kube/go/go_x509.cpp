#include "kube/go/go_x509.h"

#include "kube/go/go_net.h"

namespace convcheck {
namespace {

std::string toLowerAscii(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

// crypto/x509 validHostname.
bool validHostname(std::string host, bool isPattern) {
  if (!isPattern && !host.empty() && host.back() == '.') host.pop_back();
  if (host.empty() || host == "*") return false;
  const auto parts = split(host, '.');
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string& part = parts[i];
    if (part.empty()) return false;
    if (isPattern && i == 0 && part == "*") continue;
    for (std::size_t j = 0; j < part.size(); ++j) {
      const char c = part[j];
      const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      (c == '-' && j != 0) || c == '_';
      if (!ok) return false;
    }
  }
  return true;
}

// crypto/x509 matchExactly.
bool matchExactly(const std::string& a, const std::string& b) {
  if (a.empty() || a == "." || b.empty() || b == ".") return false;
  return toLowerAscii(a) == toLowerAscii(b);
}

// crypto/x509 matchHostnames: a leftmost "*" label matches exactly one label.
bool matchHostnames(const std::string& pattern, std::string host) {
  if (!host.empty() && host.back() == '.') host.pop_back();
  const std::string p = toLowerAscii(pattern);
  host = toLowerAscii(host);
  if (p.empty() || host.empty()) return false;
  const auto patternParts = split(p, '.');
  const auto hostParts = split(host, '.');
  if (patternParts.size() != hostParts.size()) return false;
  for (std::size_t i = 0; i < patternParts.size(); ++i) {
    if (i == 0 && patternParts[i] == "*") continue;
    if (patternParts[i] != hostParts[i]) return false;
  }
  return true;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += ", ";
    out += item;
  }
  return out;
}

// crypto/x509 HostnameError.Error().
std::string hostnameError(const CertificateNames& names, const std::string& host) {
  if (!names.hasSanExtension && matchHostnames(names.commonName, host)) {
    return "x509: certificate relies on legacy Common Name field, use SANs instead";
  }
  std::string valid;
  if (goParseIP(host)) {
    if (names.ipAddresses.empty()) {
      return "x509: cannot validate certificate for " + host +
             " because it doesn't contain any IP SANs";
    }
    valid = join(names.ipAddresses);
  } else {
    valid = join(names.dnsNames);
  }
  if (valid.empty()) {
    return "x509: certificate is not valid for any names, but wanted to match " + host;
  }
  return "x509: certificate is valid for " + valid + ", not " + host;
}

}  // namespace

std::optional<std::string> goVerifyHostname(const CertificateNames& names,
                                            const std::string& host) {
  std::string candidateIp = host;
  if (host.size() >= 3 && host.front() == '[' && host.back() == ']') {
    candidateIp = host.substr(1, host.size() - 2);
  }
  if (const auto ip = goParseIP(candidateIp)) {
    for (const auto& san : names.ipAddresses) {
      if (goParseIP(san) == ip) return std::nullopt;
    }
    return hostnameError(names, candidateIp);
  }
  const std::string candidateName = toLowerAscii(host);
  const bool validCandidate = validHostname(candidateName, false);
  for (const auto& match : names.dnsNames) {
    if (validCandidate && validHostname(match, true)) {
      if (matchHostnames(match, candidateName)) return std::nullopt;
    } else if (matchExactly(match, candidateName)) {
      return std::nullopt;
    }
  }
  return hostnameError(names, host);
}

}  // namespace convcheck

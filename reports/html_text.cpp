#include "reports/html_text.h"

#include "kube/go/utf8.h"

namespace convcheck {

std::string htmlText(std::string_view text) {
  const std::string valid = toValidUtf8(text);
  std::string out;
  out.reserve(valid.size());
  for (char c : valid) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      case '\0':
        out += "&#xFFFD;";
        break;  // NUL is not allowed in an HTML document
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace convcheck

#include "generators/string_gen.h"

#include <algorithm>
#include <vector>

#include "kube/go/utf8.h"

namespace convcheck {

namespace {

using CodePoints = std::vector<char32_t>;

// Characters beyond ASCII letters: punctuation that needs JSON/YAML care and multi-byte UTF-8.
constexpr char32_t kSpecial[] = {' ',    '-',    '_',    '.',    '/',     ':',     '"',
                                 '\\',   '\'',   '#',    '{',    '}',     '\n',    '\t',
                                 0x00E9, 0x00DF, 0x00FC, 0x03A9, 0x044F,  0x65E5,  0x672C,
                                 0x8A9E, 0x00A0, 0x2013, 0x20AC, 0x1F600, 0x1F680, 0x10348};
constexpr char kAlnum[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

char32_t pickChar(rc::Random& r) {
  const auto c = r.next() % 100;
  if (c < 80) return static_cast<char32_t>(kAlnum[r.next() % (sizeof(kAlnum) - 1)]);
  return kSpecial[r.next() % (sizeof(kSpecial) / sizeof(kSpecial[0]))];
}

std::string join(const CodePoints& cps) { return encodeRunes({cps.data(), cps.size()}); }

}  // namespace

std::vector<std::size_t> boundaryLengths(std::size_t minLen, std::optional<std::size_t> maxLen) {
  std::vector<std::size_t> out;
  auto add = [&](std::size_t len) {
    if (len >= minLen && (!maxLen || len <= *maxLen) &&
        std::find(out.begin(), out.end(), len) == out.end())
      out.push_back(len);
  };
  if (maxLen) add(*maxLen);
  add(minLen);
  for (std::size_t len : kKubernetesLengthLimits) add(len);
  return out;
}

rc::Gen<std::string> plainStrings(std::size_t minLen, std::optional<std::size_t> maxLen) {
  const std::size_t hi = maxLen ? *maxLen : std::size_t{1024};
  const std::vector<std::size_t> boundaries = boundaryLengths(minLen, maxLen);
  return rc::Gen<std::string>([minLen, hi, boundaries](const rc::Random& random, int size) {
    rc::Random r = random;
    std::size_t len;
    const auto c = r.next() % 100;
    const std::size_t small = 1 + static_cast<std::size_t>(size) / 8;  // up to 13
    if (c < 10)
      len = minLen;
    else if (c < 25)
      len = boundaries[r.next() % boundaries.size()];
    else if (c < 80)
      len = minLen + r.next() % (small + 1);
    else if (c < 95)
      len = minLen + r.next() % (4 * small + 1);
    else
      len = minLen + 200 + r.next() % 800;  // long strings
    if (len > hi) len = minLen + (hi > minLen ? r.next() % (hi - minLen + 1) : 0);
    CodePoints cps;
    cps.reserve(len);
    for (std::size_t i = 0; i < len; ++i) cps.push_back(pickChar(r));
    auto s = rc::shrinkable::shrinkRecur(std::move(cps), [minLen](const CodePoints& v) {
      auto shorter = rc::seq::filter(rc::shrink::removeChunks(v),
                                     [minLen](const CodePoints& x) { return x.size() >= minLen; });
      auto simpler = rc::shrink::eachElement(v, [](char32_t ch) {
        return ch == 'a' ? rc::Seq<char32_t>() : rc::seq::just(char32_t{'a'});
      });
      return rc::seq::concat(std::move(shorter), std::move(simpler));
    });
    return rc::shrinkable::map(std::move(s), [](const CodePoints& v) { return join(v); });
  });
}

rc::Gen<std::string> mapKeys() {
  return rc::Gen<std::string>([](const rc::Random& random, int) {
    rc::Random r = random;
    static constexpr const char* kWords[] = {"app", "tier", "env",    "zone",  "key",  "name",
                                             "x",   "data", "config", "owner", "team", "release"};
    const auto word = [&r] {
      return std::string(kWords[r.next() % (sizeof(kWords) / sizeof(*kWords))]);
    };
    std::string key;
    switch (r.next() % 10) {
      case 0:
        key = "example.com/" + word();
        break;
      case 1:
        key = word() + "." + word();
        break;
      case 2:
        key = word() + encodeRune(0x00E9) + encodeRune(0x65E5);
        break;
      case 3:
        key = r.next() % 4 == 0 ? "" : word() + "_" + std::to_string(r.next() % 100);
        break;
      default:
        key = word() + "-" + std::to_string(r.next() % 1000);
        break;
    }
    return rc::shrinkable::just(key);
  });
}

}  // namespace convcheck

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
// The printable ASCII characters that are neither letters nor digits.
constexpr char kPunctuation[] = " !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

char32_t pickChar(rc::Random& r) {
  const auto c = r.next() % 100;
  if (c < 75) return static_cast<char32_t>(kAlnum[r.next() % (sizeof(kAlnum) - 1)]);
  if (c < 87) return static_cast<char32_t>(kPunctuation[r.next() % (sizeof(kPunctuation) - 1)]);
  return kSpecial[r.next() % (sizeof(kSpecial) / sizeof(kSpecial[0]))];
}

std::string join(const CodePoints& cps) { return encodeRunes({cps.data(), cps.size()}); }

// The string of `cps`, shrinking by removing code points (not below minLen) and by replacing
// them with 'a'.
rc::Shrinkable<std::string> codePointStrings(CodePoints cps, std::size_t minLen) {
  auto s = rc::shrinkable::shrinkRecur(std::move(cps), [minLen](const CodePoints& v) {
    auto shorter = rc::seq::filter(rc::shrink::removeChunks(v),
                                   [minLen](const CodePoints& x) { return x.size() >= minLen; });
    auto simpler = rc::shrink::eachElement(v, [](char32_t ch) {
      return ch == 'a' ? rc::Seq<char32_t>() : rc::seq::just(char32_t{'a'});
    });
    return rc::seq::concat(std::move(shorter), std::move(simpler));
  });
  return rc::shrinkable::map(std::move(s), [](const CodePoints& v) { return join(v); });
}

std::string pickOf(rc::Random& r, std::initializer_list<const char*> words) {
  return *(words.begin() + r.next() % words.size());
}

}  // namespace

std::string punctuatedValue(rc::Random& r) {
  const std::string host = pickOf(r, {"example.com", "api.example.org", "db-0.db.svc", "localhost",
                                      "10.0.0.7", "registry.example.com:5000"});
  const std::string word = pickOf(r, {"web", "api", "db", "cache", "team a", "ops", "x"});
  const std::string n = std::to_string(r.next() % 10000);
  switch (r.next() % 14) {
    case 0:
      return "https://" + host + "/v1/" + word + "?q=" + n + "&sort=desc&filter=a%2Cb#top";
    case 1:
      return "postgres://user:p%40ss;w0rd@" + host + ":5432/app?sslmode=require&connect_timeout=10";
    case 2:
      return "app=" + word + ",tier!=cache,env in (prod,staging),!legacy";
    case 3:
      return "A=1;B=" + word + ";C=x=y;EMPTY=";
    case 4:
      return "--listen=:8080 --log-level=debug --tags=a,b,c --ratio=0.5";
    case 5:
      return "CRON_TZ=" + pickOf(r, {"Europe/Berlin", "America/New_York", "Asia/Kolkata"}) +
             " 0 */5 * * 1-5";
    case 6:
      return "TZ=UTC 30 2 * * *";
    case 7:
      return "ops+alerts@" + host;
    case 8:
      return "[2001:db8::" + n + "]:8443";
    case 9:
      return R"({.status.conditions[?(@.type=="Ready")].status})";
    case 10:
      return "{{ .Values.image.tag | default \"latest\" }}";
    case 11:
      return "/usr/local/bin:/usr/bin:/bin;C:\\Program Files\\" + word;
    case 12: {
      std::string digest;
      for (int i = 0; i < 64; ++i) digest += "0123456789abcdef"[r.next() % 16];
      return host + "/team/" + word + "@sha256:" + digest;
    }
    default:
      return "Error: failed [code=" + n + "]; retry @ 10:30 (100% done) & notify <ops>!";
  }
}

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
    CodePoints cps;
    if (c >= 93) {
      // A value as real ones carry punctuation (a URL, a selector, KEY=VALUE pairs, a cron line
      // with its time zone, …), cut to maxLength and filled up to minLength.
      const std::string v = punctuatedValue(r);
      std::size_t pos = 0;
      char32_t rune = 0;
      while (cps.size() < hi && nextRune(v, pos, rune)) cps.push_back(rune);
      while (cps.size() < minLen) cps.push_back(pickChar(r));
      return codePointStrings(std::move(cps), minLen);
    }
    const std::size_t small = 1 + static_cast<std::size_t>(size) / 8;  // up to 13
    if (c < 10)
      len = minLen;
    else if (c < 25)
      len = boundaries[r.next() % boundaries.size()];
    else if (c < 77)
      len = minLen + r.next() % (small + 1);
    else if (c < 89)
      len = minLen + r.next() % (4 * small + 1);
    else
      len = minLen + 200 + r.next() % 800;  // long strings
    if (len > hi) len = minLen + (hi > minLen ? r.next() % (hi - minLen + 1) : 0);
    cps.reserve(len);
    for (std::size_t i = 0; i < len; ++i) cps.push_back(pickChar(r));
    return codePointStrings(std::move(cps), minLen);
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

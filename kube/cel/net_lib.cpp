// Kubernetes' ip and cidr libraries: ip(), isIP(), ip.isCanonical(), family(), the address class
// tests, cidr(), isCIDR(), containsIP(), containsCIDR(), masked(), prefixLength(), string().
// Addresses are parsed as Go's netip does, then refused with a zone or in IPv4-mapped IPv6 form.
#include <cstring>

#include "kube/cel/builtins.h"
#include "kube/go/go_net.h"

namespace convcheck::cel {

namespace {

struct Addr {
  GoIp bytes{};  // IPv4 in the ::ffff:a.b.c.d form
  int family = 4;
};

bool isV4Mapped(const GoIp& b) {
  static const unsigned char prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  return std::memcmp(b.data(), prefix, 12) == 0;
}

std::optional<Addr> parseAddr(const std::string& s, std::string* why) {
  auto ip = goParseIP(s);
  if (!ip) {
    if (why) *why = "IP Address \"" + s + "\" parse error during conversion from string";
    return std::nullopt;
  }
  Addr a;
  a.bytes = *ip;
  a.family = s.find(':') != std::string::npos ? 6 : 4;
  if (a.family == 6 && isV4Mapped(a.bytes)) {
    if (why) *why = "IPv4-mapped IPv6 address \"" + s + "\" is not allowed";
    return std::nullopt;
  }
  return a;
}

std::string formatAddr(const Addr& a) {
  char buf[64];
  if (a.family == 4) {
    std::snprintf(buf, sizeof buf, "%d.%d.%d.%d", a.bytes[12], a.bytes[13], a.bytes[14],
                  a.bytes[15]);
    return buf;
  }
  // RFC 5952: the longest run (>= 2) of zero groups becomes "::", lower-case hex.
  int groups[8];
  for (int i = 0; i < 8; ++i) groups[i] = a.bytes[2 * i] << 8 | a.bytes[2 * i + 1];
  int bestStart = -1, bestLen = 0;
  for (int i = 0; i < 8;) {
    if (groups[i] != 0) {
      ++i;
      continue;
    }
    int j = i;
    while (j < 8 && groups[j] == 0) ++j;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  std::string out;
  for (int i = 0; i < 8; ++i) {
    if (i == bestStart) {
      out += "::";
      i += bestLen - 1;
      continue;
    }
    if (!out.empty() && out.back() != ':') out += ':';
    std::snprintf(buf, sizeof buf, "%x", groups[i]);
    out += buf;
  }
  return out;
}

class IpValue final : public OpaqueImpl {
 public:
  explicit IpValue(Addr a) : addr(a) {}
  const char* typeName() const override { return "net.IP"; }
  bool equals(const OpaqueImpl& o) const override {
    const auto& x = static_cast<const IpValue&>(o);
    return x.addr.family == addr.family && x.addr.bytes == addr.bytes;
  }
  std::optional<std::string> text() const override { return formatAddr(addr); }
  Addr addr;
};

struct Prefix {
  Addr addr;
  int bits = 0;
};

bool inPrefix(const Prefix& p, const Addr& a) {
  if (p.addr.family != a.family) return false;
  const int offset = p.addr.family == 4 ? 96 : 0;
  for (int bit = 0; bit < p.bits; ++bit) {
    const int i = offset + bit;
    const int mask = 0x80 >> (i % 8);
    if ((p.addr.bytes[static_cast<std::size_t>(i / 8)] & mask) !=
        (a.bytes[static_cast<std::size_t>(i / 8)] & mask))
      return false;
  }
  return true;
}

Prefix maskedPrefix(const Prefix& p) {
  Prefix m = p;
  const int offset = p.addr.family == 4 ? 96 : 0;
  for (int i = offset + p.bits; i < 128; ++i)
    m.addr.bytes[static_cast<std::size_t>(i / 8)] &= static_cast<unsigned char>(~(0x80 >> (i % 8)));
  return m;
}

class CidrValue final : public OpaqueImpl {
 public:
  explicit CidrValue(Prefix p) : prefix(p) {}
  const char* typeName() const override { return "net.CIDR"; }
  bool equals(const OpaqueImpl& o) const override {
    const auto& x = static_cast<const CidrValue&>(o);
    return x.prefix.bits == prefix.bits && x.prefix.addr.family == prefix.addr.family &&
           x.prefix.addr.bytes == prefix.addr.bytes;
  }
  std::optional<std::string> text() const override {
    return formatAddr(prefix.addr) + "/" + std::to_string(prefix.bits);
  }
  Prefix prefix;
};

std::optional<Prefix> parsePrefix(const std::string& s, std::string* why) {
  const auto slash = s.find('/');
  if (slash == std::string::npos) {
    if (why) *why = "network address parse error during conversion from string: no '/'";
    return std::nullopt;
  }
  auto addr = parseAddr(s.substr(0, slash), why);
  if (!addr) return std::nullopt;
  const std::string bits = s.substr(slash + 1);
  if (bits.empty() || bits.size() > 3 ||
      bits.find_first_not_of("0123456789") != std::string::npos ||
      (bits.size() > 1 && bits[0] == '0')) {
    if (why) *why = "network address parse error during conversion from string: bad bits";
    return std::nullopt;
  }
  const int b = std::stoi(bits);
  if (b > (addr->family == 4 ? 32 : 128)) {
    if (why) *why = "network address parse error during conversion from string: bad bits";
    return std::nullopt;
  }
  return Prefix{*addr, b};
}

const IpValue* ipOf(const Value& v) {
  if (v.kind() != Kind::Opaque || std::strcmp(v.asOpaque().typeName(), "net.IP") != 0)
    return nullptr;
  return static_cast<const IpValue*>(&v.asOpaque());
}
const CidrValue* cidrOf(const Value& v) {
  if (v.kind() != Kind::Opaque || std::strcmp(v.asOpaque().typeName(), "net.CIDR") != 0)
    return nullptr;
  return static_cast<const CidrValue*>(&v.asOpaque());
}

Value ip(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n == 1 && a[0].kind() == Kind::Opaque) {  // cidr.ip()
    if (const auto* c = cidrOf(a[0]))
      return Value::opaque(std::make_shared<const IpValue>(c->prefix.addr));
  }
  if (n != 1 || a[0].kind() != Kind::String) return noSuchOverload("ip");
  st.cost += traversalCost(a[0].str().size());
  std::string why;
  auto addr = parseAddr(a[0].str(), &why);
  if (!addr) return Value::error(why);
  return Value::opaque(std::make_shared<const IpValue>(*addr));
}

Value isIP(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n != 1 || a[0].kind() != Kind::String) return noSuchOverload("isIP");
  st.cost += traversalCost(a[0].str().size());
  return Value::boolean(parseAddr(a[0].str(), nullptr).has_value());
}

Value isCanonical(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n != 1 || a[0].kind() != Kind::String) return noSuchOverload("ip.isCanonical");
  st.cost += traversalCost(a[0].str().size());
  std::string why;
  auto addr = parseAddr(a[0].str(), &why);
  if (!addr) return Value::error(why);
  return Value::boolean(formatAddr(*addr) == a[0].str());
}

template <int Test>
Value ipTest(const Value* a, std::size_t n, EvalState&) {
  if (const Value* e = firstError(a, n)) return *e;
  const IpValue* v = n == 1 ? ipOf(a[0]) : nullptr;
  if (!v) return noSuchOverload("ip test");
  const Addr& x = v->addr;
  const auto& b = x.bytes;
  const bool v4 = x.family == 4;
  auto allZero = [&](std::size_t from) {
    for (std::size_t i = from; i < 16; ++i)
      if (b[i]) return false;
    return true;
  };
  switch (Test) {
    case 0:  // family
      return Value::integer(x.family);
    case 1:  // isUnspecified
      return Value::boolean(v4 ? allZero(12) : allZero(0));
    case 2: {  // isLoopback
      if (v4) return Value::boolean(b[12] == 127);
      for (std::size_t i = 0; i < 15; ++i)
        if (b[i]) return Value::boolean(false);
      return Value::boolean(b[15] == 1);
    }
    case 3:  // isLinkLocalMulticast
      return Value::boolean(v4 ? (b[12] == 224 && b[13] == 0 && b[14] == 0)
                               : (b[0] == 0xff && (b[1] & 0x0f) == 0x02));
    case 4:  // isLinkLocalUnicast
      return Value::boolean(v4 ? (b[12] == 169 && b[13] == 254)
                               : (b[0] == 0xfe && (b[1] & 0xc0) == 0x80));
    case 5: {  // isGlobalUnicast
      if (v4) {
        const bool broadcast = b[12] == 255 && b[13] == 255 && b[14] == 255 && b[15] == 255;
        return Value::boolean(!allZero(12) && !broadcast && b[12] != 127 && b[12] < 224 &&
                              !(b[12] == 169 && b[13] == 254));
      }
      bool loop = true;
      for (std::size_t i = 0; i < 15; ++i) loop = loop && !b[i];
      loop = loop && b[15] == 1;
      return Value::boolean(!allZero(0) && !loop && b[0] != 0xff &&
                            !(b[0] == 0xfe && (b[1] & 0xc0) == 0x80));
    }
    default:
      return noSuchOverload("ip test");
  }
}

Value cidr(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n != 1 || a[0].kind() != Kind::String) return noSuchOverload("cidr");
  st.cost += traversalCost(a[0].str().size());
  std::string why;
  auto p = parsePrefix(a[0].str(), &why);
  if (!p) return Value::error(why);
  return Value::opaque(std::make_shared<const CidrValue>(*p));
}

Value isCIDR(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n != 1 || a[0].kind() != Kind::String) return noSuchOverload("isCIDR");
  st.cost += traversalCost(a[0].str().size());
  return Value::boolean(parsePrefix(a[0].str(), nullptr).has_value());
}

Value containsIP(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  const CidrValue* c = n == 2 ? cidrOf(a[0]) : nullptr;
  if (!c) return noSuchOverload("containsIP");
  if (a[1].kind() == Kind::String) {
    std::string why;
    auto addr = parseAddr(a[1].str(), &why);
    if (!addr) return Value::error(why);
    st.cost += traversalCost(a[1].str().size());
    return Value::boolean(inPrefix(c->prefix, *addr));
  }
  const IpValue* v = ipOf(a[1]);
  if (!v) return noSuchOverload("containsIP");
  return Value::boolean(inPrefix(c->prefix, v->addr));
}

Value containsCIDR(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  const CidrValue* c = n == 2 ? cidrOf(a[0]) : nullptr;
  if (!c) return noSuchOverload("containsCIDR");
  Prefix other;
  if (a[1].kind() == Kind::String) {
    std::string why;
    auto p = parsePrefix(a[1].str(), &why);
    if (!p) return Value::error(why);
    st.cost += traversalCost(a[1].str().size());
    other = *p;
  } else if (const CidrValue* o = cidrOf(a[1])) {
    other = o->prefix;
  } else {
    return noSuchOverload("containsCIDR");
  }
  return Value::boolean(other.bits >= c->prefix.bits && inPrefix(c->prefix, other.addr));
}

Value masked(const Value* a, std::size_t n, EvalState&) {
  if (const Value* e = firstError(a, n)) return *e;
  const CidrValue* c = n == 1 ? cidrOf(a[0]) : nullptr;
  if (!c) return noSuchOverload("masked");
  return Value::opaque(std::make_shared<const CidrValue>(maskedPrefix(c->prefix)));
}

Value prefixLength(const Value* a, std::size_t n, EvalState&) {
  if (const Value* e = firstError(a, n)) return *e;
  const CidrValue* c = n == 1 ? cidrOf(a[0]) : nullptr;
  if (!c) return noSuchOverload("prefixLength");
  return Value::integer(c->prefix.bits);
}

}  // namespace

void addNetLibrary(FunctionTable& t) {
  t.both("ip", ip);
  t.global("isIP", isIP);
  t.global("ip.isCanonical", isCanonical);
  t.member("family", ipTest<0>);
  t.member("isUnspecified", ipTest<1>);
  t.member("isLoopback", ipTest<2>);
  t.member("isLinkLocalMulticast", ipTest<3>);
  t.member("isLinkLocalUnicast", ipTest<4>);
  t.member("isGlobalUnicast", ipTest<5>);
  t.global("cidr", cidr);
  t.global("isCIDR", isCIDR);
  t.member("containsIP", containsIP);
  t.member("containsCIDR", containsCIDR);
  t.member("masked", masked);
  t.member("prefixLength", prefixLength);
}

}  // namespace convcheck::cel

// Go's net.ParseIP: which texts are IP addresses, and the 16-byte address each one names.
// Used by crypto/x509's host name rules (go_x509) and the schema format checks (ipv4, ipv6, cidr).
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace convcheck {

using GoIp = std::array<unsigned char, 16>;

// net.ParseIP: dotted IPv4 (four decimal parts, no leading zeros, as Go >= 1.17) or IPv6 (with
// "::" and an optional dotted IPv4 tail). IPv4 comes back in the IPv4-in-IPv6 form
// (::ffff:a.b.c.d), so both spellings of one address compare equal; nullopt when Go rejects it.
std::optional<GoIp> goParseIP(std::string_view text);

}  // namespace convcheck

// Go's net.ParseIP: the texts it accepts, the address each names (IPv4 in its IPv6 form) and the
// texts it refuses.
#include "kube/go/go_net.h"

#include <gtest/gtest.h>

namespace convcheck {
namespace {

GoIp bytes(std::initializer_list<int> values) {
  GoIp ip{};
  std::size_t i = 0;
  for (int v : values) ip[i++] = static_cast<unsigned char>(v);
  return ip;
}

TEST(GoParseIP, IPv4IsTheIPv4InIPv6Address) {
  EXPECT_EQ(goParseIP("10.0.0.1"), bytes({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 10, 0, 0, 1}));
  EXPECT_EQ(goParseIP("10.0.0.1"), goParseIP("::ffff:10.0.0.1"));
  EXPECT_EQ(goParseIP("10.0.0.1"), goParseIP("::FFFF:a00:1"));
}

TEST(GoParseIP, IPv6GroupsLandWhereTheEllipsisSaysNot) {
  EXPECT_EQ(goParseIP("::"), GoIp{});
  EXPECT_EQ(goParseIP("::1"), bytes({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}));
  EXPECT_EQ(goParseIP("1::"), bytes({0, 1}));
  EXPECT_EQ(goParseIP("2001:db8::ff00:42"),
            bytes({0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0, 0, 0x42}));
  EXPECT_EQ(goParseIP("1:2:3:4:5:6:7:8"), bytes({0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8}));
  EXPECT_EQ(goParseIP("1:2:3:4:5:6:1.2.3.4"),
            bytes({0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 1, 2, 3, 4}));
}

TEST(GoParseIP, RefusesWhatGoRefuses) {
  for (const char* text : {"", "1.2.3", "1.2.3.4.5", "256.0.0.1", "01.2.3.4", "1.2.3.4 ", "[::1]",
                           ":1", "1:", "1::2::3", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7::8",
                           "12345::", "::1.2.3", "g::", "localhost"}) {
    EXPECT_FALSE(goParseIP(text)) << text;
  }
}

}  // namespace
}  // namespace convcheck

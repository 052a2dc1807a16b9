// apimachinery's name rules, rule by rule: what each accepts, its length limit, and the messages
// kube-apiserver prints; the tests agree with the messages on every case.
#include "kube/names/name_rules.h"

#include <gtest/gtest.h>

namespace convcheck {
namespace {

// A DNS-1123 subdomain of exactly `length` bytes, of 63-byte labels.
std::string subdomainOfLength(std::size_t length) {
  std::string out;
  while (out.size() < length) out += (out.empty() ? "" : ".") + std::string(63, 'a');
  out.resize(length);
  if (out.back() == '.') out.back() = 'b';
  return out;
}

const std::string kDns1123LabelRegexMessage =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const std::string kDns1123SubdomainRegexMessage =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const std::string kDns1035RegexMessage =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
    "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or "
    "'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

TEST(Dns1123Label, AcceptsLowercaseAlphanumericsAndInnerDashesUpTo63Bytes) {
  for (const std::string& s :
       std::vector<std::string>{"a", "0", "my-name", "123-abc", "a--b", std::string(63, 'a')}) {
    EXPECT_TRUE(isDns1123Label(s)) << s;
    EXPECT_TRUE(dns1123LabelErrors(s).empty()) << s;
  }
}

TEST(Dns1123Label, RejectsEmptyUppercaseDotsAndEdgeDashes) {
  for (const char* s : {"", "-a", "a-", "-", "My-name", "a.b", "a_b", "a b"}) {
    EXPECT_FALSE(isDns1123Label(s)) << s;
    EXPECT_EQ(dns1123LabelErrors(s), std::vector<std::string>{kDns1123LabelRegexMessage}) << s;
  }
}

TEST(Dns1123Label, LongerThan63BytesSaysSoAlone) {
  EXPECT_FALSE(isDns1123Label(std::string(64, 'a')));
  EXPECT_EQ(dns1123LabelErrors(std::string(64, 'a')),
            std::vector<std::string>{"must be no more than 63 bytes"});
  EXPECT_EQ(dns1123LabelErrors(std::string(64, 'A')).size(), 2u);
}

TEST(Dns1123Subdomain, AcceptsDottedLabelsUpTo253BytesWithLongLabels) {
  for (const std::string& s :
       std::vector<std::string>{"a", "example.com", "a-1.b-2.c", std::string(64, 'a') + ".com",
                                subdomainOfLength(253)}) {
    EXPECT_TRUE(isDns1123Subdomain(s)) << s;
    EXPECT_TRUE(dns1123SubdomainErrors(s).empty()) << s;
  }
}

TEST(Dns1123Subdomain, RejectsEmptyLabelsUppercaseAndEdgeDashes) {
  for (const char* s :
       {"", ".", "a.", ".a", "a..b", "-a.b", "a-.b", "a.-b", "Example.com", "a_b"}) {
    EXPECT_FALSE(isDns1123Subdomain(s)) << s;
    EXPECT_EQ(dns1123SubdomainErrors(s), std::vector<std::string>{kDns1123SubdomainRegexMessage})
        << s;
  }
}

TEST(Dns1123Subdomain, LongerThan253BytesSaysSoAlone) {
  const std::string tooLong = subdomainOfLength(254);
  EXPECT_FALSE(isDns1123Subdomain(tooLong));
  EXPECT_EQ(dns1123SubdomainErrors(tooLong),
            std::vector<std::string>{"must be no more than 253 bytes"});
}

TEST(Dns1035Label, StartsWithALetter) {
  for (const std::string& s :
       std::vector<std::string>{"a", "v1", "v1beta1", "my-name", "abc-123", std::string(63, 'v')}) {
    EXPECT_TRUE(isDns1035Label(s)) << s;
    EXPECT_TRUE(dns1035LabelErrors(s).empty()) << s;
  }
  for (const char* s : {"", "1v", "123-abc", "-a", "a-", "V1", "v1.0", "v_1"}) {
    EXPECT_FALSE(isDns1035Label(s)) << s;
    EXPECT_EQ(dns1035LabelErrors(s), std::vector<std::string>{kDns1035RegexMessage}) << s;
  }
}

TEST(Dns1035Label, LongerThan63BytesSaysSoAlone) {
  EXPECT_FALSE(isDns1035Label(std::string(64, 'v')));
  EXPECT_EQ(dns1035LabelErrors(std::string(64, 'v')),
            std::vector<std::string>{"must be no more than 63 bytes"});
}

TEST(LabelKey, AcceptsQualifiedNames) {
  for (const char* key : {"app", "a", "A-b_c.d", "example.com/app", "k8s.io/My.Name-1", "9"}) {
    EXPECT_TRUE(isQualifiedName(key)) << key;
    EXPECT_TRUE(labelKeyErrors(key).empty()) << key;
  }
}

TEST(LabelKey, NameRulesAreReportedPerPart) {
  EXPECT_EQ(labelKeyErrors("").size(), 2u);  // must be non-empty + regex
  EXPECT_EQ(labelKeyErrors("")[0], "name part must be non-empty");
  EXPECT_EQ(labelKeyErrors(std::string(64, 'a')),
            std::vector<std::string>{"name part must be no more than 63 bytes"});
  EXPECT_TRUE(isQualifiedName(std::string(63, 'a')));
  EXPECT_FALSE(isQualifiedName(std::string(64, 'a')));
  EXPECT_EQ(labelKeyErrors("/app"), std::vector<std::string>{"prefix part must be non-empty"});
  EXPECT_EQ(labelKeyErrors("example.com/").size(), 2u);
  for (const char* key : {"", "app-", "-app", "_app", "a b", "/app", "example.com/", "a/b/c"}) {
    EXPECT_FALSE(isQualifiedName(key)) << key;
    EXPECT_FALSE(labelKeyErrors(key).empty()) << key;
  }
}

TEST(LabelKey, TwoSlashesAreOneMessage) {
  EXPECT_EQ(labelKeyErrors("a/b/c"),
            std::vector<std::string>{
                "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and "
                "must start and end with an alphanumeric character (e.g. 'MyName',  or "
                "'my.name',  or '123-abc', regex used for validation is "
                "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain "
                "prefix and '/' (e.g. 'example.com/MyName')"});
}

TEST(LabelKey, PrefixIsALowercaseDnsSubdomainOfAtMost253Bytes) {
  for (const char* key : {"EXAMPLE.com/a", "example..com/a", "-example.com/a"}) {
    EXPECT_FALSE(isQualifiedName(key)) << key;
    EXPECT_EQ(labelKeyErrors(key),
              std::vector<std::string>{"prefix part " + kDns1123SubdomainRegexMessage})
        << key;
  }
  EXPECT_TRUE(isQualifiedName(subdomainOfLength(253) + "/a"));
  auto errors = labelKeyErrors(subdomainOfLength(254) + "/a");
  EXPECT_FALSE(isQualifiedName(subdomainOfLength(254) + "/a"));
  EXPECT_EQ(errors, std::vector<std::string>{"prefix part must be no more than 253 bytes"});
}

TEST(LabelValue, EmptyIsValidAndLengthIsCapped) {
  for (const std::string& value :
       std::vector<std::string>{"", std::string(63, 'z'), "a_b.c-d", "MyValue", "12345"}) {
    EXPECT_TRUE(isLabelValue(value)) << value;
    EXPECT_TRUE(labelValueErrors(value).empty()) << value;
  }
  EXPECT_EQ(labelValueErrors(std::string(64, 'z')),
            std::vector<std::string>{"must be no more than 63 bytes"});
  for (const std::string& value :
       std::vector<std::string>{std::string(64, 'z'), "a/b", "_a", "a-", "a b"}) {
    EXPECT_FALSE(isLabelValue(value)) << value;
    EXPECT_FALSE(labelValueErrors(value).empty()) << value;
  }
}

}  // namespace
}  // namespace convcheck

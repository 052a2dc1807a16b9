#include "generators/pattern/class_sampler.h"

#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <set>

#include "kube/go/utf8.h"

namespace convcheck::pattern {
namespace {

// Classes that hit nothing in the alphabet, the hints or the wide probe may scan every code point;
// that costs about 0.1 s, so only this many per pattern.
constexpr int kExhaustiveScansPerPattern = 2;
constexpr int kWideProbesPerPattern = 64;  // classes that get the ~2000-point wide probe
constexpr std::size_t kExhaustiveHits = 16;

constexpr std::array<char32_t, 64> kNonAscii = {
    0x00E9, 0x00C9, 0x00F1, 0x00FC, 0x00DF, 0x00E0, 0x00B5,  0x00B2,  0x00BD,   0x00D7, 0x00A9,
    0x00A0, 0x017F, 0x0130, 0x0131, 0x1E9E, 0x0301, 0x03BB,  0x039B,  0x03C9,   0x03A9, 0x03BC,
    0x039C, 0x03C2, 0x03C3, 0x03A3, 0x0436, 0x0416, 0x0451,  0x0401,  0x05D0,   0x0627, 0x0663,
    0x0915, 0x0967, 0x0E01, 0x2126, 0x212A, 0x212B, 0x2460,  0x20AC,  0x2603,   0x2764, 0x2003,
    0x200B, 0x200D, 0x2028, 0x2029, 0x3000, 0x0085, 0xFEFF,  0x4E2D,  0x6587,   0x3042, 0x30A2,
    0xD55C, 0xFF21, 0xFF41, 0xFF11, 0xFFFD, 0xE000, 0x10400, 0x1F600, 0x10FFFF,
};

std::vector<char32_t> buildAlphabet() {
  std::vector<char32_t> out;
  for (char32_t c = 'a'; c <= 'z'; ++c) out.push_back(c);
  for (char32_t c = '0'; c <= '9'; ++c) out.push_back(c);
  for (char32_t c = 'A'; c <= 'Z'; ++c) out.push_back(c);
  for (char c : std::string_view("-._:/")) out.push_back(static_cast<char32_t>(c));
  for (char32_t c = 0x21; c < 0x7F; ++c) {
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  for (char32_t c : {0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C, 0x01, 0x1B, 0x7F}) out.push_back(c);
  out.insert(out.end(), kNonAscii.begin(), kNonAscii.end());
  return out;
}

const std::vector<char32_t>& alphabet() {
  static const std::vector<char32_t> kAlphabet = buildAlphabet();
  return kAlphabet;
}

std::string probeSource(const CharClassSpec& spec) {
  std::string flags;
  if (spec.foldCase) flags += 'i';
  if (spec.dotNewline) flags += 's';
  return "(?" + flags + ":" + spec.source + ")";
}

bool holds(const RE2& probe, char32_t rune) {
  std::string text;
  appendRune(text, rune);
  return RE2::FullMatch(text, probe);
}

// Points spread over the BMP and the astral planes, for Unicode classes of rarer scripts.
std::vector<char32_t> wideProbePoints() {
  std::vector<char32_t> out;
  for (char32_t c = 0x80; c < 0x10000; c += 0x40) {
    if (!isSurrogate(c)) out.push_back(c);
  }
  for (char32_t c = 0x10000; c <= 0x10FFFF; c += 0x400) out.push_back(c);
  return out;
}

}  // namespace

std::variant<std::vector<ClassMembers>, std::string> sampleClasses(
    const std::vector<CharClassSpec>& classes) {
  RE2::Options options;
  options.set_log_errors(false);
  options.set_encoding(RE2::Options::EncodingUTF8);
  int exhaustiveScansLeft = kExhaustiveScansPerPattern;
  int wideProbesLeft = kWideProbesPerPattern;
  std::vector<ClassMembers> result;
  result.reserve(classes.size());
  for (const CharClassSpec& spec : classes) {
    const RE2 probe(probeSource(spec), options);
    if (!probe.ok()) return "class `" + spec.source + "`: RE2 rejects it: " + probe.error();
    ClassMembers members;
    for (char32_t rune : alphabet()) {
      if (holds(probe, rune)) members.push_back(rune);
    }
    std::set<char32_t> extra;  // ordered by code point, after the alphabet
    for (char32_t rune : spec.hints) {
      if (std::find(members.begin(), members.end(), rune) == members.end() && holds(probe, rune)) {
        extra.insert(rune);
      }
    }
    if (members.empty() && extra.empty() && wideProbesLeft > 0) {
      --wideProbesLeft;
      for (char32_t rune : wideProbePoints()) {
        if (holds(probe, rune)) extra.insert(rune);
      }
    }
    if (members.empty() && extra.empty() && exhaustiveScansLeft > 0) {
      --exhaustiveScansLeft;
      for (char32_t rune = 0; rune <= 0x10FFFF && extra.size() < kExhaustiveHits; ++rune) {
        if (!isSurrogate(rune) && holds(probe, rune)) extra.insert(rune);
      }
    }
    members.insert(members.end(), extra.begin(), extra.end());
    result.push_back(std::move(members));
  }
  return result;
}

}  // namespace convcheck::pattern

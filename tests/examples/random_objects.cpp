#include "tests/examples/random_objects.h"

#include <cstdio>
#include <limits>

#include "examples/webhook/widget_converter.h"

namespace convcheck::example::testing_support {
namespace {

using nlohmann::json;

const char* const kLowerAlnum = "abcdefghijklmnopqrstuvwxyz0123456789";
const char* const kDigits = "0123456789";

std::string drawString(const std::string& alphabet, int minLength, int maxLength) {
  const int length = *rc::gen::inRange(minLength, maxLength + 1);
  std::string text;
  for (int i = 0; i < length; ++i)
    text += alphabet[*rc::gen::inRange<std::size_t>(0, alphabet.size())];
  return text;
}

bool drawBool() { return *rc::gen::arbitrary<bool>(); }

std::string printableAscii() {
  std::string chars;
  for (char c = ' '; c <= '~'; ++c) chars += c;
  return chars;
}

// [a-z0-9]([-a-z0-9]*[a-z0-9])? of at most maxLength characters.
std::string drawDnsLabel(int maxLength) {
  std::string label = drawString(kLowerAlnum, 1, 1);
  if (maxLength >= 2 && drawBool())
    label += drawString(std::string(kLowerAlnum) + "-", 0, maxLength - 2) +
             drawString(kLowerAlnum, 1, 1);
  return label;
}

// Matches ^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$ (the CronTab host pattern).
std::string drawHost() {
  std::string host = drawString(kLowerAlnum, 1, 1);
  if (drawBool())
    host += drawString(std::string(kLowerAlnum) + "-.", 0, 24) + drawString(kLowerAlnum, 1, 1);
  return host;
}

std::string drawPort() { return drawString(kDigits, 1, 5); }

// Five fields of (\d+|\*)(/\d+)? separated by whitespace.
std::string drawCronSpec() {
  std::string spec;
  for (int i = 0; i < 5; ++i) {
    if (i > 0) spec += *rc::gen::element<std::string>(" ", "  ", "\t");
    spec += drawBool() ? "*" : drawString(kDigits, 1, 2);
    if (drawBool()) spec += "/" + drawString(kDigits, 1, 2);
  }
  return spec;
}

std::string drawTimestamp() {
  char text[32];
  std::snprintf(text, sizeof text, "20%02d-%02d-%02dT%02d:%02d:%02dZ", *rc::gen::inRange(10, 40),
                *rc::gen::inRange(1, 13), *rc::gen::inRange(1, 29), *rc::gen::inRange(0, 24),
                *rc::gen::inRange(0, 60), *rc::gen::inRange(0, 60));
  return text;
}

std::string drawUid() {
  const std::string hex = "0123456789abcdef";
  return drawString(hex, 8, 8) + "-" + drawString(hex, 4, 4) + "-4" + drawString(hex, 3, 3) + "-a" +
         drawString(hex, 3, 3) + "-" + drawString(hex, 12, 12);
}

// 1-3 entries with qualified-name keys; label values are valid label values.
json drawStringMap(bool labels) {
  json map = json::object();
  const int size = *rc::gen::inRange(1, 4);
  for (int i = 0; i < size; ++i) {
    std::string key = drawBool() ? drawDnsLabel(10) : "example.com/" + drawDnsLabel(10);
    map[key] = labels ? (drawBool() ? drawDnsLabel(10) : std::string())
                      : drawString(printableAscii(), 0, 20);
  }
  return map;
}

// Metadata as kube-apiserver stores it; name sometimes ends in a digit.
json drawMetadata(const std::string& apiVersion) {
  json metadata = {{"name", drawDnsLabel(30)},
                   {"namespace", *rc::gen::element<std::string>("default", "team-a", "kube-x")},
                   {"uid", drawUid()},
                   {"creationTimestamp", drawTimestamp()},
                   {"generation", *rc::gen::inRange<std::int64_t>(1, 20)}};
  if (drawBool()) metadata["resourceVersion"] = drawString(kDigits, 1, 6);
  if (drawBool()) metadata["labels"] = drawStringMap(/*labels=*/true);
  if (drawBool()) metadata["annotations"] = drawStringMap(/*labels=*/false);
  if (drawBool()) metadata["finalizers"] = json::array({"example.com/" + drawDnsLabel(10)});
  if (drawBool())
    metadata["managedFields"] = json::array({{{"manager", "kubectl"},
                                              {"operation", "Update"},
                                              {"apiVersion", apiVersion},
                                              {"time", drawTimestamp()},
                                              {"fieldsType", "FieldsV1"},
                                              {"fieldsV1", {{"f:spec", json::object()}}}}});
  return metadata;
}

json drawObjectHead(const std::string& apiVersion, const std::string& kind) {
  return json{{"apiVersion", apiVersion}, {"kind", kind}, {"metadata", drawMetadata(apiVersion)}};
}

}  // namespace

rc::Gen<json> genCronTab(const std::string& version) {
  return rc::gen::exec([version] {
    json object = drawObjectHead("stable.example.com/" + version, "CronTab");
    json spec = json::object();
    if (version == "v1beta1") {
      spec["hostPort"] = drawHost() + ":" + drawPort();
    } else {
      spec["host"] = drawHost();
      spec["port"] = drawPort();
    }
    if (drawBool()) spec["cronSpec"] = drawCronSpec();
    if (drawBool()) spec["image"] = drawString(printableAscii(), 1, 128);
    if (drawBool()) spec["replicas"] = *rc::gen::inRange<std::int64_t>(0, 1001);
    object["spec"] = spec;
    if (drawBool()) {
      json status = json::object();
      if (drawBool()) status["lastScheduleTime"] = drawTimestamp();
      // Sometimes an odd integer beyond 2^53, which a float64 parser cannot hold, or one near
      // int64's maximum, which it rounds to 2^63 (no longer an int64).
      if (drawBool()) {
        const std::int64_t odd = 1 + 2 * *rc::gen::inRange<std::int64_t>(0, 1000);
        switch (*rc::gen::inRange(0, 3)) {
          case 0:
            status["active"] = *rc::gen::inRange<std::int64_t>(0, 50);
            break;
          case 1:
            status["active"] = (std::int64_t{1} << 53) + odd;
            break;
          default:
            status["active"] = std::numeric_limits<std::int64_t>::max() - odd + 1;
        }
      }
      object["status"] = status;
    }
    return object;
  });
}

rc::Gen<json> genWidgetV1OnlyFields() {
  return rc::gen::exec([] {
    json fields = json::object();
    if (drawBool()) fields["nickname"] = drawString(printableAscii(), 0, 63);
    if (drawBool()) {
      json tags = json::array();
      const int count = *rc::gen::inRange(0, 17);
      for (int i = 0; i < count; ++i) tags.push_back(drawString(printableAscii(), 1, 32));
      fields["tags"] = tags;
    }
    if (drawBool()) {
      json limits = json::object();
      if (drawBool())
        limits["cpu"] = drawBool() ? json(*rc::gen::inRange<std::int64_t>(0, 64))
                                   : json(drawString(kDigits, 1, 4) + "m");
      if (drawBool())
        limits["memory"] = drawString(kDigits, 1, 5) + *rc::gen::element<std::string>("Mi", "Gi");
      fields["limits"] = limits;
    }
    return fields;
  });
}

namespace {

rc::Gen<json> genWidgetObject(const std::string& version, bool mayCarryStash) {
  return rc::gen::exec([version, mayCarryStash] {
    const bool alpha = version == "v1alpha1";
    json object = drawObjectHead("example.convcheck.dev/" + version, "Widget");
    json spec = {{alpha ? "color" : "colour", drawString("abcdefghijklmnopqrstuvwxyz", 1, 32)}};
    // Replicas are 0 (a zero value, which `if (value)` copies lose) or drawn.
    if (drawBool())
      spec[alpha ? "count" : "replicas"] = *rc::gen::weightedOneOf<std::int64_t>(
          {{1, rc::gen::just<std::int64_t>(0)}, {3, rc::gen::inRange<std::int64_t>(0, 1001)}});
    if (drawBool()) spec["size"] = *rc::gen::element<std::string>("small", "medium", "large");
    json extras = *genWidgetV1OnlyFields();
    if (version == "v1") {
      spec.update(extras);
    } else if (mayCarryStash && !extras.empty() && drawBool()) {
      // Stored objects written through v1 carry the webhook's stash (canonical JSON).
      object["metadata"]["annotations"][std::string(kWidgetStashAnnotation)] = extras.dump();
    }
    object["spec"] = spec;
    if (drawBool()) {
      json status = json::object();
      if (drawBool())
        status[alpha ? "readyCount" : "readyReplicas"] = *rc::gen::inRange<std::int64_t>(0, 1001);
      if (drawBool())
        status["phase"] = *rc::gen::element<std::string>("Pending", "Ready", "Failed");
      object["status"] = status;
    }
    return object;
  });
}

}  // namespace

rc::Gen<json> genWidget(const std::string& version) {
  return genWidgetObject(version, /*mayCarryStash=*/true);
}

rc::Gen<json> genFreshWidget(const std::string& version) {
  return genWidgetObject(version, /*mayCarryStash=*/false);
}

}  // namespace convcheck::example::testing_support

#include "tests/hostile/hostile_modes.h"

#include <zlib.h>

#include <array>
#include <random>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "examples/webhook/review_handler.h"

namespace convcheck::hostile {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

constexpr std::array kModes = {
    ModeInfo{Mode::Correct, "correct", "converts correctly (the example webhook's logic)"},
    ModeInfo{Mode::RandomBytes, "random-bytes", "random bytes instead of an HTTP response"},
    ModeInfo{Mode::RandomBody, "random-body", "200 application/json with a random binary body"},
    ModeInfo{Mode::JsonCutInHalf, "json-cut-in-half", "200 with half of the correct answer"},
    ModeInfo{Mode::Empty200, "empty-200", "200 with an empty body"},
    ModeInfo{Mode::Status204, "status-204", "204 No Content"},
    ModeInfo{Mode::Html500, "html-500", "500 with an HTML error page"},
    ModeInfo{Mode::Text422, "text-422", "422 with a text/plain message"},
    ModeInfo{Mode::EndlessBody, "endless-body",
             "200 without Content-Length, streaming up to 8 GiB"},
    ModeInfo{Mode::ContentLengthLie, "content-length-lie",
             "declares Content-Length: 1 TiB, sends 1 KiB, closes"},
    ModeInfo{Mode::ContentLengthShort, "content-length-short",
             "declares Content-Length: 100000, sends 100 bytes, closes"},
    ModeInfo{Mode::Slowloris, "slowloris", "headers, then one body byte per second"},
    ModeInfo{Mode::NeverAnswer, "never-answer", "accepts TCP and never says anything (no TLS)"},
    ModeInfo{Mode::SilentAfterRequest, "silent-after-request",
             "completes TLS, reads the request, never answers"},
    ModeInfo{Mode::TcpReset, "tcp-reset", "reads the request, then resets the connection"},
    ModeInfo{Mode::ResetOnAccept, "reset-on-accept", "resets every connection before TLS"},
    ModeInfo{Mode::CloseAfterHeaders, "close-after-headers",
             "sends headers announcing 5000 bytes, then closes"},
    ModeInfo{Mode::DeepNesting, "deep-nesting", "a JSON body nested a million levels deep"},
    ModeInfo{Mode::DeeperThanGo, "deeper-than-go", "a JSON body nested 20,000 levels deep"},
    ModeInfo{Mode::DeepYaml, "deep-yaml", "a YAML body of maps indented 1500 levels deep"},
    ModeInfo{Mode::DeepNestingArray, "deep-nesting-array",
             "a body of a million '[' (read through the YAML fallback)"},
    ModeInfo{Mode::YamlAliasBomb, "yaml-alias-bomb", "a YAML body expanding to 10^9 nodes"},
    ModeInfo{Mode::HugeNumbers, "huge-numbers", "1e400 and a 400-digit integer in every object"},
    ModeInfo{Mode::InvalidUtf8, "invalid-utf8", "invalid UTF-8 in strings and keys"},
    ModeInfo{Mode::DuplicateKeys, "duplicate-keys",
             "duplicate keys whose last value is the correct one"},
    ModeInfo{Mode::NanInfinity, "nan-infinity", "NaN, Infinity and -Infinity literals"},
    ModeInfo{Mode::Redirect307, "redirect-307", "307 to /final, which converts correctly"},
    ModeInfo{Mode::Redirect308, "redirect-308", "308 to /final, which converts correctly"},
    ModeInfo{Mode::Redirect302, "redirect-302", "302 to /final, which answers a GET with 405"},
    ModeInfo{Mode::RedirectLoop, "redirect-loop", "307 to itself, forever"},
    ModeInfo{Mode::GzipBomb, "gzip-bomb", "gzip-encoded 1 GiB of zeros (about 1 MiB sent)"},
    ModeInfo{Mode::MillionObjects, "million-objects", "2 million convertedObjects"},
    ModeInfo{Mode::ManyObjects, "many-objects", "40,000 convertedObjects"},
    ModeInfo{Mode::PaddedAnswer, "padded-answer",
             "correct answer plus a 15 MiB string in an unknown envelope field"},
    ModeInfo{Mode::WideObject, "wide-object", "objects carry an unknown field of 45,000 numbers"},
    ModeInfo{Mode::DeepValid, "deep-valid",
             "objects carry a field nested 990 levels deep (the cap is 1000)"},
    ModeInfo{Mode::AnswerOnce, "answer-once",
             "converts the first request, then drops every connection"},
};

const char* reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 204:
      return "No Content";
    case 302:
      return "Found";
    case 307:
      return "Temporary Redirect";
    case 308:
      return "Permanent Redirect";
    case 400:
      return "Bad Request";
    case 405:
      return "Method Not Allowed";
    case 415:
      return "Unsupported Media Type";
    case 422:
      return "Unprocessable Entity";
    case 500:
      return "Internal Server Error";
    default:
      return "Status";
  }
}

// A complete response with Content-Length (and `extra` header lines, each ending in \r\n).
std::string response(int status, const std::string& contentType, std::string_view body,
                     const std::string& extra = "") {
  std::string out = "HTTP/1.1 " + std::to_string(status) + " " + reason(status) + "\r\n";
  if (!contentType.empty()) out += "Content-Type: " + contentType + "\r\n";
  if (status != 204) out += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  out += extra + "\r\n";
  out.append(body);
  return out;
}

std::string randomBytes(std::size_t n) {
  std::mt19937_64 rng(std::random_device{}());
  std::string out(n, '\0');
  for (auto& c : out) c = static_cast<char>(rng() & 0xff);
  return out;
}

// The example webhook's correct answer to this request.
example::HttpReply correct(const Request& request) {
  return example::handleConversionReview(request.header("content-type"), request.body, {});
}

// Replaces the JSON string "\"<marker>\"" in `text` by raw JSON text.
void replaceMarker(std::string& text, const std::string& marker, const std::string& raw) {
  const std::string quoted = "\"" + marker + "\"";
  for (auto at = text.find(quoted); at != std::string::npos; at = text.find(quoted, at)) {
    text.replace(at, quoted.size(), raw);
    at += raw.size();
  }
}

// The correct answer as JSON, changed by `edit` (which may leave markers for replaceMarker).
template <typename Edit>
std::string editedAnswer(const Request& request, Edit edit) {
  json answer = json::parse(correct(request).body, nullptr, false);
  if (!answer.is_object()) return "{}";
  return edit(answer);
}

std::string hugeNumbers(const Request& request) {
  return editedAnswer(request, [](json& answer) {
    for (auto& object : answer["response"]["convertedObjects"]) {
      object["hostileFloat"] = "@@FLOAT@@";
      object["hostileInteger"] = "@@INTEGER@@";
    }
    std::string text = answer.dump();
    replaceMarker(text, "@@FLOAT@@", "1e400");
    replaceMarker(text, "@@INTEGER@@", std::string(400, '7'));
    return text;
  });
}

std::string invalidUtf8(const Request& request) {
  return editedAnswer(request, [](json& answer) {
    for (auto& object : answer["response"]["convertedObjects"]) {
      object["metadata"]["annotations"]["hostile.example.com/bytes"] = "@@BYTES@@";
      object["@@KEY@@"] = "x";
    }
    std::string text = answer.dump();
    replaceMarker(text, "@@BYTES@@", "\"ok \xff\xfe \xc3( \xed\xa0\x80 end\"");
    replaceMarker(text, "@@KEY@@", "\"key\xff\xc0\"");
    return text;
  });
}

// Every object repeats apiVersion and the envelope repeats kind, the wrong value first: Go's
// decoder keeps the last one, so the answer is correct.
std::string duplicateKeys(const Request& request) {
  return editedAnswer(request, [](json& answer) {
    std::string objects = "[";
    for (const auto& object : answer["response"]["convertedObjects"]) {
      if (objects.size() > 1) objects += ",";
      objects += "{\"apiVersion\":\"wrong.example.com/v0\"," + object.dump().substr(1);
    }
    objects += "]";
    answer["response"]["convertedObjects"] = "@@OBJECTS@@";
    std::string text = answer.dump();
    replaceMarker(text, "@@OBJECTS@@", objects);
    return "{\"kind\":\"NotAConversionReview\"," + text.substr(1);
  });
}

std::string nanInfinity(const Request& request) {
  return editedAnswer(request, [](json& answer) {
    for (auto& object : answer["response"]["convertedObjects"]) {
      object["spec"]["nan"] = "@@NAN@@";
      object["spec"]["inf"] = "@@INF@@";
      object["spec"]["negInf"] = "@@NEGINF@@";
    }
    std::string text = answer.dump();
    replaceMarker(text, "@@NAN@@", "NaN");
    replaceMarker(text, "@@INF@@", "Infinity");
    replaceMarker(text, "@@NEGINF@@", "-Infinity");
    return text;
  });
}

std::string manyObjects(const Request& request, std::size_t kObjects) {
  return editedAnswer(request, [kObjects](json& answer) {
    answer["response"]["convertedObjects"] = "@@OBJECTS@@";
    std::string text = answer.dump();
    std::string objects;
    objects.reserve(3 * kObjects + 2);
    objects += "[";
    for (std::size_t i = 0; i < kObjects; ++i) objects += i == 0 ? "{}" : ",{}";
    objects += "]";
    replaceMarker(text, "@@OBJECTS@@", objects);
    return text;
  });
}

// The correct answer with `raw` JSON text as the value of a new field "hostile" of every object.
std::string withRawField(const Request& request, const std::string& raw) {
  return editedAnswer(request, [&raw](json& answer) {
    for (auto& object : answer["response"]["convertedObjects"]) object["hostile"] = "@@RAW@@";
    std::string text = answer.dump();
    replaceMarker(text, "@@RAW@@", raw);
    return text;
  });
}

std::string wideArray(std::size_t n) {
  std::string text = "[";
  text.reserve(2 * n + 2);
  for (std::size_t i = 0; i < n; ++i) text += i == 0 ? "0" : ",0";
  return text + "]";
}

std::string deepArray(std::size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

std::string deepNesting(std::size_t kDepth) {
  std::string text =
      R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","response":{"deep":)";
  text.append(kDepth, '[');
  text.append(kDepth, ']');
  text += "}}";
  return text;
}

// Block mappings nested by indentation only (no brackets): "a:\n a:\n  a: …".
std::string deepYaml(std::size_t depth) {
  std::string text;
  for (std::size_t i = 0; i < depth; ++i) text += std::string(i, ' ') + "a:\n";
  return text + std::string(depth, ' ') + "a: 1\n";
}

std::string yamlAliasBomb() {
  std::string text =
      "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n";
  for (char name = 'b'; name <= 'i'; ++name) {
    const char prev = static_cast<char>(name - 1);
    text += std::string(1, name) + ": &" + name + " [";
    for (int i = 0; i < 9; ++i) text += std::string(i ? ",*" : "*") + prev;
    text += "]\n";
  }
  return text;
}

std::string gzipOfZeros(std::size_t total) {
  z_stream z{};
  deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
  std::vector<unsigned char> zeros(1 << 20, 0);
  std::string out;
  std::vector<unsigned char> buffer(1 << 16);
  for (std::size_t fed = 0; fed <= total; fed += zeros.size()) {
    const bool last = fed + zeros.size() > total;
    z.next_in = zeros.data();
    z.avail_in = last ? 0 : static_cast<uInt>(zeros.size());
    do {
      z.next_out = buffer.data();
      z.avail_out = static_cast<uInt>(buffer.size());
      deflate(&z, last ? Z_FINISH : Z_NO_FLUSH);
      out.append(reinterpret_cast<char*>(buffer.data()), buffer.size() - z.avail_out);
    } while (z.avail_out == 0);
  }
  deflateEnd(&z);
  return out;
}

std::string hostOf(const Request& request) {
  std::string host = request.header("host");
  return host.empty() ? "127.0.0.1" : host;
}

// Answers one request; false when the connection must end (closed, reset or abandoned).
bool answer(Mode mode, Connection& c, const Request& request, ServerState& state) {
  switch (mode) {
    case Mode::Correct:
    case Mode::AnswerOnce: {
      auto reply = correct(request);
      const bool sent = c.write(response(reply.status, reply.contentType, reply.body));
      ++state.answered;
      if (mode == Mode::AnswerOnce) {
        c.close();
        return false;
      }
      return sent;
    }
    case Mode::RandomBytes:
      c.write(randomBytes(64 * 1024));
      c.close();
      return false;
    case Mode::RandomBody:
      return c.write(response(200, "application/json", randomBytes(4096)));
    case Mode::JsonCutInHalf: {
      auto body = correct(request).body;
      return c.write(response(200, "application/json", body.substr(0, body.size() / 2)));
    }
    case Mode::Empty200:
      return c.write(response(200, "application/json", ""));
    case Mode::Status204:
      return c.write(response(204, "", ""));
    case Mode::Html500:
      return c.write(response(
          500, "text/html",
          "<!DOCTYPE html>\n<html><head><title>500 Internal Server Error</title></head>\n"
          "<body><h1>Internal Server Error</h1><p>The server encountered an internal error."
          "</p></body></html>\n"));
    case Mode::Text422:
      return c.write(
          response(422, "text/plain; charset=utf-8", "spec.cronSpec: invalid cron expression\n"));
    case Mode::EndlessBody: {
      c.write(
          "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n"
          "{\"padding\":\"");
      const std::string chunk(1 << 20, 'x');
      for (int i = 0; i < 8 * 1024 && c.write(chunk); ++i) {
      }
      c.close();
      return false;
    }
    case Mode::ContentLengthLie:
      c.write(
          "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
          "Content-Length: 1099511627776\r\n\r\n{\"padding\":\"" +
          std::string(1024, 'x'));
      c.close();
      return false;
    case Mode::ContentLengthShort:
      c.write(
          "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
          "{\"padding\":\"" +
          std::string(88, 'x'));
      c.close();
      return false;
    case Mode::Slowloris:
      if (c.write(
              "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"))
        for (int i = 0; i < 600 && c.write("{"); ++i) std::this_thread::sleep_for(1s);
      return false;
    case Mode::SilentAfterRequest:
      c.waitForPeerClose(10min);
      return false;
    case Mode::TcpReset:
      c.reset();
      return false;
    case Mode::CloseAfterHeaders:
      c.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n");
      c.close();
      return false;
    case Mode::DeepNesting:
      return c.write(response(200, "application/json", deepNesting(1'000'000)));
    case Mode::DeeperThanGo:
      return c.write(response(200, "application/json", deepNesting(20'000)));
    case Mode::DeepYaml:
      return c.write(response(200, "application/yaml", deepYaml(1500)));
    case Mode::DeepNestingArray:
      return c.write(response(200, "application/json", std::string(1'000'000, '[')));
    case Mode::YamlAliasBomb:
      return c.write(response(200, "application/yaml", yamlAliasBomb()));
    case Mode::HugeNumbers:
      return c.write(response(200, "application/json", hugeNumbers(request)));
    case Mode::InvalidUtf8:
      return c.write(response(200, "application/json", invalidUtf8(request)));
    case Mode::DuplicateKeys:
      return c.write(response(200, "application/json", duplicateKeys(request)));
    case Mode::NanInfinity:
      return c.write(response(200, "application/json", nanInfinity(request)));
    case Mode::Redirect307:
    case Mode::Redirect308:
    case Mode::Redirect302:
    case Mode::RedirectLoop: {
      const std::string scheme = state.tls ? "https://" : "http://";
      if (mode != Mode::RedirectLoop && request.path() == "/final") {
        if (request.method != "POST")
          return c.write(response(405, "text/plain", "only POST converts\n", "Allow: POST\r\n"));
        auto reply = correct(request);
        return c.write(response(reply.status, reply.contentType, reply.body));
      }
      const std::string location = mode == Mode::RedirectLoop
                                       ? scheme + hostOf(request) + request.target
                                       : scheme + hostOf(request) + "/final";
      const int status = mode == Mode::Redirect308 ? 308 : mode == Mode::Redirect302 ? 302 : 307;
      return c.write(response(status, "", "", "Location: " + location + "\r\n"));
    }
    case Mode::GzipBomb:
      return c.write(
          response(200, "application/json", state.gzipBomb, "Content-Encoding: gzip\r\n"));
    case Mode::MillionObjects:
      return c.write(response(200, "application/json", manyObjects(request, 2'000'000)));
    case Mode::ManyObjects:
      return c.write(response(200, "application/json", manyObjects(request, 40'000)));
    case Mode::PaddedAnswer:
      return c.write(response(200, "application/json", editedAnswer(request, [](json& answer) {
                                answer["padding"] = std::string(15u << 20, 'x');
                                return answer.dump();
                              })));
    case Mode::WideObject:
      return c.write(response(200, "application/json", withRawField(request, wideArray(45'000))));
    case Mode::DeepValid:  // objects are at depth 4 in the review: 4 + 990 < 1000
      return c.write(response(200, "application/json", withRawField(request, deepArray(990))));
    case Mode::NeverAnswer:
    case Mode::ResetOnAccept:
      return false;  // handled before TLS
  }
  return false;
}

}  // namespace

std::span<const ModeInfo> modeCatalogue() { return kModes; }

std::optional<Mode> modeFromName(std::string_view name) {
  for (const auto& info : kModes)
    if (info.name == name) return info.mode;
  return std::nullopt;
}

std::string_view modeName(Mode mode) {
  for (const auto& info : kModes)
    if (info.mode == mode) return info.name;
  return "?";
}

void prepareMode(Mode mode, ServerState& state) {
  if (mode == Mode::GzipBomb) state.gzipBomb = gzipOfZeros(std::size_t{1} << 30);
}

void serveConnection(Mode mode, Connection& c, ServerState& state) {
  switch (mode) {
    case Mode::NeverAnswer:
      c.waitForPeerClose(10min);
      return;
    case Mode::ResetOnAccept:
      c.reset();
      return;
    case Mode::AnswerOnce:
      if (state.answered.load() > 0) {
        c.close();
        return;
      }
      break;
    default:
      break;
  }
  if (!c.handshake()) return;
  while (auto request = c.readRequest(60s))
    if (!answer(mode, c, *request, state)) return;
  // What a plain HTTP server answers to a TLS ClientHello (an https:// URL pointing at it).
  if (c.sawNonHttp()) c.write(response(400, "text/plain", "not an HTTP request\n"));
  c.close();
}

}  // namespace convcheck::hostile

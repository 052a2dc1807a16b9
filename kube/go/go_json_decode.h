// JSON text read the way Go's encoding/json and sigs.k8s.io/json read it: syntax errors with Go's
// messages, strings with U+FFFD for invalid UTF-8, integer literals kept as int64. Used by the
// API-server model (envelope decoding, per-object parsing).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace convcheck {

// encoding/json checkValid: nullopt when `text` is exactly one JSON value (surrounded by optional
// JSON white space), else the SyntaxError text, e.g. "invalid character 'x' looking for beginning
// of value", "invalid character '}' after object key", "unexpected end of JSON input".
std::optional<std::string> goJsonSyntaxError(std::string_view text);

enum class GoJsonKind { Object, Array, String, Number, True, False, Null };

// Go's unquote of a JSON string literal (quotes included): escapes decoded, a lone or broken
// surrogate and each invalid UTF-8 byte replaced by U+FFFD.
std::string goJsonUnquote(std::string_view literal);

// A forward-only reader over text that goJsonSyntaxError() accepted.
class GoJsonCursor {
 public:
  explicit GoJsonCursor(std::string_view validText) : text_(validText) {}

  GoJsonKind peek();               // kind of the next value
  std::string_view skipValue();    // consumes one value; returns its exact text
  std::string readString();        // consumes a string value, unquoted
  std::string_view readLiteral();  // consumes a number / true / false / null
  void enterObject();              // consumes '{'
  bool nextKey(std::string& key);  // consumes `,"key":` and returns true, or '}' and false
  void enterArray();               // consumes '['
  bool nextElement();              // consumes ',' and returns true, or ']' and false

 private:
  void skipSpace();
  void skipString();  // past the closing quote, without unquoting
  std::string_view text_;
  std::size_t pos_ = 0;
};

// A valid JSON text decoded into Go's interface{} as UnmarshalCaseSensitivePreserveInts does:
// objects (duplicate keys: last wins), arrays, strings, bools, null, int64 for integer literals
// that fit, float64 otherwise. `error` is the first error Go would return (a number beyond
// float64's range: "json: cannot unmarshal number 1e400 into Go value of type float64"); the value
// is still complete (such numbers become null).
struct GoInterfaceValue {
  nlohmann::json value;
  std::string error;
};
GoInterfaceValue goDecodeInterface(std::string_view validText);

// A JSON number literal as interface{} holds it: int64 when it has no '.', 'e' or 'E' and fits,
// else float64; nullopt when it is beyond float64's range.
std::optional<nlohmann::json> goNumberValue(std::string_view literal);

}  // namespace convcheck

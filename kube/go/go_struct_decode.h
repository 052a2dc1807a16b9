// Go's encoding/json decoding into typed structs, as sigs.k8s.io/json does it for the API server
// (case-sensitive field names, unknown fields ignored, Go's UnmarshalTypeError texts). Used by
// review_decode for ConversionReview and metav1.Status.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace convcheck {

// A Go type as far as JSON decoding sees it. `name` is reflect's Type.String() ("types.UID",
// "v1.Status", "[]runtime.RawExtension"), `structName` its Name() for structs ("Status").
struct GoType {
  enum class Kind { String, Int32, Int64, Struct, Pointer, Slice, RawExtension };
  Kind kind = Kind::String;
  std::string name;
  std::string structName;
  std::vector<std::pair<std::string, const GoType*>> fields;  // JSON name → type, for structs
  const GoType* elem = nullptr;                               // for pointers and slices
};

inline GoType goScalar(GoType::Kind kind, std::string name) {
  GoType t;
  t.kind = kind;
  t.name = std::move(name);
  return t;
}
inline GoType goIndirect(GoType::Kind kind, std::string name, const GoType* elem) {
  GoType t = goScalar(kind, std::move(name));
  t.elem = elem;
  return t;
}
inline GoType goStruct(std::string name, std::string structName,
                       std::vector<std::pair<std::string, const GoType*>> fields) {
  GoType t = goScalar(GoType::Kind::Struct, std::move(name));
  t.structName = std::move(structName);
  t.fields = std::move(fields);
  return t;
}

// The decoded value, shaped like the Go value: a struct is an object holding the fields that were
// set (absent = zero value), a nil pointer or nil slice is null, a slice is an array, a
// RawExtension is the exact JSON text of its value as a string (null = empty Raw), integers are
// numbers. Merging follows Go: a repeated key decodes into the existing struct/pointee, a repeated
// array reuses existing elements (a JSON null element keeps the previous RawExtension).
struct GoStructDecode {
  nlohmann::json value;
  std::string error;  // the first UnmarshalTypeError, as Go returns it; value is still filled
  // The length Go gives each []RawExtension field, by field path ("response.convertedObjects");
  // with a `maxRawElements` limit the decoded array may hold fewer elements.
  std::map<std::string, std::size_t> rawSliceLengths;
};

// Decodes `validText` (accepted by goJsonSyntaxError) into a value of `type`. Elements of
// []RawExtension slices beyond `maxRawElements` are counted (rawSliceLengths) but not kept, so a
// hostile answer with millions of elements costs no memory.
GoStructDecode decodeGoValue(std::string_view validText, const GoType& type,
                             std::size_t maxRawElements = SIZE_MAX);

}  // namespace convcheck

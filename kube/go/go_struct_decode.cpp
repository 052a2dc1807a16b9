#include "kube/go/go_struct_decode.h"

#include <charconv>
#include <cstdint>
#include <limits>

#include "kube/go/go_json_decode.h"

namespace convcheck {
namespace {

using nlohmann::json;

json zeroValue(const GoType& type) {
  switch (type.kind) {
    case GoType::Kind::String:
      return "";
    case GoType::Kind::Int32:
    case GoType::Kind::Int64:
      return 0;
    case GoType::Kind::Struct:
      return json::object();
    default:
      return nullptr;  // nil pointer, nil slice, empty RawExtension
  }
}

const char* literalName(GoJsonKind kind) {
  switch (kind) {
    case GoJsonKind::Object:
      return "object";
    case GoJsonKind::Array:
      return "array";
    case GoJsonKind::String:
      return "string";
    case GoJsonKind::Number:
      return "number";
    case GoJsonKind::True:
    case GoJsonKind::False:
      return "bool";
    case GoJsonKind::Null:
      return "null";
  }
  return "";
}

class Decoder {
 public:
  Decoder(std::string_view text, std::size_t maxRawElements)
      : cursor_(text), maxRawElements_(maxRawElements) {}

  void decode(const GoType& type, json& target) {
    const GoJsonKind next = cursor_.peek();
    switch (type.kind) {
      case GoType::Kind::RawExtension: {
        std::string_view raw = cursor_.skipValue();
        if (raw != "null") target = std::string(raw);  // RawExtension.UnmarshalJSON
        return;
      }
      case GoType::Kind::Pointer:
        if (next == GoJsonKind::Null) {
          cursor_.readLiteral();
          target = nullptr;
          return;
        }
        if (target.is_null()) target = zeroValue(*type.elem);
        decode(*type.elem, target);
        return;
      case GoType::Kind::String:
        if (next == GoJsonKind::String) {
          target = cursor_.readString();
          return;
        }
        return mismatch(next, type);
      case GoType::Kind::Int32:
      case GoType::Kind::Int64:
        if (next == GoJsonKind::Number) {
          std::string_view literal = cursor_.readLiteral();
          std::int64_t n = 0;
          auto res = std::from_chars(literal.data(), literal.data() + literal.size(), n);
          bool overflow =
              type.kind == GoType::Kind::Int32 && (n < std::numeric_limits<std::int32_t>::min() ||
                                                   n > std::numeric_limits<std::int32_t>::max());
          if (res.ec != std::errc() || res.ptr != literal.data() + literal.size() || overflow) {
            typeError("number " + std::string(literal), type);
            return;
          }
          target = n;
          return;
        }
        return mismatch(next, type);
      case GoType::Kind::Struct:
        if (next == GoJsonKind::Object) return decodeStruct(type, target);
        return mismatch(next, type);
      case GoType::Kind::Slice:
        if (next == GoJsonKind::Null) {
          cursor_.readLiteral();
          target = nullptr;
          return;
        }
        if (next == GoJsonKind::Array) return decodeSlice(type, target);
        return mismatch(next, type);
    }
  }

  std::string error;
  std::map<std::string, std::size_t> rawSliceLengths;

 private:
  // A JSON value of the wrong kind for `type`: null leaves the value alone, anything else is an
  // UnmarshalTypeError and the value is skipped.
  void mismatch(GoJsonKind next, const GoType& type) {
    cursor_.skipValue();
    if (next != GoJsonKind::Null) typeError(literalName(next), type);
  }

  void typeError(const std::string& value, const GoType& type) {
    if (!error.empty()) return;
    if (!struct_.empty() || !fieldStack_.empty()) {
      std::string field;
      for (const auto& f : fieldStack_) field += (field.empty() ? "" : ".") + f;
      error = "json: cannot unmarshal " + value + " into Go struct field " + struct_ + "." + field +
              " of type " + type.name;
    } else {
      error = "json: cannot unmarshal " + value + " into Go value of type " + type.name;
    }
  }

  void decodeStruct(const GoType& type, json& target) {
    if (!target.is_object()) target = json::object();
    cursor_.enterObject();
    std::string key;
    while (cursor_.nextKey(key)) {
      const GoType* fieldType = nullptr;
      for (const auto& [name, t] : type.fields)
        if (name == key) fieldType = t;  // case-sensitive match only
      if (!fieldType) {
        cursor_.skipValue();
        continue;
      }
      const std::string savedStruct = struct_;
      struct_ = type.structName;
      fieldStack_.push_back(key);
      json& slot = target[key];
      if (slot.is_null() && fieldType->kind != GoType::Kind::Pointer &&
          fieldType->kind != GoType::Kind::Slice && fieldType->kind != GoType::Kind::RawExtension)
        slot = zeroValue(*fieldType);
      decode(*fieldType, slot);
      fieldStack_.pop_back();
      struct_ = savedStruct;
    }
  }

  void decodeSlice(const GoType& type, json& target) {
    json previous = target.is_array() ? target : json::array();
    json out = json::array();
    cursor_.enterArray();
    const bool raw = type.elem->kind == GoType::Kind::RawExtension;
    std::size_t i = 0;
    while (cursor_.nextElement()) {
      if (raw && i >= maxRawElements_) {
        cursor_.skipValue();  // RawExtension takes any value: nothing to check
        ++i;
        continue;
      }
      json element = i < previous.size() ? previous[i] : zeroValue(*type.elem);
      decode(*type.elem, element);
      out.push_back(std::move(element));
      ++i;
    }
    target = std::move(out);
    if (raw) {
      std::string path;
      for (const auto& f : fieldStack_) path += (path.empty() ? "" : ".") + f;
      rawSliceLengths[path] = i;
    }
  }

  GoJsonCursor cursor_;
  std::size_t maxRawElements_;
  std::string struct_;
  std::vector<std::string> fieldStack_;
};

}  // namespace

GoStructDecode decodeGoValue(std::string_view validText, const GoType& type,
                             std::size_t maxRawElements) {
  Decoder decoder(validText, maxRawElements);
  GoStructDecode result;
  result.value = zeroValue(type);
  decoder.decode(type, result.value);
  result.error = decoder.error;
  result.rawSliceLengths = std::move(decoder.rawSliceLengths);
  return result;
}

}  // namespace convcheck

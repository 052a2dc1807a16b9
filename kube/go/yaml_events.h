// go-yaml v2's YAML parser, as the C library it was ported from (libyaml): a text read one event
// at a time. Used by kube/crd's YAML reader and by the API server's YAML answer fallback.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace convcheck {

// Where an event starts or ends, as libyaml counts: 0-based, `pos` in characters after any byte
// order mark.
struct YamlMark {
  std::size_t pos = 0;
  int line = 0;
  int column = 0;
};

struct YamlEvent {
  enum class Type {
    StreamStart,
    StreamEnd,
    DocumentStart,
    DocumentEnd,
    Alias,
    Scalar,
    SequenceStart,
    SequenceEnd,
    MappingStart,
    MappingEnd,
  };
  Type type = Type::StreamEnd;
  YamlMark start, end;
  std::string anchor;  // the anchor a node defines, or the one an alias names; empty: none
  std::string tag;     // the explicit tag of a node, resolved ("tag:yaml.org,2002:str"); or empty
  std::string value;   // a scalar's text
  bool plain = false;  // a plain (unquoted, not block) scalar
  bool explicitDocument = false;  // a document start written as "---"
};

class YamlEventReader {
 public:
  // `text` must outlive the reader.
  explicit YamlEventReader(std::string_view text);
  ~YamlEventReader();
  YamlEventReader(const YamlEventReader&) = delete;
  YamlEventReader& operator=(const YamlEventReader&) = delete;

  // The next event; false on a syntax error, which problem() and problemMark() then describe
  // (go-yaml's wording: "mapping values are not allowed in this context").
  bool next(YamlEvent& event);
  std::string problem() const;
  YamlMark problemMark() const;

  // go-yaml v2's message for the syntax error: "line N: " (as its parser.fail counts lines) and
  // the problem.
  std::string goMessage() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace convcheck

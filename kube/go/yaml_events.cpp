#include "kube/go/yaml_events.h"

#include <new>

#include <yaml.h>

namespace convcheck {

namespace {

YamlMark markOf(const yaml_mark_t& m) {
  return {m.index, static_cast<int>(m.line), static_cast<int>(m.column)};
}

std::string textOf(const yaml_char_t* s) {
  return s ? std::string(reinterpret_cast<const char*>(s)) : std::string();
}

// One libyaml event, freed with it.
struct RawEvent {
  yaml_event_t e{};
  bool filled = false;
  RawEvent() = default;
  ~RawEvent() {
    if (filled) yaml_event_delete(&e);
  }
  RawEvent(const RawEvent&) = delete;
  RawEvent& operator=(const RawEvent&) = delete;
};

}  // namespace

struct YamlEventReader::Impl {
  yaml_parser_t parser{};
};

YamlEventReader::YamlEventReader(std::string_view text) : impl_(std::make_unique<Impl>()) {
  if (!yaml_parser_initialize(&impl_->parser)) throw std::bad_alloc();
  yaml_parser_set_input_string(&impl_->parser, reinterpret_cast<const unsigned char*>(text.data()),
                               text.size());
}

YamlEventReader::~YamlEventReader() { yaml_parser_delete(&impl_->parser); }

bool YamlEventReader::next(YamlEvent& event) {
  RawEvent raw;
  raw.filled = yaml_parser_parse(&impl_->parser, &raw.e) != 0;
  if (!raw.filled) return false;
  const yaml_event_t& e = raw.e;
  event.start = markOf(e.start_mark);
  event.end = markOf(e.end_mark);
  event.anchor.clear();
  event.tag.clear();
  event.value.clear();
  event.plain = false;
  event.explicitDocument = false;
  switch (e.type) {
    case YAML_STREAM_START_EVENT:
      event.type = YamlEvent::Type::StreamStart;
      break;
    case YAML_NO_EVENT:
    case YAML_STREAM_END_EVENT:
      event.type = YamlEvent::Type::StreamEnd;
      break;
    case YAML_DOCUMENT_START_EVENT:
      event.type = YamlEvent::Type::DocumentStart;
      event.explicitDocument = e.data.document_start.implicit == 0;
      break;
    case YAML_DOCUMENT_END_EVENT:
      event.type = YamlEvent::Type::DocumentEnd;
      break;
    case YAML_ALIAS_EVENT:
      event.type = YamlEvent::Type::Alias;
      event.anchor = textOf(e.data.alias.anchor);
      break;
    case YAML_SCALAR_EVENT:
      event.type = YamlEvent::Type::Scalar;
      event.anchor = textOf(e.data.scalar.anchor);
      event.tag = textOf(e.data.scalar.tag);
      event.value.assign(reinterpret_cast<const char*>(e.data.scalar.value), e.data.scalar.length);
      event.plain = e.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
      break;
    case YAML_SEQUENCE_START_EVENT:
      event.type = YamlEvent::Type::SequenceStart;
      event.anchor = textOf(e.data.sequence_start.anchor);
      event.tag = textOf(e.data.sequence_start.tag);
      break;
    case YAML_SEQUENCE_END_EVENT:
      event.type = YamlEvent::Type::SequenceEnd;
      break;
    case YAML_MAPPING_START_EVENT:
      event.type = YamlEvent::Type::MappingStart;
      event.anchor = textOf(e.data.mapping_start.anchor);
      event.tag = textOf(e.data.mapping_start.tag);
      break;
    case YAML_MAPPING_END_EVENT:
      event.type = YamlEvent::Type::MappingEnd;
      break;
  }
  return true;
}

std::string YamlEventReader::problem() const {
  const char* p = impl_->parser.problem;
  return p ? p : "unknown problem parsing YAML content";
}

YamlMark YamlEventReader::problemMark() const { return markOf(impl_->parser.problem_mark); }

// yaml.v2 decode.go parser.fail: the problem's 0-based line, plus one for scanner errors (which
// "don't iterate line before returning error"), else the context's; no line when it is 0.
std::string YamlEventReader::goMessage() const {
  int line = 0;
  if (impl_->parser.problem_mark.line != 0) {
    line = static_cast<int>(impl_->parser.problem_mark.line) +
           (impl_->parser.error == YAML_SCANNER_ERROR ? 1 : 0);
  } else if (impl_->parser.context_mark.line != 0) {
    line = static_cast<int>(impl_->parser.context_mark.line);
  }
  return (line != 0 ? "line " + std::to_string(line) + ": " : std::string()) + problem();
}

}  // namespace convcheck

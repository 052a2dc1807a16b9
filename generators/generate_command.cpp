#include "generators/generate_command.h"

#include "generators/object_gen.h"
#include "generators/validity.h"
#include "generators/yaml_writer.h"

namespace convcheck {

namespace {

// Every printed object passes the native validity checks; the first ones also valijson's, a second
// implementation that costs as much as generating them (tests/generators cross-check it on every
// object of every zoo CRD).
constexpr std::size_t kValijsonChecked = 32;

}  // namespace

std::optional<GenerateFormat> parseGenerateFormat(const std::string& name) {
  if (name == "json" || name == "ndjson") return GenerateFormat::Json;
  if (name == "yaml" || name == "yml") return GenerateFormat::Yaml;
  return std::nullopt;
}

std::optional<std::string> runGenerate(const Crd& crd, const GenerateRequest& request,
                                       std::ostream& out, std::ostream* notes) {
  if (request.count < 0) return "-n must not be negative";
  auto compiled = ObjectGenerator::compile(
      crd, request.version, GeneratorOptions{FormatOptions{request.canonicalDateTimes}});
  if (auto* error = std::get_if<std::string>(&compiled)) return *error;
  const auto& gen = std::get<ObjectGenerator>(compiled);
  if (notes)
    for (const auto& n : gen.notes()) *notes << "note: " << n << '\n';
  auto checker = ValidityChecker::compile(crd, request.version);
  if (auto* error = std::get_if<std::string>(&checker)) return *error;
  // Each object is checked and written to `text` as soon as it is made; nothing is printed when
  // generation fails, and the objects before the first invalid one when the guard fails.
  const auto& guard = std::get<ValidityChecker>(checker);
  std::string text;
  std::optional<std::string> invalid;
  auto each = [&](int index, nlohmann::json&& object) {
    if (invalid) return;
    const auto i = static_cast<std::size_t>(index);
    // An invalid object is a generator bug: report it, never print it as a sample.
    const auto violations = i < kValijsonChecked ? guard.check(object) : guard.checkNative(object);
    if (!violations.empty()) {
      invalid = "generator bug: object " + std::to_string(i) + " is invalid at " +
                (violations[0].path.empty() ? "<root>" : violations[0].path) + ": " +
                violations[0].message;
      return;
    }
    if (request.format == GenerateFormat::Json) {
      text += object.dump();
      text += '\n';
    } else {
      text += "---\n";
      text += toYaml(object);
    }
  };
  try {
    forEachGeneratedObject(gen, request.seed, request.count, each);
  } catch (const std::exception& e) {
    return std::string("generation failed: ") + e.what();
  }
  out << text;
  out.flush();
  return invalid;
}

}  // namespace convcheck

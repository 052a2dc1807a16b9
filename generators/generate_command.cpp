#include "generators/generate_command.h"

#include <algorithm>
#include <future>
#include <thread>
#include <vector>

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
  int threads = request.threads;
  if (threads <= 0)
    threads = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 8u));
  // The guard compiles (on another thread when there are several) while the generator does.
  auto compileGuard = [&crd, &request] { return ValidityChecker::compile(crd, request.version); };
  std::future<std::variant<ValidityChecker, std::string>> guardCompiling;
  if (threads > 1) guardCompiling = std::async(std::launch::async, compileGuard);
  auto compiled = ObjectGenerator::compile(
      crd, request.version, GeneratorOptions{FormatOptions{request.canonicalDateTimes}});
  if (auto* error = std::get_if<std::string>(&compiled)) return *error;
  const auto& gen = std::get<ObjectGenerator>(compiled);
  if (notes)
    for (const auto& n : gen.notes()) *notes << "note: " << n << '\n';
  auto checker = guardCompiling.valid() ? guardCompiling.get() : compileGuard();
  if (auto* error = std::get_if<std::string>(&checker)) return *error;
  // Each object is checked and serialised as soon as it is made (on several threads). Nothing is
  // printed when generation fails, and the objects before the first invalid one when the guard
  // fails.
  const auto& guard = std::get<ValidityChecker>(checker);
  const auto n = static_cast<std::size_t>(request.count);
  std::vector<std::string> texts(n), problems(n);
  auto each = [&](int index, nlohmann::json&& object) {
    const auto i = static_cast<std::size_t>(index);
    // An invalid object is a generator bug: report it, never print it as a sample. An object
    // still violating a validation rule convcheck could not satisfy is printed, as a run sends
    // it, and the rule is named in the notes.
    auto violations = i < kValijsonChecked ? guard.check(object) : guard.checkNative(object);
    violations.erase(std::remove_if(violations.begin(), violations.end(),
                                    [](const Violation& v) { return v.rule; }),
                     violations.end());
    if (!violations.empty()) {
      problems[i] = "generator bug: object " + std::to_string(i) + " is invalid at " +
                    (violations[0].path.empty() ? "<root>" : violations[0].path) + ": " +
                    violations[0].message;
      return;
    }
    texts[i] =
        request.format == GenerateFormat::Json ? object.dump() + '\n' : "---\n" + toYaml(object);
  };
  try {
    forEachGeneratedObject(gen, request.seed, request.count, each, threads);
  } catch (const std::exception& e) {
    return std::string("generation failed: ") + e.what();
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!problems[i].empty()) {
      out.flush();
      return problems[i];
    }
    out << texts[i];
    std::string().swap(texts[i]);
  }
  out.flush();
  if (notes)  // the validation rules objects could not be made to satisfy, with their share
    for (const auto& n : gen.ruleNotes()) *notes << "note: " << n << '\n';
  return std::nullopt;
}

}  // namespace convcheck

// runGenerate (`convcheck generate`): NDJSON and YAML streams of valid objects that read back
// unchanged, deterministic by seed, with notes and clear errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "generators/generate_command.h"
#include "generators/validity.h"
#include "generators/yaml_writer.h"
#include "kube/crd/yaml_json.h"
#include "tests/generators/gen_fixtures.h"

namespace convcheck {
namespace {

using nlohmann::json;

const json kSchema = {
    {"type", "object"},
    {"properties",
     {{"spec",
       {{"type", "object"},
        {"x-kubernetes-validations", {{{"rule", "true"}}}},
        {"properties",
         {{"mode",
           {{"type", "string"}, {"enum", {"yes", "no", "on", "off", "true", "1.0", "~", ""}}}},
          {"text", {{"type", "string"}}},
          {"n", {{"type", "number"}}},
          {"i", {{"type", "integer"}}},
          {"b", {{"type", "boolean"}, {"nullable", true}}},
          {"any", {{"x-kubernetes-preserve-unknown-fields", true}}}}}}}}}};

std::string run(const GenerateRequest& req, std::string* notes = nullptr,
                std::optional<std::string>* error = nullptr) {
  std::ostringstream out, n;
  auto e = runGenerate(testing::crdWithSchema(kSchema), req, out, &n);
  if (error)
    *error = e;
  else
    EXPECT_FALSE(e.has_value()) << *e;
  if (notes) *notes = n.str();
  return out.str();
}

TEST(GenerateCommand, NdjsonHasOneValidObjectPerLine) {
  const std::string text = run({"v1", 40, 7, GenerateFormat::Json});
  auto checker =
      std::get<ValidityChecker>(ValidityChecker::compile(testing::crdWithSchema(kSchema), "v1"));
  std::istringstream in(text);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) {
    ++lines;
    const json o = json::parse(line);
    EXPECT_TRUE(checker.check(o).empty()) << line;
  }
  EXPECT_EQ(lines, 40);
}

TEST(GenerateCommand, YamlStreamReadsBackAsTheSameObjectsUnderKubernetesYamlRules) {
  const std::string ndjson = run({"v1", 60, 3, GenerateFormat::Json});
  const std::string yaml = run({"v1", 60, 3, GenerateFormat::Yaml});
  YamlStream stream = parseYamlStream(yaml);
  ASSERT_FALSE(stream.fatal.has_value()) << stream.fatal->text();
  std::vector<json> docs;
  for (const auto& d : stream.documents)
    if (!d.value.is_null()) docs.push_back(d.value);
  std::istringstream in(ndjson);
  std::string line;
  std::size_t i = 0;
  while (std::getline(in, line)) {
    ASSERT_LT(i, docs.size());
    EXPECT_EQ(docs[i], json::parse(line)) << "document " << i + 1;
    ++i;
  }
  EXPECT_EQ(i, docs.size());
}

TEST(GenerateCommand, SameSeedWritesTheSameBytesOtherSeedsDiffer) {
  EXPECT_EQ(run({"v1", 20, 99, GenerateFormat::Yaml}), run({"v1", 20, 99, GenerateFormat::Yaml}));
  EXPECT_NE(run({"v1", 20, 99, GenerateFormat::Json}), run({"v1", 20, 100, GenerateFormat::Json}));
}

TEST(GenerateCommand, TheNumberOfThreadsDoesNotChangeTheBytes) {
  for (auto format : {GenerateFormat::Json, GenerateFormat::Yaml}) {
    GenerateRequest one{"v1", 90, 5, format};
    one.threads = 1;
    std::string expectedNotes;
    const std::string expected = run(one, &expectedNotes);
    EXPECT_FALSE(expected.empty());
    for (int threads : {0, 2, 3, 7}) {
      GenerateRequest r = one;
      r.threads = threads;
      std::string notes;
      EXPECT_EQ(run(r, &notes), expected) << threads << " threads";
      EXPECT_EQ(notes, expectedNotes) << threads << " threads";
    }
  }
}

TEST(GenerateCommand, PrintsNotesSeparately) {
  // A rule kube-apiserver would refuse (it does not compile) is not evaluated, and says so.
  json schema = kSchema;
  schema["properties"]["spec"]["x-kubernetes-validations"] = {{{"rule", "noSuchVariable == 1"}}};
  std::ostringstream out, notes;
  auto e =
      runGenerate(testing::crdWithSchema(schema), {"v1", 3, 1, GenerateFormat::Json}, out, &notes);
  ASSERT_FALSE(e.has_value()) << *e;
  EXPECT_NE(notes.str().find("note: "), std::string::npos);
  EXPECT_NE(notes.str().find("CEL"), std::string::npos) << notes.str();
  EXPECT_NE(notes.str().find("x-kubernetes-validations[0]: noSuchVariable == 1"), std::string::npos)
      << notes.str();
  EXPECT_EQ(out.str().find("note"), std::string::npos);
  std::istringstream lines(out.str());
  std::string line;
  int objects = 0;
  for (; std::getline(lines, line); ++objects) EXPECT_TRUE(json::parse(line).is_object()) << line;
  EXPECT_EQ(objects, 3);
}

TEST(GenerateCommand, PrintsObjectsARuleRejectsAndNamesTheRuleAfterThem) {
  // No object satisfies a rule on its name that contradicts itself: the objects are printed as a
  // run would send them, and the note after them names the rule with its share.
  json schema = kSchema;
  schema["x-kubernetes-validations"] = {
      {{"rule", "self.metadata.name == 'a' && self.metadata.name == 'b'"}}};
  std::ostringstream out, notes;
  auto e =
      runGenerate(testing::crdWithSchema(schema), {"v1", 5, 1, GenerateFormat::Json}, out, &notes);
  ASSERT_FALSE(e.has_value()) << *e;
  const std::string text = out.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 5);
  EXPECT_NE(notes.str().find("note: CEL validation rule convcheck could not satisfy: <root> "
                             "x-kubernetes-validations[0]"),
            std::string::npos)
      << notes.str();
  EXPECT_NE(notes.str().find("rejected 100.0% of drawn objects"), std::string::npos) << notes.str();
}

TEST(GenerateCommand, UnknownVersionIsAnError) {
  for (int threads : {1, 2}) {  // the guard compiles on its own thread when there are several
    GenerateRequest request{"v7", 3, 1, GenerateFormat::Json};
    request.threads = threads;
    std::optional<std::string> error;
    std::string notes;
    const std::string out = run(request, &notes, &error);
    ASSERT_TRUE(error.has_value());
    EXPECT_NE(error->find("v7"), std::string::npos);
    EXPECT_TRUE(out.empty());
    EXPECT_TRUE(notes.empty());
  }
}

TEST(GenerateCommand, ZeroObjectsWriteNothing) {
  EXPECT_EQ(run({"v1", 0, 1, GenerateFormat::Yaml}), "");
}

TEST(GenerateCommand, ParsesFormatNames) {
  EXPECT_EQ(parseGenerateFormat("json"), GenerateFormat::Json);
  EXPECT_EQ(parseGenerateFormat("yaml"), GenerateFormat::Yaml);
  EXPECT_FALSE(parseGenerateFormat("xml").has_value());
}

TEST(YamlWriter, QuotesStringsThatYamlWouldReadAsOtherTypes) {
  const json v = {{"a", "yes"},
                  {"b", "on"},
                  {"c", "1.0"},
                  {"d", "~"},
                  {"e", ""},
                  {"f", "null"},
                  {"g", "0x1F"},
                  {"h", "12:30"},
                  {"i", "- x"},
                  {"j", "日本"},
                  {"k", 1.5},
                  {"l", -7},
                  {"m", true},
                  {"n", nullptr},
                  {"o", "a: b"},
                  {"p", "line\nbreak"},
                  {"q", 9223372036854775807LL},
                  {"r", 1e300}};
  YamlStream s = parseYamlStream(toYaml(v));
  ASSERT_FALSE(s.fatal.has_value()) << s.fatal->text();
  ASSERT_EQ(s.documents.size(), 1u);
  EXPECT_EQ(s.documents[0].value, v) << toYaml(v);
}

}  // namespace
}  // namespace convcheck

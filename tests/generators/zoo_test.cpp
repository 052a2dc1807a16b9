// Every version of every CRD in the zoo: the generator compiles, and every generated object (1,000
// per version unless CONVCHECK_ZOO_OBJECTS says otherwise) passes the validity check.
#include <gtest/gtest.h>

#include "generators/object_gen.h"
#include "generators/validity.h"
#include "tests/generators/zoo.h"

namespace convcheck {
namespace {

using testing::ZooCrd;

class ZooTest : public ::testing::TestWithParam<std::string> {};

TEST(ZooCorpus, LoadsAllFiftyNineCrds) {
  std::vector<std::string> errors;
  EXPECT_EQ(testing::loadZoo(&errors).size(), 59u);
  EXPECT_TRUE(errors.empty()) << errors.front();
}

TEST_P(ZooTest, EveryGeneratedObjectOfEveryVersionIsValid) {
  const int perVersion = testing::envCount("CONVCHECK_ZOO_OBJECTS", 1000);
  std::vector<std::string> errors;
  const auto crds = testing::loadZooFile(GetParam(), &errors);
  ASSERT_TRUE(errors.empty()) << errors.front();
  ASSERT_EQ(crds.size(), 1u);
  const ZooCrd* entry = &crds.front();
  for (const auto& v : entry->crd.versions) {
    SCOPED_TRACE(entry->file + " version " + v.name);
    auto gen = ObjectGenerator::compile(entry->crd, v.name);
    ASSERT_TRUE(std::holds_alternative<ObjectGenerator>(gen)) << std::get<std::string>(gen);
    auto checker = ValidityChecker::compile(entry->crd, v.name);
    ASSERT_TRUE(std::holds_alternative<ValidityChecker>(checker)) << std::get<std::string>(checker);
    const auto& g = std::get<ObjectGenerator>(gen);
    const auto& c = std::get<ValidityChecker>(checker);
    std::vector<nlohmann::json> objects;
    ASSERT_NO_THROW(objects = generateObjects(g, 0xC0FFEE + v.name.size(), perVersion));
    ASSERT_EQ(objects.size(), static_cast<std::size_t>(perVersion));
    int invalid = 0;
    for (std::size_t i = 0; i < objects.size() && invalid < 3; ++i) {
      const auto violations = c.check(objects[i]);
      if (violations.empty()) continue;
      ++invalid;
      std::string why;
      for (std::size_t k = 0; k < violations.size() && k < 5; ++k)
        why += "\n  " + violations[k].path + ": " + violations[k].message;
      ADD_FAILURE() << "object " << i << " is invalid:" << why << "\n"
                    << objects[i].dump().substr(0, 4000);
    }
  }
}

std::string testName(const ::testing::TestParamInfo<std::string>& info) {
  std::string n;
  for (char c : info.param) n += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Zoo, ZooTest, ::testing::ValuesIn(testing::zooFiles()), testName);

}  // namespace
}  // namespace convcheck

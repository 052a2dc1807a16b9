// An input of `convcheck fuzz` as a flight of cases: one canonical case per line, decoded to the
// flight's size (an input of fewer cases filled with their mutants), mutated and crossed over
// case by case, and a flight of one written as the case itself.
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "engine/fuzz/fuzz_input.h"
#include "tests/engine/run/example_crd.h"

namespace convcheck {
namespace {

class FuzzFlight : public ::testing::Test {
 protected:
  FuzzFlight()
      : kindContext_(std::get<KindContext>(
            KindContext::compile(testing::loadExampleCrd("widgets.example.convcheck.dev.yaml")))),
        kind_(fuzzKindOf(kindContext_, 8)),
        mutator_(kind_) {}

  std::vector<FuzzCase> decode(const std::string& bytes, std::size_t size) {
    return decodeFuzzFlight(mutator_, kind_, reinterpret_cast<const std::uint8_t*>(bytes.data()),
                            bytes.size(), size);
  }
  FuzzCase generated(std::uint64_t seed) const { return generatedFuzzCase(kind_, seed); }

  KindContext kindContext_;
  FuzzKind kind_;
  CaseMutator mutator_;
};

TEST_F(FuzzFlight, ACanonicalFlightDecodesToItsCasesInOrder) {
  const std::vector<FuzzCase> cases = {generated(1), generated(2), generated(3)};
  EXPECT_EQ(decode(encodeFuzzFlight(cases), 3), cases);
}

TEST_F(FuzzFlight, AFlightOfOneIsWrittenAsItsCase) {
  const FuzzCase c = generated(4);
  EXPECT_EQ(encodeFuzzFlight({c}), encodeFuzzCase(c));
  EXPECT_EQ(decode(encodeFuzzCase(c), 1), std::vector<FuzzCase>{c});
}

TEST_F(FuzzFlight, AnInputOfFewerCasesIsFilledWithTheirMutantsTheSameWayEachTime) {
  const FuzzCase c = generated(5);
  const std::vector<FuzzCase> flight = decode(encodeFuzzCase(c), 6);
  ASSERT_EQ(flight.size(), 6u);
  EXPECT_EQ(flight[0], c);
  std::size_t mutants = 0;
  for (std::size_t i = 1; i < flight.size(); ++i) mutants += !(flight[i] == c);
  EXPECT_GT(mutants, 0u);
  EXPECT_EQ(decode(encodeFuzzCase(c), 6), flight);
}

TEST_F(FuzzFlight, AnInputOfMoreCasesKeepsItsFirst) {
  const std::vector<FuzzCase> cases = {generated(6), generated(7), generated(8)};
  EXPECT_EQ(decode(encodeFuzzFlight(cases), 2), (std::vector<FuzzCase>{cases[0], cases[1]}));
}

TEST_F(FuzzFlight, APrettyPrintedCaseIsOneCase) {
  const FuzzCase c = generated(9);
  const std::string pretty = nlohmann::json::parse(encodeFuzzCase(c)).dump(2);
  ASSERT_NE(pretty.find('\n'), std::string::npos);
  EXPECT_EQ(decode(pretty, 1), std::vector<FuzzCase>{c});
}

TEST_F(FuzzFlight, AMutantMutatesEveryCase) {
  const std::vector<FuzzCase> cases = {generated(10), generated(11), generated(12), generated(13)};
  const std::vector<FuzzCase> mutants = mutateFlight(mutator_, cases, 7);
  ASSERT_EQ(mutants.size(), 4u);
  std::size_t changed = 0;
  for (std::size_t i = 0; i < 4; ++i) changed += !(mutants[i] == cases[i]);
  EXPECT_GE(changed, 3u);
  EXPECT_EQ(mutateFlight(mutator_, cases, 7), mutants);
}

TEST_F(FuzzFlight, AFlightIsWrittenAsTheWholeCasesThatFit) {
  std::vector<FuzzCase> cases = {generated(10), generated(11), generated(12), generated(13)};
  const std::string all = encodeFuzzFlight(cases);
  std::string buffer(all.size(), '\0');
  std::vector<FuzzCase> written = cases;
  EXPECT_EQ(writeFuzzFlight(written, reinterpret_cast<std::uint8_t*>(buffer.data()), all.size()),
            all.size());
  EXPECT_EQ(buffer, all);
  EXPECT_EQ(written, cases);

  // Room for two cases only: two whole ones are written, and kept.
  const std::size_t room = encodeFuzzFlight({cases[0], cases[1]}).size() + 2;
  written = cases;
  const std::size_t size =
      writeFuzzFlight(written, reinterpret_cast<std::uint8_t*>(buffer.data()), room);
  EXPECT_EQ(buffer.substr(0, size), encodeFuzzFlight({cases[0], cases[1]}));
  EXPECT_EQ(written, (std::vector<FuzzCase>{cases[0], cases[1]}));
}

TEST_F(FuzzFlight, ACrossOverCrossesEachCaseWithACaseOfTheOtherFlight) {
  const std::vector<FuzzCase> a = {generated(14), generated(15), generated(16)};
  const std::vector<FuzzCase> b = {generated(17), generated(18)};
  const std::vector<FuzzCase> crossed = crossOverFlights(mutator_, a, b, 3);
  ASSERT_EQ(crossed.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_EQ(crossed[i], mutator_.crossOver(a[i], b[(i + 3) % 2], 3 * 3 + i)) << i;
}

}  // namespace
}  // namespace convcheck

// The evaluator against the CEL language definition on convcheck's own table
// (agreement_table.json): every row as the definition (and cel-go, which Kubernetes runs) gives
// it, except the rows marked "differs", which pin down where convcheck's evaluator knowingly
// differs. Prints the agreement per category.
#include <fstream>
#include <iostream>
#include <map>

#include <gtest/gtest.h>

#include "kube/cel/json_view.h"
#include "kube/cel/program.h"
#include "tests/kube/cel/table_codec.h"

namespace convcheck::cel {
namespace {

using nlohmann::json;

json loadTable() {
  std::ifstream in(CEL_TEST_DIR "/agreement_table.json");
  return json::parse(in);
}

json evaluateRow(const std::string& expr, const json& x) {
  auto p = Program::compile(expr, {"x"});
  if (std::holds_alternative<std::string>(p)) return "error";
  return testing::encode(std::get<Program>(p).evaluate({jsonValue(x, nullptr)}));
}

TEST(CelAgreement, EveryRowOfTheTableAgreesWithTheLanguageDefinitionOrIsAKnownDifference) {
  const json table = loadTable();
  const json& x = table["bindings"]["x"];
  std::map<std::string, std::pair<int, int>> perCategory;
  int differences = 0;
  for (const auto& row : table["rows"]) {
    const std::string expr = row["expr"];
    const json got = evaluateRow(expr, x);
    const bool agrees = testing::sameEncoding(got, row["expect"]);
    auto& [ok, total] = perCategory[row["category"]];
    ++total;
    if (agrees) ++ok;
    if (row.value("differs", false)) {
      ++differences;
      EXPECT_FALSE(agrees) << expr << " now agrees: remove its \"differs\" mark";
    } else {
      EXPECT_TRUE(agrees) << expr << "\n  expected " << row["expect"].dump() << "\n  got      "
                          << got.dump();
    }
  }
  std::cout << "| category | rows | agree |\n|---|---|---|\n";
  for (const auto& [cat, n] : perCategory)
    std::cout << "| " << cat << " | " << n.second << " | " << n.first << " |\n";
  std::cout << "known differences: " << differences << "\n";
}

}  // namespace
}  // namespace convcheck::cel

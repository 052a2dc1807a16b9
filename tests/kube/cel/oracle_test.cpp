// The evaluator against @bufbuild/cel (npm), an independent implementation that passes
// cel-spec's conformance suite, on every row of convcheck's agreement table: both must give the
// same value or both an error, except where the row uses what only Kubernetes declares (its
// libraries, which @bufbuild/cel does not have).
#include <fstream>
#include <iostream>

#include <gtest/gtest.h>

#include "kube/cel/json_view.h"
#include "kube/cel/program.h"
#include "tests/kube/cel/node_oracle.h"
#include "tests/kube/cel/table_codec.h"

namespace convcheck::cel {
namespace {

// Where @bufbuild/cel differs from cel-go (which Kubernetes runs) and convcheck follows cel-go:
// MinInt64 % -1 (an overflow), the global matches(s, re), split(sep, n) (Go's SplitN),
// has() on a field holding null (the key is present), double('x') (an error), the text of a
// timestamp (RFC3339Nano), 9223372036854775808 (out of range). Where convcheck differs: IANA time
// zone names (it reads none).
constexpr int kOracleDifferences = 8;

using nlohmann::json;

TEST(CelOracle, TheTableEvaluatesAsBufbuildCelEvaluatesIt) {
  const std::string tablePath = CEL_TEST_DIR "/agreement_table.json";
  auto oracle = testing::runOracle("evaluate.js", tablePath);
  if (!oracle || oracle->is_discarded())
    GTEST_SKIP() << "node or @bufbuild/cel missing (ci/install-deps.sh)";
  std::ifstream in(tablePath);
  const json table = json::parse(in);
  const json& x = table["bindings"]["x"];
  int same = 0, kubernetesOnly = 0, differ = 0;
  for (std::size_t i = 0; i < table["rows"].size(); ++i) {
    const auto& row = table["rows"][i];
    json mine = "error";
    auto p = Program::compile(row["expr"].get<std::string>(), {"x"});
    if (auto* prog = std::get_if<Program>(&p))
      mine = testing::encode(prog->evaluate({jsonValue(x, nullptr)}));
    const json& theirs = (*oracle)[i];
    if (testing::sameEncoding(mine, theirs)) {
      ++same;
    } else if (row["category"] == "Kubernetes libraries" || row.value("extension", false)) {
      ++kubernetesOnly;
    } else {
      ++differ;
      std::cout << "  differs: " << row["expr"].get<std::string>() << " convcheck " << mine.dump()
                << " @bufbuild/cel " << theirs.dump() << "\n";
    }
  }
  std::cout << "same " << same << ", Kubernetes-only " << kubernetesOnly << ", different " << differ
            << " of " << table["rows"].size() << "\n";
  EXPECT_LE(differ, kOracleDifferences);
}

}  // namespace
}  // namespace convcheck::cel

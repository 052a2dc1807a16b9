// Reading a run's results.json (format 3) back into a RunReport and the bundles it names: what
// `convcheck merge` joins. Problems keep their example's words, objects, expected and got, but not
// its exchanges (the example's bundle has them).
#pragma once

#include <string>
#include <variant>

#include "reports/run_report.h"
#include "reports/written_bundles.h"

namespace convcheck {

struct ResultsFile {
  std::string path;
  RunReport report;
  // Each problem's bundle: its directory beside the results file (DIR/bundles/NAME) when there is
  // one, else the path the run recorded.
  WrittenBundles bundles;
};

// Errors name the file and, for a missing or mistyped field, the field.
std::variant<ResultsFile, std::string> readResultsFile(const std::string& path);

}  // namespace convcheck

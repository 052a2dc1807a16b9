// The --corpus directory: user samples in DIR/samples/ (read), shrunk failures in
// DIR/regressions/<crd name>/ (written after a run, read first on the next). The layout and the
// file format are stable and documented in the README ("On-disk formats").
// Used by the runner (load) and the CLI (save after a run).
#pragma once

#include <string>
#include <vector>

#include "harness/corpus/regression_case.h"
#include "harness/corpus/sample_objects.h"
#include "kube/crd/crd.h"

namespace convcheck {

struct StoredRegression {
  std::string file;  // path relative to the corpus dir: "regressions/<crd>/<name>.json"
  RegressionCase regression;
};

struct StoredSample {
  std::string where;    // "samples/x.yaml, document 2"
  std::string version;  // from its apiVersion
  nlohmann::json object;
};

struct CorpusContents {
  std::vector<StoredRegression> regressions;  // of this CRD, sorted by file name
  std::vector<StoredSample> samples;          // of this CRD's group and kind, in file order
  std::vector<std::string> notes;             // unreadable or foreign files, skipped entries
};

class CorpusStore {
 public:
  explicit CorpusStore(std::string dir) : dir_(std::move(dir)) {}

  const std::string& dir() const { return dir_; }

  // Reads what the corpus holds for `crd`. A missing directory is an empty corpus. Never throws.
  CorpusContents load(const Crd& crd) const;

  // Writes `c` as DIR/regressions/<crd>/<regressionFileName(c)>, atomically. Returns the path
  // relative to the corpus dir, and sets `created` to false when that file already existed.
  // Errors come back as a message starting with "error: ".
  std::string save(const RegressionCase& c, bool* created = nullptr) const;

 private:
  std::string dir_;
};

}  // namespace convcheck

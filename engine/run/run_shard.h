// Which of a run's (kind, version pair)s one shard runs (--shard I/N): the pairs in run order
// (kinds as selected, each kind's pairs as its versions with a schema come) are dealt out, the u-th
// to shard u mod N, so N shards with one seed run every pair's cases once. A kind with fewer than
// two such versions is one unit of its own. Used by the runner.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "kube/crd/crd.h"

namespace convcheck {

class RunShard {
 public:
  // `index` is 0-based: shard index + 1 of `count`.
  RunShard(const std::vector<const Crd*>& crds, int index, int count);

  // Whether this shard runs anything of `crd` (one of those it was made with).
  bool runsKind(const Crd& crd) const;
  // Whether it runs the cases of (from, to) of `crd`; stored and corpus cases of a pair that is
  // none of the kind's go with its first pair.
  bool runsPair(const Crd& crd, const std::string& from, const std::string& to) const;
  int kindsRun() const;
  int units() const { return units_; }  // of the whole run
  int unitsRun() const;                 // of this shard

 private:
  struct Kind {
    std::string name;
    std::vector<std::pair<std::string, std::string>> pairs;  // in run order
    int first = 0;                                           // the run's index of its first unit
    int units() const { return pairs.empty() ? 1 : static_cast<int>(pairs.size()); }
  };
  const Kind* find(const Crd& crd) const;
  bool owns(int unit) const { return unit % count_ == index_; }

  std::vector<Kind> kinds_;
  int index_ = 0;
  int count_ = 1;
  int units_ = 0;
};

}  // namespace convcheck

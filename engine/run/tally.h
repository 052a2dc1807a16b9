// Collects property outcomes, the problems they show (one per defect, whatever the properties and
// version pairs it breaks) and latencies of one kind into its KindReport.
// Used by the runner only; the report it fills is read by reports/.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "kube/crd/version_roles.h"
#include "properties/checks/check_result.h"
#include "reports/run_report.h"

namespace convcheck {

class Tally {
 public:
  // `selected` empty = every property; `reach` says which version pairs' findings only warn.
  Tally(std::vector<std::string> selected, ConversionReach reach);

  bool wants(const std::string& property) const;
  // Counts the result; a failure counts once for the pair, once for each of its causes, and once
  // at its (property, pair) for each problem it shows (Cause::problem); it becomes the example of
  // every cause not seen before on the pair and of every problem not seen before.
  void add(const CheckResult& result, const std::string& from, const std::string& to);
  // Whether a failure of `property` on (from, to) with these causes adds no cause to the tally:
  // every one was seen before (and so has its example, or is only counted).
  bool knows(const std::string& property, const std::string& from, const std::string& to,
             const std::vector<Cause>& causes) const;
  // Replaces the example of a cause (by the shrunk one).
  void setExample(const std::string& property, const std::string& from, const std::string& to,
                  const std::string& causeKey, Finding example);
  // Replaces the example of a problem (by the shrunk one), with its title in the example's words.
  void setProblemExample(const std::string& problem, Finding example);
  // What the problem's shrunk counterexample shows when every property judges it: the problems
  // (identities) of that case. Two problems whose shrunk counterexamples show each other are one
  // defect seen from two sides (a field lost and the same field missing where it is required; four
  // fields of one list item dropped by one line): fill() reports them as one problem with several
  // symptoms; a cosmetic one is never folded with one that is not. A problem without a shrunk
  // counterexample is never folded.
  void setProblemWitness(const std::string& problem, std::vector<std::string> shows);
  void addAll(const std::vector<CheckResult>& results, const std::string& from,
              const std::string& to);
  void latency(const std::string& from, const std::string& to, std::size_t batchSize,
               double milliseconds);
  // Writes tallies (catalogue order, then from/to), problems (most severe first, then most cases,
  // then first found; ids P1, P2, ... in that order) and latency percentiles into `report`.
  // Moves the examples into it (they can be large): call once, at the end.
  void fill(KindReport& report);

 private:
  using Key = std::tuple<std::size_t, std::string, std::string>;  // catalogue index, from, to
  std::vector<std::string> selected_;
  ConversionReach reach_;
  struct CauseEntry {
    Cause cause;
    int cases = 0;
    Finding example;
  };
  struct ProblemEntry {
    Cause cause;               // the most severe cause that showed it; its title names the problem
    std::map<Key, int> sites;  // failing cases per (property, pair)
    Finding example;           // the first failure that showed it
    std::size_t found = 0;     // the order problems were first seen in
    std::vector<std::string> witnessed = {};  // setProblemWitness
    int losses = 0, zeroLosses = 0;           // its causes' sightings, and those of zeros lost
    std::vector<std::string> symptomKeys = {}, symptoms = {};  // folded into it
  };
  void foldDefects();
  static bool losesOnlyZeros(const ProblemEntry& entry);
  // Joins problems whose shrunk examples are the same case (shrunk_case.h), cosmetic ones only
  // with cosmetic ones, and in an edit's case only an item with what is inside it.
  void joinSameShrunkCases(
      const std::function<void(const std::string&, const std::string&)>& join) const;
  // Joins a field the webhook writes invalid (or leaves out where it is required) converting to
  // V with the same field lost or changed on the round trips from V through each version it was
  // written from (their back leg is that conversion, whose output cannot equal the valid object
  // the trip started with), and a field it writes that V's schema lacks (pruned) with the same
  // field lost on the round trips through V from each version it was written from.
  void joinOutputsWithTheirRoundTrips(
      const std::function<void(const std::string&, const std::string&)>& join) const;
  // Joins fields of one parent that fail alike (see tally.cpp); first adds to `apart` the pairs
  // of them some kept failure shows lost by different code (sibling_evidence.h).
  void foldSiblings(const std::function<void(const std::string&, const std::string&)>& join,
                    std::set<std::pair<std::string, std::string>>& apart) const;
  // Every failure kept whole: the problems' examples and those of their causes.
  std::vector<const Finding*> keptFindings() const;
  // Groups of problems that are one defect (setProblemWitness), each group's keys most severe
  // first, then first found.
  std::vector<std::vector<std::string>> defects() const;
  std::map<std::string, ProblemEntry> problems_;
  void addProblems(const Key& key, const Finding& finding, const std::vector<Cause>& causes);
  void fillProblems(KindReport& report);
  std::map<Key, PropertyTally> tallies_;
  std::map<Key, std::vector<CauseEntry>> causes_;  // in the order first seen
  static void keepExampleIfReported(std::vector<CauseEntry>& entries, const Finding& finding);
  std::map<std::tuple<std::string, std::string, std::string>, std::vector<double>> latencies_;
};

std::string batchSizeBucket(std::size_t size);

}  // namespace convcheck

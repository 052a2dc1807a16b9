// Replaying a bundle of a run of two releases (release.json beside bundle.json, written by
// release_bundles) against either release: the bundle's requests go to the release's webhook it
// names, or to the other one, and the answer is judged against what a client read before the
// upgrade (or from the old webhook, for a diff). Used by `convcheck replay`.
#pragma once

#include <iosfwd>
#include <string>

#include "reports/bundle_reader.h"

namespace convcheck {

// Whether the bundle in `dir` is one of two releases.
bool isReleaseBundle(const std::string& dir);

// What the command line chose ("": the bundle's).
struct ReleaseReplayChoice {
  std::string release;  // "old" or "new"
  std::string url, caFile, tlsServerName;
};

// Re-sends the bundle's requests to the chosen release and says whether the failure is still
// there. Exit 0 passes now, 1 still fails, 2 an unreadable bundle or bad choice, 3 unreachable.
int replayReleaseBundle(const Bundle& bundle, const ReleaseReplayChoice& choice, std::ostream& out,
                        std::ostream& err);

}  // namespace convcheck

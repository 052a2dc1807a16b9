#!/usr/bin/env bash
# The test job: set up, build one preset ("default", or "asan" for ASan+UBSan) and run ctest.
#
# The asan pass runs every test except most end-to-end runs (label e2e: the real binary against
# the example webhook, about ten times slower under the sanitizers and, apart from timing, the
# same code paths as the sample it keeps). The sample covers concurrency (jobs and async
# shrinks), signals, replay, minimize, acknowledged causes, one fault per kind of property and
# two shrinks. CONVCHECK_ASAN_E2E=all runs them all.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-default}
bash ci/build.sh "$preset"
if [ "$preset" = asan ] && [ "${CONVCHECK_ASAN_E2E:-sample}" != all ]; then
  sample='^(Faults\.|Runs\.ConcurrentJobs|Runs/Interrupted|Replay\.|Minimize\.'
  sample+='|Acknowledged\.AnOwnedAnnotation|Causes\.TheRealFieldLoss|StoredVersions\.AnUnserved'
  sample+='|ExampleWebhook/FaultIsCaught\..*/(lossy_round_trip_widget|reverse_objects|change_name)( |$)'
  sample+='|ExampleWebhook/ShrunkFault\..*/(stale_stash_widget|drop_field)( |$))'
  ctest --preset "$preset" -j "$(nproc)" --timeout 900 -LE e2e
  ctest --preset "$preset" -j "$(nproc)" --timeout 900 -L e2e -R "$sample"
else
  ctest --preset "$preset" -j "$(nproc)" --timeout 900
fi

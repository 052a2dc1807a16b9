#!/usr/bin/env bash
# The test job: set up, build one preset ("default", or "asan" for ASan+UBSan) and run ctest.
#
# The asan pass runs every test except most end-to-end runs (label e2e: the real binary against
# the example webhook, about ten times slower under the sanitizers and, apart from timing, the
# same code paths as the sample it keeps). The sample covers concurrency (jobs and async
# shrinks), signals, replay, minimize, acknowledged causes, one fault per kind of property and
# two shrinks. CONVCHECK_ASAN_E2E=all runs them all.
#
# The tsan pass (ThreadSanitizer) builds only what runs on several threads and runs its tests
# (label threads: the runner's units and run loop, the transport, shrinking) and an end-to-end
# sample of the binary with --jobs, background shrinks, an interrupt and a bundle replayed, with
# ci/tsan.supp's suppressions (a race in libstdc++'s locale cache that std::regex reaches).
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-default}
if [ "$preset" = tsan ]; then
  bash ci/build.sh tsan run_test transport_test shrink_test integration_test shrink_integration_test
  # The tests and the convcheck they start inherit it: known races inside libstdc++ (ci/tsan.supp).
  export TSAN_OPTIONS="suppressions=$PWD/ci/tsan.supp ${TSAN_OPTIONS:-}"
  sample='^(Runs\.ConcurrentJobs|Runs/Interrupted\..*/SIGINT|Faults\.CorrectWebhook'
  sample+='|ExampleWebhook/FaultIsCaught\..*/reverse_objects( |$)'
  sample+='|ExampleWebhook/ShrunkFault\..*/drop_field( |$))'
  ctest --preset tsan -j "$(nproc)" --timeout 900 -L threads
  ctest --preset tsan -j "$(nproc)" --timeout 900 -L e2e -R "$sample"
  exit 0
fi
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

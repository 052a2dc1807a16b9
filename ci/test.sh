#!/usr/bin/env bash
# The test job: set up, build one preset and run ctest. `bash ci/test.sh [PASS]`:
#
# default  the default suite, then the end-to-end runs and the slow tests, each a step of its own
# fast     the default suite alone (what to run before pushing): every test but those labelled e2e
#          or slow, fast and deterministic (about a minute and a half on two cores)
# e2e      the end-to-end runs but the slow ones (label e2e: the real binary against a real
#          webhook process), on the default build
# slow     the slow tests alone (label slow: searches with a time budget, tests that wait on the
#          clock or sleep before a signal, the packaging runs), on the default build
# asan     ASan+UBSan (clang): every test except three shrink searches and most end-to-end runs
#          (label e2e: the real binary against the example webhook, about ten times slower under
#          the sanitizers and, apart from timing, the same code paths as the sample it keeps). The
#          sample covers concurrency (jobs and async shrinks), signals, replay, minimize,
#          acknowledged causes, one fault per kind of property and two shrinks.
#          CONVCHECK_ASAN_E2E=all runs them all. The end-to-end programs no sample draws from are
#          not built (CONVCHECK_ALL_E2E).
# tsan     ThreadSanitizer (clang): builds only what runs on several threads and runs its tests
#          (label threads: the runner's units and run loop, the transport, shrinking) and an
#          end-to-end sample of the binary with --jobs, background shrinks, an interrupt and a
#          bundle replayed; with ci/tsan.supp's suppressions if that file exists (none does:
#          nothing on a case thread uses std::regex, whose locale cache raced).
# tsan-build  the tsan pass's build alone (.ci/run compiles it while the packaging job runs)
set -euo pipefail
cd "$(dirname "$0")/.."
pass=${1:-default}
jobs=$(nproc)
# ci/install-deps.sh installs chromium: the HTML report's browser test must not skip here.
export CONVCHECK_REQUIRE_CHROMIUM=1
case "$pass" in
  default | fast | e2e | slow)
    bash ci/build.sh default
    if [ "$pass" = default ] || [ "$pass" = fast ]; then
      echo "== the default suite (ctest -LE 'e2e|slow')"
      ctest --preset default -j "$jobs" --timeout 900 -LE 'e2e|slow'
    fi
    if [ "$pass" = default ] || [ "$pass" = e2e ]; then
      echo "== the end-to-end runs (ctest -L e2e -LE slow)"
      ctest --preset default -j "$jobs" --timeout 900 -L e2e -LE slow
    fi
    if [ "$pass" = default ] || [ "$pass" = slow ]; then
      echo "== the slow tests (ctest -L slow)"
      ctest --preset default -j "$jobs" --timeout 900 -L slow
    fi
    ;;
  tsan | tsan-build)
    bash ci/build.sh tsan run_test transport_test shrink_test integration_test shrink_integration_test
    if [ "$pass" = tsan-build ]; then exit 0; fi
    # The tests and the convcheck they start inherit it.
    if [ -f ci/tsan.supp ]; then
      export TSAN_OPTIONS="suppressions=$PWD/ci/tsan.supp ${TSAN_OPTIONS:-}"
    fi
    sample='^(Runs\.ConcurrentJobs|Runs/Interrupted\..*/SIGINT|Faults\.CorrectWebhook'
    sample+='|ExampleWebhook/FaultIsCaught\..*/reverse_objects( |$)'
    sample+='|ExampleWebhook/ShrunkFault\..*/drop_field( |$))'
    ctest --preset tsan -j "$jobs" --timeout 900 -L threads
    ctest --preset tsan -j "$jobs" --timeout 900 -L e2e -R "$sample"
    ;;
  asan)
    if [ "${CONVCHECK_ASAN_E2E:-sample}" = all ]; then
      bash ci/install-deps.sh
      cmake --preset asan -DCONVCHECK_ALL_E2E=ON >/dev/null
      bash ci/build.sh asan
      ctest --preset asan -j "$jobs" --timeout 900
      exit 0
    fi
    bash ci/build.sh asan
    sample='^(Faults\.|Runs\.ConcurrentJobs|Runs/Interrupted|Replay\.|Minimize\.'
    sample+='|Acknowledged\.AnOwnedAnnotation|Causes\.TheRealFieldLoss|StoredVersions\.AnUnserved'
    sample+='|OneDefectOneProblem\.'
    sample+='|ExampleWebhook/FaultIsCaught\..*/(lossy_round_trip_widget|reverse_objects|change_name)( |$)'
    sample+='|ExampleWebhook/ShrunkFault\..*/(stale_stash_widget|drop_field)( |$))'
    # The three shrink searches (Shrink.*, ValidationRulesGeneration.*: about 340 s of CPU under
    # the sanitizers) run in the default build's slow step; the shrinker's and the generators' code
    # runs under the sanitizers in the fast tests of shrinking and in the zoo of real CRDs.
    ctest --preset asan -j "$jobs" --timeout 900 -LE e2e \
      -E '^(Shrink\.EveryShrinkOfAZooObjectIsValid|Shrink\.GreedyShrinkingKeeps|ValidationRulesGeneration\.ShrinksStayInsideTheRules)'
    ctest --preset asan -j "$jobs" --timeout 900 -L e2e -R "$sample"
    ;;
  *)
    echo "usage: ci/test.sh [default|fast|e2e|slow|asan|tsan|tsan-build]" >&2
    exit 2
    ;;
esac

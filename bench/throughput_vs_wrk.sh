#!/usr/bin/env bash
# Is the harness ever the bottleneck? Requests/s of `convcheck run --jobs N` against the example
# webhook (correct, no delay) next to what wrk reaches POSTing one prebuilt ConversionReview of the
# same size (the run's mean objects per request, generated from the same CRD) with the headers
# convcheck sends (Accept-Encoding: gzip: the example webhook then compresses both answers alike)
# at the same concurrency N (wrk -c N). Goals, for N = 1 and N = 8: convcheck >= 0.8x wrk ("goal"),
# and the harness never the bottleneck: convcheck's CPU per request at most half the example
# webhook's own, cc ms/req <= 0.5 x hook ms/req ("cpu goal"). Exit status 1 when a cpu goal is not
# met (2 when the bench itself fails), so the CPU goal is checked by running it.
# Usage: bash bench/throughput_vs_wrk.sh [N...]   (default: 1 8)
# Env: WEBHOOK (example, default, or node: the Node.js CronTab webhook of the integration tests,
# with the CronTab CRD), CRD (default the three-version Widget, or CronTab with node), TESTS
# (cases per pair, default 100), SECONDS_WRK (default 10), SEED (default 1), BUILD_DIR. Installs wrk with apt-get when missing (as root).
# convcheck's rate is requests / wall time of the whole process (CRD loading, generation, judging
# and reports included); wrk's is its own "Requests/sec".
# CPU columns: the harness and the webhook share this machine's cores, so CPU spent judging is CPU
# the webhook does not get. "cc ms/req" is convcheck's user+system CPU per request, "hook ms/req"
# the webhook's during the convcheck run (from /proc). Whatever the overlap, no run beats
# cores / (cc + hook) requests/s, so "ceiling" = that rate / wrk's is the best ratio this machine
# allows at convcheck's present cost, and "cc for 0.8" the CPU per request at which 0.8 would fit.
set -euo pipefail
cd "$(dirname "$0")/.."
webhook=${WEBHOOK:-example}
if [ "$webhook" = node ]; then
  crd=${CRD:-examples/crds/crontabs.stable.example.com.yaml}
else
  crd=${CRD:-examples/crds/widgets.example.convcheck.dev.yaml}
fi
tests=${TESTS:-100}
wrk_seconds=${SECONDS_WRK:-10}
seed=${SEED:-1}
levels=("$@")
[ ${#levels[@]} -gt 0 ] || levels=(1 8)
if ! command -v wrk >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update >/dev/null && apt-get install -y wrk >/dev/null
  else
    echo "wrk is not installed (apt-get install wrk)" >&2
    exit 2
  fi
fi
[ -x /usr/bin/time ] || { echo "GNU time (/usr/bin/time) is needed: apt-get install time" >&2; exit 2; }
cores=$(nproc)
source bench/webhook.sh
bench_setup
if [ "$webhook" = node ]; then start_node_webhook; else start_webhook; fi

# The webhook's user+system CPU so far, in clock ticks.
hook_ticks() { awk '{print $14 + $15}' "/proc/$hook_pid/stat"; }
echo "cores: $cores"
printf '%4s %9s %9s %9s %8s %11s %9s %6s %4s %9s %11s %8s %8s %11s\n' N requests "obj/req" "cc s" \
  "cc req/s" "review B" "wrk req/s" ratio goal "cc ms/req" "hook ms/req" "cpu goal" ceiling \
  "cc for 0.8"
cpu_goal_missed=0
for n in "${levels[@]}"; do
  hook_before=$(hook_ticks)
  start=$(date +%s.%N)
  code=0
  /usr/bin/time -f '%U %S' -o "$work/cpu" "$build/app/convcheck" run --url "$url" \
    --ca-file "$work/pki/ca.pem" --crd "$crd" --seed "$seed" --tests "$tests" --jobs "$n" \
    --json "$work/r.json" >"$work/run.log" 2>&1 || code=$?
  end=$(date +%s.%N)
  hook_after=$(hook_ticks)
  # The Node webhook has findings of its own (float64 numbers): exit 1, with their shrinks counted.
  [ "$code" = 0 ] || { [ "$webhook" = node ] && [ "$code" = 1 ]; } ||
    { echo "convcheck exited $code: $(tail -n 5 "$work/run.log")" >&2; exit 2; }
  # The prebuilt review: the run's mean objects per request, storage version to the first other one.
  python3 - "$work/r.json" "$crd" >"$work/shape" <<'PY'
import json, sys, yaml
k = json.load(open(sys.argv[1]))["kinds"][0]
crd = yaml.safe_load(open(sys.argv[2]))
versions = [v["name"] for v in crd["spec"]["versions"]]
storage = next(v["name"] for v in crd["spec"]["versions"] if v.get("storage"))
target = next(v for v in versions if v != storage)
print(k["requests"], max(1, round(k["objectsSent"] / k["requests"])), storage,
      crd["spec"]["group"] + "/" + target)
PY
  read -r requests per storage desired <"$work/shape"
  "$build/app/convcheck" generate --crd "$crd" --version "$storage" -n "$per" --seed "$seed" \
    >"$work/objects.ndjson"
  python3 - "$work/objects.ndjson" "$desired" >"$work/review.json" <<'PY'
import json, sys
objects = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
print(json.dumps({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
                  "request": {"uid": "0b6cd6f5-5a39-4b8a-9d36-9a2f3c6f1c11",
                              "desiredAPIVersion": sys.argv[2], "objects": objects}},
                 separators=(",", ":")), end="")
PY
  # The prebuilt review must be one the webhook converts.
  curl -sS --cacert "$work/pki/ca.pem" -H 'Content-Type: application/json' \
    --data-binary @"$work/review.json" "$url" | grep -q '"status":"Success"' ||
    { echo "the example webhook did not convert the prebuilt review" >&2; exit 2; }
  cat >"$work/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, */*"
wrk.headers["Accept-Encoding"] = "gzip"
local f = io.open("$work/review.json", "rb")
wrk.body = f:read("*a")
f:close()
LUA
  threads=$((n < 2 ? n : 2))
  wrk -t "$threads" -c "$n" -d "${wrk_seconds}s" -s "$work/post.lua" "$url" >"$work/wrk.log" 2>&1
  wrk_rate=$(sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' "$work/wrk.log")
  [ -n "$wrk_rate" ] || { echo "wrk failed: $(cat "$work/wrk.log")" >&2; exit 2; }
  row=0
  python3 - "$n" "$requests" "$per" "$start" "$end" "$(stat -c %s "$work/review.json")" \
    "$wrk_rate" "$(tail -n 1 "$work/cpu")" "$((hook_after - hook_before))" "$(getconf CLK_TCK)" \
    "$cores" <<'PY' || row=$?
import sys
n, requests, per, start, end, size, wrk, cpu, hook_ticks, tck, cores = sys.argv[1:]
secs = float(end) - float(start)
requests, wrk, cores = int(requests), float(wrk), int(cores)
cc = requests / secs
ratio = cc / wrk
cc_ms = 1000 * sum(float(x) for x in cpu.split()) / requests
hook_ms = 1000 * int(hook_ticks) / int(tck) / requests
ceiling = min(1.0, 1000 * cores / (cc_ms + hook_ms) / wrk)
needed = 1000 * cores / (0.8 * wrk) - hook_ms
cpu_met = cc_ms <= 0.5 * hook_ms
print("%4d %9d %9s %9.1f %8.0f %11s %9.0f %6.2f %4s %9.3f %11.3f %8s %8.2f %11s" % (
    int(n), requests, per, secs, cc, size, wrk, ratio, "yes" if ratio >= 0.8 else "no", cc_ms,
    hook_ms, "yes" if cpu_met else "no", ceiling, "%.3f" % needed if needed > 0 else "none"))
sys.exit(0 if cpu_met else 3)
PY
  case $row in
    0) ;;
    3) cpu_goal_missed=1 ;;
    *) echo "the figures of N=$n could not be computed" >&2; exit 2 ;;
  esac
done
if [ "$cpu_goal_missed" = 1 ]; then
  echo "cpu goal not met: convcheck spends more than half the webhook's CPU per request" >&2
  exit 1
fi

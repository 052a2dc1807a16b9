#!/usr/bin/env bash
# Wall time of a default `convcheck run` (no --tests, --jobs, --batch-size or --duration) of the
# three-version Widget CRD against the example webhook answering every call after DELAY_MS
# milliseconds (default 300, a slow but correct webhook): a default run should stay within 60 s.
# Usage: bash bench/slow_webhook_run.sh   (env: DELAY_MS, SEED, BUILD_DIR, EXTRA: more run flags)
# Prints: delay, exit code, wall seconds, requests, objects sent, the largest batch-size bucket
# (">128": the LIST chunks) and its median latency.
set -euo pipefail
cd "$(dirname "$0")/.."
delay=${DELAY_MS:-300}
seed=${SEED:-1}
source bench/webhook.sh
bench_setup
start_webhook --delay-ms "$delay"
start=$(date +%s.%N)
code=0
# shellcheck disable=SC2086
convcheck_run --crd examples/crds/widgets.example.convcheck.dev.yaml --seed "$seed" \
  --json "$work/r.json" ${EXTRA:-} >/dev/null 2>&1 || code=$?
end=$(date +%s.%N)
stop_webhook
python3 - "$work/r.json" "$delay" "$code" "$start" "$end" <<'PY'
import json, sys
path, delay, code, start, end = sys.argv[1:]
k = json.load(open(path))["kinds"][0]
order = ["1", "2-8", "9-32", "33-128", ">128"]
sizes = {l["batchSizes"] for l in k["latency"]}
largest = max(sizes, key=order.index, default="-")
p50 = max((l["p50Ms"] for l in k["latency"] if l["batchSizes"] == largest), default=0)
print(f'{"delay ms":>8} {"exit":>4} {"seconds":>8} {"requests":>9} {"objects":>8} '
      f'{"largest batches":>16} {"their p50 ms":>12}')
print(f'{delay:>8} {code:>4} {float(end) - float(start):>8.1f} {k["requests"]:>9} '
      f'{k["objectsSent"]:>8} {largest:>16} {p50:>12.0f}')
PY

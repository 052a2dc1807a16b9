#!/usr/bin/env bash
# Wall time of a default `convcheck run` (no --tests, --jobs or --duration) against the bundled
# example webhook answering every call after DELAY_MS milliseconds (default 40, what real webhooks
# take), for each example CRD and each FAULT given (default: the correct webhook).
# Usage: bash bench/default_run.sh [FAULT...]   (env: DELAY_MS, SEED, BUILD_DIR)
# Prints one row per run: CRD, fault, versions, exit code, wall seconds, requests, requests/s.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
delay=${DELAY_MS:-40}
seed=${SEED:-1}
[ -x "$build/harness/convcheck" ] || bash ci/build.sh default >/dev/null
work=$(mktemp -d)
trap 'kill ${pid:-} 2>/dev/null || true; rm -rf "$work"' EXIT
bash ci/make-certs.sh "$work/pki" >/dev/null
faults=("$@")
[ ${#faults[@]} -gt 0 ] || faults=(none)
printf '%-34s %-20s %8s %4s %8s %9s %9s\n' crd fault versions exit seconds requests "req/s"
for fault in "${faults[@]}"; do
  args=(--cert "$work/pki/server.pem" --key "$work/pki/server-key.pem" --port 0 --delay-ms "$delay")
  [ "$fault" = none ] || args+=(--fault "$fault")
  "$build/examples/webhook/example-webhook" "${args[@]}" >"$work/hook.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do grep -q '^listening on ' "$work/hook.log" && break; sleep 0.1; done
  url="$(sed -n 's/^listening on \(https:\/\/[^ ]*\)$/\1/p' "$work/hook.log" | head -n1)/convert"
  for crd in examples/crds/*.yaml; do
    start=$(date +%s.%N)
    code=0
    "$build/harness/convcheck" run --crd "$crd" --url "$url" --ca-file "$work/pki/ca.pem" \
      --seed "$seed" --json "$work/r.json" >/dev/null 2>&1 || code=$?
    end=$(date +%s.%N)
    read -r versions requests < <(python3 -c 'import json,sys
k=json.load(open(sys.argv[1]))["kinds"][0]; print(len(k["versions"]), k["requests"])' "$work/r.json")
    secs=$(python3 -c "print(f'{$end-$start:.1f}')")
    rate=$(python3 -c "print(f'{$requests/($end-$start):.0f}')")
    printf '%-34s %-20s %8s %4s %8s %9s %9s\n' "$(basename "$crd" .yaml)" "$fault" "$versions" \
      "$code" "$secs" "$requests" "$rate"
  done
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
done

# Sourced by the bench scripts: builds convcheck when missing, makes certificates in a scratch
# directory and starts/stops the example webhook (or the Node one) on a free port of 127.0.0.1.
# After bench_setup: $build, $work (removed on exit). After start_webhook ARGS…: $url, $hook_pid.
bench_setup() {
  build=${BUILD_DIR:-build}
  [ -x "$build/app/convcheck" ] || bash ci/build.sh default >/dev/null
  work=$(mktemp -d)
  trap 'stop_webhook; rm -rf "$work"' EXIT
  bash ci/make-certs.sh "$work/pki" >/dev/null
}

# Starts example-webhook with the given extra arguments (--delay-ms, --fault, --identity …).
start_webhook() {
  "$build/examples/webhook/example-webhook" --cert "$work/pki/server.pem" \
    --key "$work/pki/server-key.pem" --port 0 "$@" >"$work/hook.log" 2>&1 &
  hook_pid=$!
  wait_for_listening example-webhook
}

# Starts the Node.js CronTab webhook of the integration tests (tests/webhooks/crontab-webhook.js:
# JSON.parse, an answer per request on the event loop, as many real webhooks are written).
start_node_webhook() {
  command -v node >/dev/null || { echo "node is not installed" >&2; exit 2; }
  node tests/webhooks/crontab-webhook.js --cert "$work/pki/server.pem" \
    --key "$work/pki/server-key.pem" --port 0 "$@" >"$work/hook.log" 2>&1 &
  hook_pid=$!
  wait_for_listening "the Node webhook"
}

# Sets $url from the "listening on https://…" line the started webhook ($1 names it) logs.
wait_for_listening() {
  for _ in $(seq 1 100); do grep -q '^listening on ' "$work/hook.log" && break; sleep 0.1; done
  url="$(sed -n 's/^listening on \(https:\/\/[^ ]*\)$/\1/p' "$work/hook.log" | head -n1)/convert"
  [ "$url" != /convert ] || { echo "$1 did not start: $(cat "$work/hook.log")" >&2; exit 2; }
}

stop_webhook() {
  [ -n "${hook_pid:-}" ] || return 0
  kill "$hook_pid" 2>/dev/null || true
  wait "$hook_pid" 2>/dev/null || true
  hook_pid=
}

# "yes" when round-trip failed in the --json results $1 of a run, else "no".
round_trip_failed() {
  python3 - "$1" <<'PY'
import json, sys
try:
    kinds = json.load(open(sys.argv[1]))["kinds"]
except (OSError, ValueError):
    kinds = []
print("yes" if any(r["property"] == "round-trip" and r["failed"] > 0
                   for k in kinds for r in k["results"]) else "no")
PY
}

# convcheck run against $url with the scratch CA; extra arguments follow.
convcheck_run() {
  "$build/app/convcheck" run --url "$url" --ca-file "$work/pki/ca.pem" "$@"
}

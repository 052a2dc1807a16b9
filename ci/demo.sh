#!/usr/bin/env bash
# The main job: set up, build, start the bundled example webhook over TLS on 127.0.0.1 and run
# convcheck against both example CRDs. Reports go to out/demo/ (JUnit and JSON per CRD).
#
# To run an installed convcheck instead (ci/package.sh does, in a clean Debian root and in the
# container image), set CONVCHECK_BIN and EXAMPLE_WEBHOOK to the binaries: nothing is built then.
# DEMO_OUT: where reports go (default out/demo); DEMO_PKI: a directory with ca.pem, server.pem and
# server-key.pem already made (ci/make-certs.sh; default: made on the spot with the openssl CLI);
# DEMO_ARGS: more `convcheck run` options (e.g. --tests 20).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${CONVCHECK_BIN:-}" ]; then
  bash ci/build.sh default
fi
convcheck=${CONVCHECK_BIN:-build/app/convcheck}
webhook=${EXAMPLE_WEBHOOK:-build/examples/webhook/example-webhook}
out=${DEMO_OUT:-out/demo}
rm -rf "$out" && mkdir -p "$out"
pki=${DEMO_PKI:-$out/pki}
[ -n "${DEMO_PKI:-}" ] || bash ci/make-certs.sh "$pki" >/dev/null
log="$out/webhook.log"
"$webhook" --cert "$pki/server.pem" --key "$pki/server-key.pem" --port 0 >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  grep -q '^listening on ' "$log" && break
  sleep 0.1
done
url="$(sed -n 's/^listening on \(https:\/\/[^ ]*\)$/\1/p' "$log" | head -n1)/convert"
[ "$url" != "/convert" ] || { echo "example webhook did not start; see $log" >&2; exit 3; }
echo "example webhook at $url"
status=0
for crd in examples/crds/*.yaml; do
  name=$(basename "$crd" .yaml)
  echo
  echo "=== convcheck run --crd $crd"
  "$convcheck" run --crd "$crd" --url "$url" --ca-file "$pki/ca.pem" \
    --seed "${SEED:-1}" --report-dir "$out/$name" ${DEMO_ARGS:-} || status=$?
done
echo
echo "reports written to $out/ (junit.xml and results.json per CRD)"
exit $status

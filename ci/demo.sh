#!/usr/bin/env bash
# The main job: set up, build, start the bundled example webhook over TLS on 127.0.0.1 and run
# convcheck against both example CRDs. Reports go to out/demo/ (JUnit and JSON per CRD).
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/build.sh default
out=out/demo
rm -rf "$out" && mkdir -p "$out"
bash ci/make-certs.sh "$out/pki" >/dev/null
log="$out/webhook.log"
build/examples/webhook/example-webhook --cert "$out/pki/server.pem" --key "$out/pki/server-key.pem" \
  --port 0 >"$log" 2>&1 &
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
  build/app/convcheck run --crd "$crd" --url "$url" --ca-file "$out/pki/ca.pem" \
    --seed "${SEED:-1}" --report-dir "$out/$name" || status=$?
done
echo
echo "reports written to $out/ (junit.xml and results.json per CRD)"
exit $status

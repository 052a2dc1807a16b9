#!/usr/bin/env bash
# Problems reported per upgrade fault of the examples and the wall time of each `convcheck
# upgrade`: the first release of the Widget (objects stored in v1alpha1 and v1beta1 before) to the
# correct second release (examples/crds/release2), to it with each fault of `example-webhook
# --release 2 --fault list-upgrade`, and to each CRD of examples/crds/release2/faults; both
# webhooks started by convcheck (--old-webhook-command, --new-webhook-command).
# Usage: bash bench/upgrade_faults.sh   (env: OBJECTS per version, default 25; SEED, default 1;
# BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
objects=${OBJECTS:-25}
seed=${SEED:-1}
build=${BUILD_DIR:-build}
[ -x "$build/app/convcheck" ] || bash ci/build.sh default >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
hook="$PWD/$build/examples/webhook/example-webhook"
tls='--cert {certdir}/tls.crt --key {certdir}/tls.key --port {port}'
release2=examples/crds/release2/widgets.example.convcheck.dev.yaml

# One upgrade: its name, the new CRD, the new webhook's extra flags.
row() {
  local name=$1 crd=$2 flags=$3 start end code=0
  start=$(date +%s.%N)
  "$build/app/convcheck" upgrade --crd examples/crds/widgets.example.convcheck.dev.yaml \
    --new-crd "$crd" --old-webhook-command "$hook $tls" \
    --new-webhook-command "$hook --release 2 $flags $tls" --stored-versions v1alpha1,v1beta1 \
    --objects "$objects" --seed "$seed" --json "$work/results.json" >/dev/null 2>&1 || code=$?
  end=$(date +%s.%N)
  python3 - "$name" "$code" "$start" "$end" "$work/results.json" <<'PY'
import json, sys
name, code, start, end, path = sys.argv[1:]
kind = json.load(open(path))["kinds"][0]
keys = ["%s [%s]" % (p["key"][:70], ",".join(sorted({s["property"] for s in p["sites"]})))
        for p in kind["problems"]]
print("%-30s %4s %8d %8d %7.1f  %s" % (name, code, len(keys), kind["requests"],
                                      float(end) - float(start), "; ".join(keys)))
PY
}

printf '%-30s %4s %8s %8s %7s  %s\n' upgrade exit problems requests seconds "problem keys [steps]"
row correct "$release2" ""
while read -r fault _; do row "$fault" "$release2" "--fault $fault"; done \
  < <("$hook" --fault list-upgrade)
for crd in examples/crds/release2/faults/*.yaml; do row "$(basename "$crd" .yaml)" "$crd" ""; done

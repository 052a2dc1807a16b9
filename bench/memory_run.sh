#!/usr/bin/env bash
# Peak memory of a long run: convcheck against the example webhook in --identity mode (any kind,
# apiVersion rewritten only) on the largest corpus CRD with more than one version, batches of up
# to 100 objects, until OBJECTS objects were sent. Goal: peak RSS <= 150 MB for 100,000 objects.
# Usage: bash bench/memory_run.sh   (env: OBJECTS (default 100000), CRD, JOBS (default 8), SEED,
# BUILD_DIR, EXTRA (more `convcheck run` flags, e.g. "--shrink-budget 0")). Peak RSS is the
# maximum resident set size of the convcheck process (GNU time); the fixed part is that of a run
# with one single-object case per pair (CRD, schemas, generators, validators).
# An identity conversion is not a correct one where the versions' schemas differ, so the run may
# report findings (and shrink them): they are part of what is measured and are printed.
# Then a many-problems case: a default run (500-object LIST chunks, shrinking on) of the Widget
# CRD against the example webhook with eight faults at once (FAULTS to choose others); goal: peak
# RSS <= 300 MB whatever the webhook answers. SKIP_MANY=1 leaves it out.
# Last, a batch bug whose answers grow with the square of the batch: the example webhook's
# leaks-annotations fault (each object gets the annotations of those before it) in a default run
# (500-object LIST chunks); goal: peak RSS <= 300 MB and a run of at most twice testing's time.
set -euo pipefail
cd "$(dirname "$0")/.."
crd=${CRD:-corpora/crds/prometheus-operator/alertmanagerconfigs.monitoring.coreos.com.yaml}
objects=${OBJECTS:-100000}
jobs=${JOBS:-8}
seed=${SEED:-1}
[ -x /usr/bin/time ] || { echo "GNU time (/usr/bin/time) is needed: apt-get install time" >&2; exit 2; }
source bench/webhook.sh
bench_setup
start_webhook --identity

# Objects per test case at batch size 100, from a short run of the same CRD and seed.
convcheck_run --crd "$crd" --seed "$seed" --tests 20 --batch-size 100 --jobs "$jobs" \
  --shrink-budget 0 --json "$work/probe.json" >/dev/null 2>&1 || true
tests=$(python3 - "$work/probe.json" "$objects" <<'PY'
import json, math, sys
k = json.load(open(sys.argv[1]))["kinds"][0]
pairs = len(k["versions"]) * (len(k["versions"]) - 1)
per_test = k["objectsSent"] / (20 * pairs)
print(max(1, math.ceil(int(sys.argv[2]) / (per_test * pairs))))
PY
)
# The fixed part: CRD, schemas, generators and validators, with one case per pair.
/usr/bin/time -f '%M' -o "$work/time.fixed" "$build/app/convcheck" run --url "$url" \
  --ca-file "$work/pki/ca.pem" --crd "$crd" --seed "$seed" --tests 1 --batch-size 1 \
  --jobs 1 --shrink-budget 0 >/dev/null 2>&1 || true
fixed_kb=$(tail -n 1 "$work/time.fixed")
code=0; extra=${EXTRA:-}
/usr/bin/time -f '%M %e' -o "$work/time" "$build/app/convcheck" run --url "$url" \
  --ca-file "$work/pki/ca.pem" --crd "$crd" --seed "$seed" --tests "$tests" --batch-size 100 \
  --jobs "$jobs" $extra --json "$work/r.json" >"$work/run.log" 2>&1 || code=$?
read -r rss_kb secs < <(tail -n 1 "$work/time")  # after "Command exited with …" if any
python3 - "$work/r.json" "$crd" "$tests" "$code" "$rss_kb" "$secs" "$fixed_kb" <<'PY'
import json, sys
path, crd, tests, code, rss_kb, secs, fixed_kb = sys.argv[1:]
k = json.load(open(path))["kinds"][0]
failed = sorted({(r["property"], r["from"], r["to"]) for r in k["results"] if r.get("failed")})
mb = int(rss_kb) / 1024
print("crd            %s" % crd)
print("tests per pair %s, batches up to 100, exit %s" % (tests, code))
print("objects sent   %d in %d requests, %.0f s" % (k["objectsSent"], k["requests"], float(secs)))
print("peak RSS       %.0f MB (goal <= 150 MB: %s)" % (mb, "yes" if mb <= 150 else "no"))
print("of which fixed %.0f MB (peak RSS of one single-object case per pair: CRD, schemas, "
      "generators, validators)" % (int(fixed_kb) / 1024))
print("failed         %s" % (", ".join("%s %s->%s" % f for f in failed) or "none"))
PY

[ "${SKIP_MANY:-0}" != 1 ] || exit 0
stop_webhook
faults=${FAULTS:-drop-field,nondeterministic,unknown-field,stale-stash,truthy-copy,limits-emptied,owned-annotation-loss,lossy-round-trip}
hook_args=()
IFS=, read -r -a chosen <<<"$faults"
for f in "${chosen[@]}"; do hook_args+=(--fault "$f"); done
start_webhook "${hook_args[@]}"
code=0
/usr/bin/time -f '%M %e' -o "$work/time.many" "$build/app/convcheck" run --url "$url" \
  --ca-file "$work/pki/ca.pem" --crd examples/crds/widgets.example.convcheck.dev.yaml \
  --seed "$seed" --json "$work/many.json" >"$work/many.log" 2>&1 || code=$?
read -r rss_kb secs < <(tail -n 1 "$work/time.many")
python3 - "$work/many.json" "$faults" "$code" "$rss_kb" "$secs" <<'PY'
import json, sys
path, faults, code, rss_kb, secs = sys.argv[1:]
k = json.load(open(path))["kinds"][0]
mb = int(rss_kb) / 1024
print()
print("many problems  faults %s, exit %s" % (faults, code))
print("problems       %d; %d objects in %d requests, %.0f s" % (len(k["problems"]),
      k["objectsSent"], k["requests"], float(secs)))
print("peak RSS       %.0f MB (goal <= 300 MB: %s)" % (mb, "yes" if mb <= 300 else "no"))
PY

stop_webhook
start_webhook --fault leaks-annotations
code=0
/usr/bin/time -f '%M %e' -o "$work/time.leak" "$build/app/convcheck" run --url "$url" \
  --ca-file "$work/pki/ca.pem" --crd examples/crds/widgets.example.convcheck.dev.yaml \
  --seed "$seed" --json "$work/leak.json" >"$work/leak.log" 2>&1 || code=$?
read -r rss_kb secs < <(tail -n 1 "$work/time.leak")
python3 - "$work/leak.json" "$code" "$rss_kb" "$secs" <<'PY'
import json, sys
path, code, rss_kb, secs = sys.argv[1:]
k = json.load(open(path))["kinds"][0]
mb = int(rss_kb) / 1024
print()
print("quadratic leak faults leaks-annotations, exit %s" % code)
print("problems       %d; %d objects in %d requests, %.0f s" % (len(k["problems"]),
      k["objectsSent"], k["requests"], float(secs)))
print("peak RSS       %.0f MB (goal <= 300 MB: %s)" % (mb, "yes" if mb <= 300 else "no"))
PY

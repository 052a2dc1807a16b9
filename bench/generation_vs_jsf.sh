#!/usr/bin/env bash
# Valid objects per second of `convcheck generate` against json-schema-faker 0.6.3 on the TOP
# largest CRDs of corpora/crds (goal: convcheck >= 20x json-schema-faker on each).
#
# Usage: bash bench/generation_vs_jsf.sh [N]     N objects per CRD and tool (default 1000)
# Env:   BUILD_DIR (default build; convcheck is built with ci/build.sh default when
#        $BUILD_DIR/app/convcheck is missing), TOP (default 10), JSF_LIMIT (seconds, default
#        120), SCRATCH (default: a new mktemp directory), KEEP=1 keeps the scratch files,
#        JSF_OPTIONS (JSON, json-schema-faker options added to its defaults, e.g.
#        '{"alwaysFakeOptionals":true}' for objects the size of convcheck's: by default
#        json-schema-faker's objects are several times smaller, compare the B/obj columns).
#
# CRDs: the TOP largest by the storage version's openAPIV3Schema node count (as corpora/crds/STATS.md
# counts nodes); only the storage version of each is measured.
# convcheck: `convcheck generate --crd FILE --version V -n N --seed 1`, NDJSON to a file; rate =
# valid objects / wall time of the whole process (CRD loading and generator compilation included).
# json-schema-faker: installed from the npm registry with bench/jsf/package-lock.json into the
# scratch directory; bench/jsf/run.mjs makes one createGeneratorSync({seed: 1}) generator with
# default options and calls generate once per object in one node process, writing NDJSON; rate =
# valid objects / wall time of that whole process (node startup and import included). It stops
# after JSF_LIMIT seconds if N objects take longer (the rate is then over the objects it made; the
# process is killed 60 s after the limit if one generate call never returns).
# Validity: both outputs are checked afterwards, outside the timed processes, by the same
# independent validator: ajv 8 + ajv-formats, strict: false, patterns with their Go RE2 meaning,
# in bench/jsf/run.mjs, whose header lists what it checks and what it ignores (every x-kubernetes-*
# extension and CEL rule, formats ajv-formats does not know, undeclared fields, and the few
# patterns it cannot translate, each named in the output).
# Valid % = valid / objects made. Ratio = convcheck valid/s / json-schema-faker valid/s.
# "cc start s" is the wall time of `convcheck generate -n 1` on the same CRD: the fixed part
# (process start, CRD loading, compiling the generator and the validity guard) that every rate
# above includes. "ceiling" = (N / cc start s) / json-schema-faker valid/s, the ratio convcheck
# would reach if its objects cost nothing beyond that fixed part: a ceiling under 20 means the goal
# cannot be met at this N by faster generation alone.
#
# Prints one row per CRD, then the most frequent validation failures and the validator's notes.
# Exit status: 0 when the measurement ran (whatever the ratios), 1 when json-schema-faker or the
# validator could not be installed (convcheck's rates are still printed, without validity), 2 on
# other setup failures.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000}
build=${BUILD_DIR:-build}
top=${TOP:-10}
limit=${JSF_LIMIT:-120}
if [ -n "${SCRATCH:-}" ]; then
  mkdir -p "$SCRATCH"
  work=$(mktemp -d "$SCRATCH/generation_vs_jsf.XXXXXX")
else
  work=$(mktemp -d)
fi
trap '[ "${KEEP:-0}" = 1 ] && echo "scratch files kept in $work" >&2 || rm -rf "$work"' EXIT

[ -x "$build/app/convcheck" ] || bash ci/build.sh default >/dev/null
convcheck=$build/app/convcheck
[ -x "$convcheck" ] || { echo "no convcheck at $convcheck" >&2; exit 2; }

# json-schema-faker and the validator.
jsf_missing=""
mkdir -p "$work/jsf"
cp bench/jsf/package.json bench/jsf/package-lock.json bench/jsf/run.mjs "$work/jsf/"
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  jsf_missing="node or npm not found"
elif ! timeout 600 npm ci --prefix "$work/jsf" --no-audit --no-fund --loglevel=error \
    >"$work/npm.log" 2>&1; then
  jsf_missing="npm ci failed: $(grep '^npm error' "$work/npm.log" |
    grep -v -E '^npm error +(at |syscall|errno|A complete log)' | head -n 2 |
    sed 's/^npm error //' | paste -sd ' ' | cut -c1-160)"
fi
node_run() { node --max-old-space-size=2048 "$work/jsf/run.mjs" "$@"; }

python3 bench/jsf/schemas.py corpora/crds "$top" "$work/schemas" >"$work/picked.tsv" ||
  { echo "could not read corpora/crds" >&2; exit 2; }

now() { date +%s.%N; }
width=$(awk -F '\t' 'length($1) > w { w = length($1) } END { print (w > 17 ? w : 17) }' "$work/picked.tsv")
printf "%-${width}s %-9s %6s %10s %6s %8s %11s %6s %6s %8s %8s %4s %10s %7s\n" crd version nodes \
  "cc valid/s" "cc %" "cc B/obj" "jsf valid/s" "jsf %" "jsf n" "jsf B/obj" ratio goal "cc start s" \
  ceiling
[ -z "$jsf_missing" ] || printf "%-${width}s %s\n" "json-schema-faker" "not measured: $jsf_missing"
i=0
while IFS=$'\t' read -r file version nodes schema; do
  i=$((i + 1))
  out=$work/out/$i
  mkdir -p "$out"
  # convcheck's fixed part, convcheck, then json-schema-faker; the validation of each runs after
  # its timer stopped.
  start=$(now)
  "$convcheck" generate --crd "corpora/crds/$file" --version "$version" -n 1 --seed 1 \
    >/dev/null 2>&1 || true
  echo "$(now) - $start" >"$out/cc1.time"
  start=$(now)
  cc_code=0
  "$convcheck" generate --crd "corpora/crds/$file" --version "$version" -n "$n" --seed 1 \
    >"$out/cc.ndjson" 2>"$out/cc.err" || cc_code=$?
  echo "$(now) - $start" >"$out/cc.time"
  echo "$cc_code" >"$out/cc.code"
  if [ -z "$jsf_missing" ]; then
    node_run validate "$schema" "$out/cc.ndjson" >"$out/cc.valid.json" 2>"$out/cc.valid.err" || true
    start=$(now)
    jsf_code=0
    timeout -s KILL $((limit + 60)) node --max-old-space-size=2048 "$work/jsf/run.mjs" generate \
      "$schema" "$n" "$limit" "$out/jsf.ndjson" >"$out/jsf.json" 2>"$out/jsf.err" || jsf_code=$?
    echo "$(now) - $start" >"$out/jsf.time"
    echo "$jsf_code" >"$out/jsf.code"
    node_run validate "$schema" "$out/jsf.ndjson" >"$out/jsf.valid.json" 2>"$out/jsf.valid.err" || true
  fi
  python3 - "$out" "$file" "$version" "$nodes" "$width" <<'EOF'
import json, os, sys
out, file, version, nodes, width = sys.argv[1:]
def read(name, default=None):
    path = os.path.join(out, name)
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return default
    with open(path) as f:
        text = f.read()
    try:
        return json.loads(text)
    except ValueError:
        return default
def seconds(tool):
    a, b = open(os.path.join(out, tool + ".time")).read().split(" - ")
    return float(a) - float(b)
def lines(tool):
    with open(os.path.join(out, tool + ".ndjson"), "rb") as f:
        return sum(1 for line in f if line.strip())
def average_bytes(tool):
    path = os.path.join(out, tool + ".ndjson")
    return "%.0f" % (os.path.getsize(path) / max(1, lines(tool))) if os.path.exists(path) else "-"
cells = []
cc_valid = read("cc.valid.json")
cc_code = int(open(os.path.join(out, "cc.code")).read())
cc_made = lines("cc")
cc_rate = None
if cc_code != 0:
    cells += ["exit %d" % cc_code, "-", "-"]
elif cc_valid is None or "compileError" in cc_valid:
    cc_rate = cc_made / seconds("cc")  # objects/s: no validator
    cells += ["%.0f*" % cc_rate, "n/a", average_bytes("cc")]
else:
    cc_rate = cc_valid["valid"] / seconds("cc")
    cells += ["%.0f" % cc_rate, "%.1f" % (100.0 * cc_valid["valid"] / max(1, cc_valid["objects"])),
              average_bytes("cc")]
jsf = read("jsf.json")
jsf_valid = read("jsf.valid.json")
ratio, goal, ceiling = "-", "-", "-"
if not os.path.exists(os.path.join(out, "jsf.code")):
    cells += ["-", "-", "-", "-"]
elif jsf is None:
    cells += ["exit %s" % open(os.path.join(out, "jsf.code")).read().strip(), "-", "-", "-"]
elif jsf_valid is None or "compileError" in jsf_valid:
    cells += ["n/a", "n/a", str(jsf["generated"]), average_bytes("jsf")]
else:
    made = jsf["generated"] + jsf["errors"]
    jsf_rate = jsf_valid["valid"] / seconds("jsf")
    cells += ["%.1f" % jsf_rate, "%.1f" % (100.0 * jsf_valid["valid"] / max(1, made)),
              str(made) + ("+" if jsf["stoppedByLimit"] else ""), average_bytes("jsf")]
    if cc_rate is not None and cc_valid and "compileError" not in cc_valid:
        ratio = "inf" if jsf_rate == 0 else "%.1f" % (cc_rate / jsf_rate)
        goal = "yes" if jsf_rate == 0 or cc_rate >= 20 * jsf_rate else "no"
        ceiling = "inf" if jsf_rate == 0 else "%.1f" % (cc_made / seconds("cc1") / jsf_rate)
print(("%-" + width + "s %-9s %6s %10s %6s %8s %11s %6s %6s %8s %8s %4s %10.3f %7s")
      % (file, version, nodes, *cells, ratio, goal, seconds("cc1"), ceiling), flush=True)
EOF
done <"$work/picked.tsv"

echo
echo "cc = convcheck; * = objects/s, validity not measured; jsf n + = stopped by the ${limit} s limit;"
echo "B/obj = average bytes per object (compact JSON line)."
echo "Validity: ajv 8 + ajv-formats on the openAPIV3Schema, no x-kubernetes-* or CEL checks (bench/jsf/run.mjs)."
[ -z "$jsf_missing" ] || { echo "json-schema-faker: $jsf_missing" >&2; exit 1; }

echo
echo "Most frequent first validation failure per invalid object, and validator notes:"
i=0
while IFS=$'\t' read -r file version _ _; do
  i=$((i + 1))
  python3 - "$work/out/$i" "$file" "$version" <<'EOF'
import json, os, sys
out, file, version = sys.argv[1:]
for tool, name in (("cc", "convcheck"), ("jsf", "json-schema-faker")):
    path = os.path.join(out, tool + ".valid.json")
    try:
        summary = json.load(open(path))
    except (OSError, ValueError):
        summary = {"compileError": (open(os.path.join(out, tool + ".valid.err")).read().strip()
                                    or "validator produced no summary")[-300:]}
    said = []
    if "compileError" in summary:
        said.append("ajv could not compile the schema: " + summary["compileError"])
    for f in summary.get("failures", []):
        ex = f["example"]
        said.append("%d x %s: %s (e.g. line %d, %s)" % (f["count"], f["schemaPath"], f["message"],
                                                       ex["line"], ex["instancePath"] or "/"))
    if tool == "jsf":
        gen = {}
        try:
            gen = json.load(open(os.path.join(out, "jsf.json")))
        except (OSError, ValueError):
            code = open(os.path.join(out, "jsf.code")).read().strip()
            said.append("json-schema-faker exited with %s: %s" % (code, open(os.path.join(out, "jsf.err")).read()[-300:].strip()))
        if gen.get("errors"):
            said.append("%d generate calls threw, first: %s" % (gen["errors"], gen["firstError"]))
    else:
        code = open(os.path.join(out, "cc.code")).read().strip()
        if code != "0":
            said.append("convcheck exited with %s: %s" % (code, open(os.path.join(out, "cc.err")).read()[-300:].strip()))
    if said:
        print("%s %s, %s:" % (file, version, name))
        for s in said:
            print("  " + s)
notes = set()
for tool in ("cc", "jsf"):
    try:
        notes.update(json.load(open(os.path.join(out, tool + ".valid.json"))).get("notes", []))
    except (OSError, ValueError):
        pass
if notes:
    print("%s %s, validator notes:" % (file, version))
    for note in sorted(notes):
        print("  " + note)
EOF
done <"$work/picked.tsv"

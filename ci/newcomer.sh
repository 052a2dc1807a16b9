#!/usr/bin/env bash
# A newcomer's path, on a bare Debian 11 (glibc 2.31: the minbase root ci/package.sh made with
# mmdebstrap), as docs/install.md and README.md tell it, each step checked:
#   1. curl from Debian, then convcheck from the release tarball (ci/install-convcheck.sh);
#   2. certificates for a webhook (convcheck certs);
#   3. convcheck run -- COMMAND: convcheck starts the webhook (the example webhook; exit 0);
#   4. the same webhook with a planted bug: exit 1 and a bundle;
#   5. the bundle replayed with -- COMMAND, as its curl.sh says: convcheck starts the buggy
#      webhook again (still fails: exit 1), then the fixed one (exit 0);
#   6. the GitHub Action's steps (read from action.yml, its inputs filled in) run in bash: the
#      install step downloads the release for the version input, the convcheck step tests the
#      webhook; outputs, PATH and job summary as the runner keeps them.
# GitHub cannot be reached here: the release download is a loopback HTTP server with the tarball
# and its .sha256 laid out as GitHub serves release assets (BASE/vVERSION/FILE).
#
# Runs after ci/package.sh (the same BUILD_DIR), whose tarball, portable example webhook and cached
# Debian 11 root it uses. Needs root (chroot) and python3 with PyYAML (the test dependencies).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" -ne 0 ]; then exec sudo -E bash "$0" "$@"; fi
started=$SECONDS
step() { echo "=== newcomer [$((SECONDS - started))s] $*"; }
. ci/roots.sh

build=$(cd "${BUILD_DIR:-build}" && pwd)
tarball=$(ls "$build"/package/dist/convcheck-*-Linux-x86_64.tar.gz)
root_tar=$build/package-cache/debian-11.tar
[ -s "$tarball" ] && [ -s "$tarball.sha256" ] && [ -s "$root_tar" ] \
  || { echo "newcomer.sh: run ci/package.sh first (no tarball or Debian 11 root in $build)" >&2; exit 2; }
name=$(basename "$tarball" .tar.gz)
version=${name#convcheck-}
version=${version%-Linux-x86_64}
work=$build/newcomer
root=$work/root-debian-11
unmount_roots "$work"
rm -rf "$work" && mkdir -p "$work/releases/download/v$version"
trap 'unmount_roots "$work"; [ -z "${server:-}" ] || kill "$server" 2>/dev/null || true' EXIT

step "the release download's stand-in on 127.0.0.1"
cp "$tarball" "$tarball.sha256" "$work/releases/download/v$version/"
python3 - "$work/releases" "$work/port" <<'EOF' &
import functools, http.server, sys
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
open(sys.argv[2], "w").write(str(server.server_address[1]))
server.serve_forever()
EOF
server=$!
for _ in $(seq 1 50); do [ -s "$work/port" ] && break; sleep 0.1; done
base=http://127.0.0.1:$(cat "$work/port")/download

step "a bare Debian 11 root"
unpack_root "$root_tar" "$root"
home=$root/home/newcomer
mkdir -p "$home/action/ci"
cp examples/crds/widgets.example.convcheck.dev.yaml "$home/crd.yaml"
cp "$build/portable/example-webhook-portable" "$home/webhook"  # "their" webhook
cp ci/install-convcheck.sh "$home/"
# The Action's checkout ($GITHUB_ACTION_PATH): what its steps run.
cp action.yml "$home/action/"
cp ci/install-convcheck.sh ci/convcheck-ci.sh "$home/action/ci/"

# The Action's steps as bash: each step's env (inputs filled in) and run line, in order; the
# cache steps (fuzz mode only) are left out as action.yml's `if:` does in run mode.
python3 - "$home/action/action.yml" "$home/action-steps.sh" "$version" "$base" <<'EOF'
import re, shlex, sys, yaml
action = yaml.safe_load(open(sys.argv[1]))
inputs = {k: str(v.get("default", "")) for k, v in action["inputs"].items()}
inputs.update({"version": sys.argv[3], "download-base": sys.argv[4], "crd": "crd.yaml",
               "webhook-command": "./webhook --cert {certdir}/tls.crt --key {certdir}/tls.key "
                                  "--port {port}",
               "args": "--seed 1 --tests 20"})
github = {"action_ref": "main", "action_repository": "OWNER/convcheck"}
def expand(text):
    text = re.sub(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}", lambda m: inputs[m.group(1)], text)
    return re.sub(r"\$\{\{\s*github\.(\w+)\s*\}\}", lambda m: github[m.group(1)], text)
out = ["# action.yml's steps in run mode, written by ci/newcomer.sh"]
for step in action["runs"]["steps"]:
    if "uses" in step:
        assert "inputs.mode == 'fuzz'" in step.get("if", ""), step
        continue
    assert step["shell"] == "bash", step
    out.append("# step " + step["id"])
    out.append("(")
    for key, value in step.get("env", {}).items():
        out.append("  export %s=%s" % (key, shlex.quote(expand(str(value)))))
    out.append("  while read -r dir; do PATH=$dir:$PATH; done < \"$GITHUB_PATH\"")
    out.append("  bash --noprofile --norc -eo pipefail -c %s" % shlex.quote(expand(step["run"])))
    out.append(") || exit $?")
open(sys.argv[2], "w").write("\n".join(out) + "\n")
EOF

step "in the Debian 11 root, as a newcomer"
cat >"$home/newcomer.sh" <<'EOF'
set -euo pipefail
cd /home/newcomer
echo "--- $(. /etc/os-release && echo "$PRETTY_NAME"), $(ldd --version | sed -n 1p)"
echo "--- 1. install: curl from Debian, convcheck from the release tarball"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends curl ca-certificates \
  >/dev/null
bin=$(CONVCHECK_DOWNLOAD_BASE=$BASE bash install-convcheck.sh "$VERSION" /opt/convcheck | tail -n 1)
export PATH=$bin:$PATH
convcheck --version

echo "--- 2. certificates"
convcheck certs --service my-webhook --namespace my-system --out pki >cabundle.txt
test -s pki/tls.crt && test -s pki/tls.key && test -s pki/ca.crt && test -s cabundle.txt

echo "--- 3. run -- COMMAND against the webhook"
convcheck run -f crd.yaml --seed 1 --tests 20 --report-dir out/fine -- \
  ./webhook --cert '{certdir}/tls.crt' --key '{certdir}/tls.key' --port '{port}'
test -s out/fine/junit.xml && test -s out/fine/summary.md

echo "--- 4. a planted bug is found"
status=0
convcheck run -f crd.yaml --seed 1 --tests 20 --report-dir out/bug -- \
  ./webhook --fault reverse-objects --cert '{certdir}/tls.crt' --key '{certdir}/tls.key' \
  --port '{port}' >bug.log 2>&1 || status=$?
[ "$status" = 1 ] || { cat bug.log; echo "expected exit 1, got $status" >&2; exit 1; }
bundle=$(find out/bug/bundles -mindepth 1 -maxdepth 1 -type d | sort | sed -n 1p)
test -n "$bundle"
echo "found: $bundle"

echo "--- 5. the bundle replayed"
# The bundle says how: its webhook was started by convcheck, so replay starts it again.
grep -q "convcheck replay .* -- ./webhook" "$bundle/curl.sh"
status=0
convcheck replay "$bundle" -- ./webhook --fault reverse-objects --cert '{certdir}/tls.crt' \
  --key '{certdir}/tls.key' --port '{port}' || status=$?
[ "$status" = 1 ] || { echo "the replay against the buggy webhook gave $status, not 1" >&2; exit 1; }
convcheck replay "$bundle" -- ./webhook --cert '{certdir}/tls.crt' --key '{certdir}/tls.key' \
  --port '{port}'

echo "--- 6. the GitHub Action's steps"
mkdir -p workspace && cd workspace
export GITHUB_OUTPUT=$PWD/../github-output GITHUB_STEP_SUMMARY=$PWD/../step-summary
export GITHUB_PATH=$PWD/../github-path GITHUB_ACTION_PATH=/home/newcomer/action
export GITHUB_WORKSPACE=$PWD RUNNER_TOOL_CACHE=/opt/toolcache GITHUB_SERVER_URL=https://github.invalid
: >"$GITHUB_OUTPUT"; : >"$GITHUB_STEP_SUMMARY"; : >"$GITHUB_PATH"
PATH=/usr/sbin:/usr/bin:/sbin:/bin  # a fresh runner: no convcheck yet
cp ../crd.yaml ../webhook .
bash ../action-steps.sh
grep -qx "exit-code=0" "$GITHUB_OUTPUT"
grep -qx "convcheck=/opt/toolcache/convcheck/$NAME/bin/convcheck" "$GITHUB_OUTPUT"
grep -qx "/opt/toolcache/convcheck/$NAME/bin" "$GITHUB_PATH"
grep -q "convcheck" "$GITHUB_STEP_SUMMARY"
test -s convcheck-report/junit.xml
echo "--- the newcomer's path passed"
EOF
chroot "$root" env BASE="$base" VERSION="$version" NAME="$name" bash /home/newcomer/newcomer.sh \
  >"$work/newcomer.log" 2>&1 || { cat "$work/newcomer.log"; exit 1; }
grep -E '^--- ' "$work/newcomer.log"
remove_root "$root"
step "done"

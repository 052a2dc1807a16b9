#!/usr/bin/env bash
# Runs `convcheck run` (or `convcheck fuzz`) in a CI job from CONVCHECK_* variables; the GitHub
# Action (action.yml) and
# the GitLab CI template (ci/gitlab/convcheck.gitlab-ci.yml) both call it. Installed with convcheck
# as /usr/share/convcheck/convcheck-ci.sh.
#
#   CONVCHECK_CRD              CRD file or directory (required)
#   CONVCHECK_URL              webhook URL (default: the CRD's clientConfig)
#   CONVCHECK_WEBHOOK_COMMAND  command that starts the webhook, given to convcheck after `--`
#                              (split into words as a shell would, not run by a shell)
#   CONVCHECK_CA               CA bundle (PEM) of the serving certificate
#   CONVCHECK_WAIT             with a URL and no command: how long to wait for the webhook to
#                              listen (--wait, e.g. 60s for a CI service still starting)
#   CONVCHECK_DURATION         time budget, e.g. 2m (fuzz: --max-total-time, default 60s)
#   CONVCHECK_ARGS             more `convcheck run` (or fuzz) options (split into words as a
#                              shell would)
#   CONVCHECK_MODE             run (default) or fuzz
#   CONVCHECK_CORPUS           fuzz: the corpus directory, kept between CI runs by the caller's
#                              cache (default: convcheck-corpus)
#   CONVCHECK_REPORT_DIR       report directory (default: convcheck-report)
#   CONVCHECK_BIN              the convcheck binary (default: convcheck on PATH)
#
# Exits with convcheck's exit code. Under GitHub Actions it writes the outputs report-dir,
# exit-code and corpus to $GITHUB_OUTPUT; convcheck writes its Markdown digest to $GITHUB_STEP_SUMMARY, and
# when that file is left unchanged this script adds a short verdict there.
set -uo pipefail

fail() {
  echo "convcheck-ci: $*" >&2
  exit 2
}

# words VAR TEXT: VAR = TEXT split into words with shell quoting (xargs), nothing expanded or run.
words() {
  local -n into=$1
  local problem
  problem=$(printf '%s' "$2" | xargs -r printf '%s\0' 2>&1 >/dev/null) \
    || fail "cannot split into words (${problem#xargs: }): $2"
  mapfile -d '' -t into < <(printf '%s' "$2" | xargs -r printf '%s\0')
}

bin=${CONVCHECK_BIN:-convcheck}
command -v "$bin" >/dev/null \
  || fail "$bin not found: install convcheck (the release tarball, docs/install.md) or set the convcheck input"
[ -n "${CONVCHECK_CRD:-}" ] || fail "no CRD given (the crd input, CONVCHECK_CRD)"
report_dir=${CONVCHECK_REPORT_DIR:-convcheck-report}
mkdir -p "$report_dir" || fail "cannot make the report directory $report_dir"
report_dir=$(cd "$report_dir" && pwd)

mode=${CONVCHECK_MODE:-run}
corpus=""
case $mode in
  run)
    cmd=("$bin" run --crd "$CONVCHECK_CRD" --report-dir "$report_dir")
    [ -z "${CONVCHECK_DURATION:-}" ] || cmd+=(--duration "$CONVCHECK_DURATION")
    ;;
  fuzz)
    corpus=${CONVCHECK_CORPUS:-convcheck-corpus}
    mkdir -p "$corpus" || fail "cannot make the corpus directory $corpus"
    corpus=$(cd "$corpus" && pwd)
    inputs=$(find "$corpus" -type f 2>/dev/null | wc -l)
    echo "convcheck-ci: fuzzing from a corpus of $inputs file(s) in $corpus"
    cmd=("$bin" fuzz --crd "$CONVCHECK_CRD" --report-dir "$report_dir" --corpus "$corpus")
    [ -z "${CONVCHECK_DURATION:-}" ] || cmd+=(--max-total-time "$CONVCHECK_DURATION")
    ;;
  *) fail "unknown mode $mode (run or fuzz)" ;;
esac
[ -z "${CONVCHECK_URL:-}" ] || cmd+=(--url "$CONVCHECK_URL")
[ -z "${CONVCHECK_CA:-}" ] || cmd+=(--ca-file "$CONVCHECK_CA")
[ -z "${CONVCHECK_WAIT:-}" ] || cmd+=(--wait "$CONVCHECK_WAIT")
words extra "${CONVCHECK_ARGS:-}"
cmd+=("${extra[@]}")
words webhook "${CONVCHECK_WEBHOOK_COMMAND:-}"
[ ${#webhook[@]} -eq 0 ] || cmd+=(-- "${webhook[@]}")

summary=${GITHUB_STEP_SUMMARY:-}
summary_size=0
[ -z "$summary" ] || [ ! -f "$summary" ] || summary_size=$(stat -c %s "$summary")

printf 'convcheck-ci:'
printf ' %q' "${cmd[@]}"
echo
"${cmd[@]}"
status=$?

case $mode/$status in
  run/0) verdict="every property held" ;;
  fuzz/0) verdict="no problem found within the time budget" ;;
  fuzz/1) verdict="fuzzing found a problem" ;;
  */1) verdict="a property failed" ;;
  */2) verdict="usage or input error" ;;
  */3) verdict="the webhook could not be tested" ;;
  *) verdict="convcheck ended abnormally" ;;
esac
summary_unchanged() { [ ! -f "$summary" ] || [ "$(stat -c %s "$summary")" -eq "$summary_size" ]; }
if [ -n "$summary" ] && summary_unchanged; then
  files=$(cd "$report_dir" && find . -maxdepth 1 -type f -printf '%P\n' | sort)
  {
    echo "### convcheck: $verdict (exit code $status)"
    echo
    if [ -n "$files" ]; then
      echo "CRD \`$CONVCHECK_CRD\`; reports in \`$report_dir\`:"
      echo
      echo "$files" | sed 's/^/- /'
    else
      echo "CRD \`$CONVCHECK_CRD\`; no reports written (see the log)."
    fi
  } >>"$summary"
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "report-dir=$report_dir"
    echo "exit-code=$status"
    echo "corpus=$corpus"
  } >>"$GITHUB_OUTPUT"
fi
exit $status

#!/usr/bin/env python3
# The CI glue run as CI systems run it: the GitHub Action's steps (read from action.yml, with the
# GITHUB_* files made here), the GitLab template's script and the Kubernetes Job's script (with a
# stand-in kubectl) against the real example webhook over TLS; the Job's RBAC is read-only, it runs
# as the image's non-root user, and kubectl reads the manifest without a cluster.
# Usage: ci_glue_test.py CONVCHECK EXAMPLE_WEBHOOK [unittest names, e.g. GitHubAction]
import base64
import hashlib
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import unittest

import yaml

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CRD = os.path.join(SOURCE, "examples/crds/widgets.example.convcheck.dev.yaml")
CONVCHECK = ""
EXAMPLE_WEBHOOK = ""


class ExampleWebhook:
    """The example webhook over TLS on 127.0.0.1 with certificates made by ci/make-certs.sh."""

    def __init__(self, scratch, faults=()):
        self.pki = os.path.join(scratch, "pki")
        subprocess.run(["bash", os.path.join(SOURCE, "ci/make-certs.sh"), self.pki], check=True,
                       stdout=subprocess.DEVNULL)
        self.ca = os.path.join(self.pki, "ca.pem")
        self.log = open(os.path.join(scratch, "webhook.log"), "w+")
        args = [EXAMPLE_WEBHOOK, "--cert", os.path.join(self.pki, "server.pem"), "--key",
                os.path.join(self.pki, "server-key.pem"), "--port", "0"]
        for fault in faults:
            args += ["--fault", fault]
        self.process = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT)
        self.url = self._wait_for_url()

    def _wait_for_url(self):
        for _ in range(200):
            self.log.seek(0)
            m = re.search(r"^listening on (https://\S+)$", self.log.read(), re.M)
            if m:
                return m.group(1) + "/convert"
            if self.process.poll() is not None:
                break
            subprocess.run(["sleep", "0.05"])
        self.log.seek(0)
        output = self.log.read()
        self.stop()
        raise AssertionError("example webhook did not start: " + output)

    def stop(self):
        self.process.kill()
        self.process.wait()
        self.log.close()


def expand_inputs(text, inputs, github=None):
    """${{ inputs.NAME }} (and ${{ github.NAME }}) replaced by its value, as the runner expands a
    composite step."""
    text = re.sub(r"\$\{\{\s*inputs\.([A-Za-z0-9_-]+)\s*\}\}", lambda m: inputs[m.group(1)], text)
    return re.sub(r"\$\{\{\s*github\.([a-z_]+)\s*\}\}", lambda m: (github or {})[m.group(1)], text)


def step_runs(condition, inputs, failed):
    """Whether a step with this `if:` runs: success() by default, always() whatever came before;
    conditions on inputs with ==, && and ||, as the action's steps use them."""
    if not condition:
        return not failed
    expression = re.sub(r"inputs\.([A-Za-z0-9_-]+)", lambda m: repr(inputs[m.group(1)]),
                        str(condition))
    expression = expression.replace("always()", "True").replace("&&", " and ").replace("||", " or ")
    return eval(expression, {}) and ("always()" in str(condition) or not failed)


class ReleaseServer:
    """A stand-in for GitHub's release downloads (github.com cannot be reached from the tests): a
    loopback HTTP server with BASE/vVERSION/convcheck-VERSION-Linux-x86_64.tar.gz and its .sha256,
    the tarball holding this build's convcheck as the release tarball holds the portable one."""

    def __init__(self, scratch, version="9.9.9", corrupt=False):
        self.root = os.path.join(scratch, "releases")
        name = "convcheck-%s-Linux-x86_64" % version
        release = os.path.join(self.root, "download", "v" + version)
        os.makedirs(release)
        tarball = os.path.join(release, name + ".tar.gz")
        with tarfile.open(tarball, "w:gz") as tar:
            tar.add(CONVCHECK, arcname=name + "/bin/convcheck")
            tar.add(os.path.join(SOURCE, "ci/convcheck-ci.sh"),
                    arcname=name + "/share/convcheck/convcheck-ci.sh")
        with open(tarball, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        if corrupt:
            digest = "0" * 64
        with open(tarball + ".sha256", "w") as f:
            f.write("%s  %s.tar.gz\n" % (digest, name))
        self.requests = []
        root, requests = self.root, self.requests

        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=root, **kwargs)

            def log_message(self, *args):
                requests.append(self.path)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = "http://127.0.0.1:%d/download" % self.server.server_address[1]

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


class GitHubAction(unittest.TestCase):
    """action.yml's steps run with GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and GITHUB_ACTION_PATH."""

    def setUp(self):
        with open(os.path.join(SOURCE, "action.yml")) as f:
            self.action = yaml.safe_load(f)
        self.scratch = tempfile.mkdtemp(prefix="convcheck-action-")
        self.webhook = None

    def tearDown(self):
        if self.webhook:
            self.webhook.stop()
        shutil.rmtree(self.scratch)

    def run_action(self, run_id="1001", action_ref="main", path_has_convcheck=True, **given):
        """Runs every step as the runner would (actions/cache steps against a cache kept in the
        scratch directory; $GITHUB_PATH's lines prepended to PATH for the steps after); returns
        (exit code of the last step run, outputs, summary). The steps' stdout and stderr are in
        self.log. path_has_convcheck=False: the build's convcheck is not on PATH (the install
        step must bring one)."""
        inputs = {name: spec.get("default", "") for name, spec in self.action["inputs"].items()}
        for name, value in given.items():
            name = name.replace("_", "-")
            self.assertIn(name, inputs, "action.yml has no input " + name)
            inputs[name] = value
        for name, spec in self.action["inputs"].items():
            if spec.get("required"):
                self.assertTrue(inputs[name], "required input missing: " + name)
        github = {"run_id": run_id, "run_attempt": "1", "action_ref": action_ref,
                  "action_repository": "convcheck-owner/convcheck"}
        workspace = os.path.join(self.scratch, "workspace")
        os.makedirs(workspace, exist_ok=True)
        output_file = os.path.join(self.scratch, "github_output")
        summary_file = os.path.join(self.scratch, "step_summary")
        path_file = os.path.join(self.scratch, "github_path")
        for path in (output_file, summary_file, path_file):
            open(path, "w").close()
        outputs = {}
        status = None
        failed = False
        self.log = ""
        self.assertEqual(self.action["runs"]["using"], "composite")
        for step in self.action["runs"]["steps"]:
            if not step_runs(step.get("if"), inputs, failed):
                continue
            if "uses" in step:
                self.run_cache_step(step, inputs, github, workspace)
                continue
            self.assertEqual(step["shell"], "bash")
            env = dict(os.environ)
            env.update({k: expand_inputs(str(v), inputs, github)
                        for k, v in step.get("env", {}).items()})
            env.update(GITHUB_OUTPUT=output_file, GITHUB_STEP_SUMMARY=summary_file,
                       GITHUB_ACTION_PATH=SOURCE, GITHUB_WORKSPACE=workspace,
                       GITHUB_PATH=path_file, GITHUB_SERVER_URL="https://github.invalid",
                       RUNNER_TOOL_CACHE=os.path.join(self.scratch, "toolcache"))
            if path_has_convcheck:
                env["PATH"] = os.path.dirname(CONVCHECK) + os.pathsep + env["PATH"]
            with open(path_file) as f:
                added = [line for line in f.read().splitlines() if line]
            env["PATH"] = os.pathsep.join(list(reversed(added)) + [env["PATH"]])
            # The runner runs `bash --noprofile --norc -eo pipefail {0}` on the step's script.
            done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                                   expand_inputs(step["run"], inputs, github)], cwd=workspace,
                                  env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True)
            self.log += done.stdout
            status = done.returncode
            with open(output_file) as f:
                step_outputs = dict(line.split("=", 1) for line in f.read().splitlines())
            for name, value in step_outputs.items():
                outputs[name] = value
            failed = failed or status != 0
        # The action's outputs are its step's outputs, as the runner maps them.
        mapped = {}
        for name, spec in self.action["outputs"].items():
            m = re.fullmatch(r"\$\{\{\s*steps\.convcheck\.outputs\.([a-z-]+)\s*\}\}", spec["value"])
            self.assertTrue(m, "output %s is not a step output" % name)
            mapped[name] = outputs.get(m.group(1))
        with open(summary_file) as f:
            summary = f.read()
        return status, mapped, summary

    def cache_store(self):
        return os.path.join(self.scratch, "actions-cache")

    def run_cache_step(self, step, inputs, github, workspace):
        """actions/cache/restore and /save as the cache service answers them: keys are immutable,
        a restore takes the exact key, else the newest entry starting with a restore key."""
        given = {k: expand_inputs(str(v), inputs, github) for k, v in step.get("with", {}).items()}
        path = os.path.join(workspace, given["path"])
        store = self.cache_store()
        os.makedirs(store, exist_ok=True)
        if step["uses"].startswith("actions/cache/restore@"):
            entries = sorted(os.listdir(store),
                             key=lambda k: os.path.getmtime(os.path.join(store, k)), reverse=True)
            hits = [k for k in entries if k == given["key"]] or \
                [k for k in entries if k.startswith(given.get("restore-keys", "\0"))]
            if hits:
                shutil.copytree(os.path.join(store, hits[0]), path, dirs_exist_ok=True)
        elif step["uses"].startswith("actions/cache/save@"):
            self.assertFalse(os.path.exists(os.path.join(store, given["key"])),
                             "cache keys are immutable: " + given["key"])
            if os.path.isdir(path):
                shutil.copytree(path, os.path.join(store, given["key"]))
        else:
            self.fail("a step uses an action the test does not know: " + step["uses"])

    def serve_release(self, **kwargs):
        server = ReleaseServer(self.scratch, **kwargs)
        self.addCleanup(server.stop)
        return server

    def test_the_version_input_installs_that_release_and_the_run_uses_it(self):
        releases = self.serve_release()
        self.webhook = ExampleWebhook(self.scratch)
        status, outputs, _ = self.run_action(
            path_has_convcheck=False, version="9.9.9", download_base=releases.base, crd=CRD,
            url=self.webhook.url, ca=self.webhook.ca, args="--seed 1 --tests 2")
        self.assertEqual(status, 0, self.log)
        self.assertEqual(outputs["exit-code"], "0")
        installed = os.path.join(self.scratch, "toolcache", "convcheck",
                                 "convcheck-9.9.9-Linux-x86_64", "bin")
        self.assertIn("install-convcheck: convcheck ", self.log)
        self.assertIn(installed, self.log)
        self.assertIn("/download/v9.9.9/convcheck-9.9.9-Linux-x86_64.tar.gz", releases.requests)
        self.assertIn("/download/v9.9.9/convcheck-9.9.9-Linux-x86_64.tar.gz.sha256",
                      releases.requests)
        with open(os.path.join(self.scratch, "github_path")) as f:
            self.assertEqual(f.read().split(), [installed])

    def test_without_a_version_input_the_actions_own_tag_is_installed(self):
        releases = self.serve_release(version="9.9.9")
        status, _, _ = self.run_action(path_has_convcheck=False, action_ref="v9.9.9",
                                       download_base=releases.base, crd="no-such-crd.yaml")
        # Installed, then convcheck itself ran and refused the missing CRD.
        self.assertEqual(status, 2, self.log)
        self.assertIn("convcheck-9.9.9-Linux-x86_64/bin", self.log)
        self.assertIn("no-such-crd.yaml", self.log)

    def test_a_tarball_that_does_not_match_its_checksum_is_not_installed(self):
        releases = self.serve_release(corrupt=True)
        status, outputs, _ = self.run_action(path_has_convcheck=False, version="v9.9.9",
                                             download_base=releases.base, crd=CRD)
        self.assertEqual(status, 2, self.log)
        self.assertIn("does not match its .sha256", self.log)
        self.assertIsNone(outputs["exit-code"], "convcheck ran after a failed install")
        self.assertFalse(os.path.exists(os.path.join(self.scratch, "toolcache", "convcheck",
                                                     "convcheck-9.9.9-Linux-x86_64")))

    def test_a_release_that_does_not_exist_is_an_error_naming_its_url(self):
        releases = self.serve_release(version="9.9.9")
        status, _, _ = self.run_action(path_has_convcheck=False, version="1.2.3",
                                       download_base=releases.base, crd=CRD)
        self.assertEqual(status, 2, self.log)
        self.assertIn("cannot download " + releases.base +
                      "/v1.2.3/convcheck-1.2.3-Linux-x86_64.tar.gz", self.log)

    def test_a_conforming_webhook_gives_exit_code_0_the_report_dir_and_a_summary(self):
        self.webhook = ExampleWebhook(self.scratch)
        status, outputs, summary = self.run_action(
            crd=CRD, url=self.webhook.url, ca=self.webhook.ca, duration="20s",
            args="--seed 1 --tests 5")
        self.assertEqual(status, 0)
        self.assertEqual(outputs["exit-code"], "0")
        report_dir = outputs["report-dir"]
        self.assertEqual(report_dir, os.path.join(self.scratch, "workspace", "convcheck-report"))
        self.assertTrue(os.path.isfile(os.path.join(report_dir, "junit.xml")))
        self.assertTrue(os.path.isfile(os.path.join(report_dir, "results.json")))
        self.assertIn("convcheck", summary)
        self.assertRegex(summary, r"every property held|held")

    def test_a_failing_property_fails_the_step_with_exit_code_1_and_still_gives_outputs(self):
        self.webhook = ExampleWebhook(self.scratch, faults=["reverse-objects"])
        status, outputs, summary = self.run_action(
            crd=CRD, url=self.webhook.url, ca=self.webhook.ca, args="--seed 1 --tests 5",
            report_dir="reports/convcheck")
        self.assertEqual(status, 1)
        self.assertEqual(outputs["exit-code"], "1")
        self.assertTrue(outputs["report-dir"].endswith("/workspace/reports/convcheck"))
        self.assertTrue(os.path.isfile(os.path.join(outputs["report-dir"], "junit.xml")))
        self.assertRegex(summary, r"fail")

    def test_a_missing_crd_file_is_an_input_error_with_exit_code_2(self):
        status, outputs, summary = self.run_action(crd="no-such-crd.yaml", url="https://127.0.0.1:1/convert")
        self.assertEqual(status, 2)
        self.assertEqual(outputs["exit-code"], "2")
        self.assertIn("exit code 2", summary)

    def test_the_webhook_command_and_args_are_split_into_words_and_follow_a_double_dash(self):
        recorder = os.path.join(self.scratch, "record-argv")
        argv_file = os.path.join(self.scratch, "argv")
        with open(recorder, "w") as f:
            f.write("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > " + argv_file + "\n")
        os.chmod(recorder, 0o755)
        status, outputs, _ = self.run_action(
            crd="crd.yaml", webhook_command="./bin/webhook --cert-dir 'test data/pki' --port 9443",
            args='--seed 7 --properties "round-trip,order"', convcheck=recorder)
        self.assertEqual(status, 0)
        with open(argv_file) as f:
            argv = f.read().splitlines()
        self.assertEqual(argv[:3], ["run", "--crd", "crd.yaml"])
        self.assertEqual(argv[argv.index("--seed"):argv.index("--")],
                         ["--seed", "7", "--properties", "round-trip,order"])
        self.assertEqual(argv[argv.index("--") + 1:],
                         ["./bin/webhook", "--cert-dir", "test data/pki", "--port", "9443"])
        self.assertNotIn("--url", argv)

    def test_unbalanced_quotes_in_args_are_an_input_error_naming_them(self):
        status, outputs, _ = self.run_action(crd=CRD, args="--seed '1")
        self.assertEqual(status, 2)

    def test_run_mode_neither_restores_nor_saves_a_corpus(self):
        self.webhook = ExampleWebhook(self.scratch)
        status, outputs, _ = self.run_action(crd=CRD, url=self.webhook.url, ca=self.webhook.ca,
                                             args="--seed 1 --tests 2")
        self.assertEqual(status, 0, self.log)
        self.assertEqual(outputs["corpus"], "")
        self.assertFalse(os.path.isdir(self.cache_store()) and os.listdir(self.cache_store()))

    def test_fuzz_mode_saves_the_corpus_and_the_next_ci_run_continues_from_it(self):
        self.webhook = ExampleWebhook(self.scratch)
        status, outputs, summary = self.run_action(
            crd=CRD, url=self.webhook.url, ca=self.webhook.ca, mode="fuzz", duration="3s",
            args="--seed 1", run_id="2001")
        self.assertEqual(status, 0, self.log)
        self.assertEqual(outputs["exit-code"], "0")
        self.assertEqual(outputs["corpus"], os.path.join(self.scratch, "workspace", "convcheck-corpus"))
        self.assertIn("fuzzing from a corpus of 0 file(s)", self.log)
        self.assertIn("convcheck", summary)
        saved = os.path.join(self.cache_store(), "convcheck-corpus-2001-1")
        self.assertTrue(os.path.isdir(os.path.join(saved, "fuzz")), self.log)
        kept = len(os.listdir(os.path.join(saved, "fuzz")))
        self.assertGreater(kept, 0)
        # A fresh runner: the workspace is gone, the cache restores the corpus.
        shutil.rmtree(os.path.join(self.scratch, "workspace"))
        status, outputs, _ = self.run_action(
            crd=CRD, url=self.webhook.url, ca=self.webhook.ca, mode="fuzz", duration="2s",
            run_id="2002")
        self.assertEqual(status, 0, self.log)
        self.assertRegex(self.log, r"fuzzing from a corpus of [1-9]\d* file\(s\)")
        self.assertRegex(self.log, r"fuzz: starting from [1-9]\d* input\(s\) in")
        self.assertTrue(os.path.isdir(os.path.join(self.cache_store(), "convcheck-corpus-2002-1")))

    def test_fuzz_mode_fails_the_step_on_a_problem_and_still_saves_the_corpus(self):
        self.webhook = ExampleWebhook(self.scratch, faults=["uid-not-echoed"])
        status, outputs, summary = self.run_action(
            crd=CRD, url=self.webhook.url, ca=self.webhook.ca, mode="fuzz", duration="2s",
            args="--seed 1 --shrink-budget 10", run_id="3001")
        self.assertEqual(status, 1, self.log)
        self.assertEqual(outputs["exit-code"], "1")
        self.assertIn("P1", summary)
        report_dir = outputs["report-dir"]
        self.assertTrue(os.path.isfile(os.path.join(report_dir, "junit.xml")))
        self.assertTrue(os.listdir(os.path.join(report_dir, "bundles")))
        saved = os.path.join(self.cache_store(), "convcheck-corpus-3001-1")
        self.assertTrue(os.listdir(os.path.join(saved, "regressions")), self.log)


def gitlab_job(name):
    """A job of the GitLab template with its `extends:` merged in, as GitLab merges them (hashes
    deeply, everything else replaced)."""
    with open(os.path.join(SOURCE, "ci/gitlab/convcheck.gitlab-ci.yml")) as f:
        jobs = yaml.safe_load(f)

    def merge(base, over):
        out = dict(base)
        for key, value in over.items():
            out[key] = merge(out[key], value) if isinstance(value, dict) and \
                isinstance(out.get(key), dict) else value
        return out

    job = jobs[name]
    while "extends" in job:
        parent = jobs[job["extends"]]
        job = merge(parent, {k: v for k, v in job.items() if k != "extends"})
    return job


def run_gitlab_job(job, cwd, variables, path_has_convcheck=True):
    """before_script and script in one shell, as a GitLab runner runs them (bash, -e -o pipefail),
    with the job's variables under the given ones; /usr/share/convcheck/convcheck-ci.sh (the
    image's) is this tree's. Returns (exit code, output, the variables used)."""
    merged = {k: str(v) for k, v in job["variables"].items()}
    merged.update(variables)
    env = dict(os.environ)
    env.update(merged)
    if path_has_convcheck:
        env["PATH"] = os.path.dirname(CONVCHECK) + os.pathsep + env["PATH"]
    lines = job.get("before_script", []) + job["script"]
    script = "\n".join(line.replace("/usr/share/convcheck/convcheck-ci.sh",
                                    os.path.join(SOURCE, "ci/convcheck-ci.sh")) for line in lines)
    done = subprocess.run(["bash", "-eo", "pipefail", "-c", script], cwd=cwd, env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return done.returncode, done.stdout, merged


class GitLabTemplate(unittest.TestCase):
    """.convcheck: the release tarball installed in the webhook's own image (here: this machine,
    the release download a loopback stand-in), convcheck starting the webhook (-- COMMAND)."""

    def setUp(self):
        self.job = gitlab_job(".convcheck")
        self.scratch = tempfile.mkdtemp(prefix="convcheck-gitlab-")
        self.releases = ReleaseServer(self.scratch)

    def tearDown(self):
        self.releases.stop()
        shutil.rmtree(self.scratch)

    def test_the_job_installs_the_tarball_starts_the_webhook_and_keeps_the_junit_report(self):
        self.assertNotIn("image", self.job, "the job runs in the user's (the webhook's) image")
        project = os.path.join(self.scratch, "project")
        os.makedirs(project)
        pki = os.path.join(self.scratch, "pki")
        status, log, variables = run_gitlab_job(self.job, project, {
            "CONVCHECK_VERSION": "9.9.9", "CONVCHECK_DOWNLOAD_BASE": self.releases.base,
            "CONVCHECK_CRD": CRD, "CONVCHECK_ARGS": "--seed 1 --tests 5",
            "CONVCHECK_WEBHOOK_COMMAND": EXAMPLE_WEBHOOK +
            " --cert {certdir}/tls.crt --key {certdir}/tls.key --port {port}"},
            path_has_convcheck=False)
        self.assertEqual(status, 0, log)
        self.assertIn("convcheck-9.9.9-Linux-x86_64.tar.gz: OK", log)
        # The build's convcheck is not on PATH: the one that ran is the tarball's.
        self.assertTrue(os.path.isfile(os.path.join(
            project, ".convcheck/convcheck-9.9.9-Linux-x86_64/bin/convcheck")), log)
        self.assertRegex(log, r"(?m)^convcheck-ci: convcheck run ")
        expand = lambda s: re.sub(r"\$\{(\w+)\}", lambda m: variables[m.group(1)], s)
        junit = os.path.join(project, expand(self.job["artifacts"]["reports"]["junit"]))
        self.assertTrue(os.path.isfile(junit), log)
        with open(junit) as f:
            self.assertIn("<testsuite", f.read())
        self.assertEqual(self.job["artifacts"]["when"], "always")
        for path in self.job["artifacts"]["paths"]:
            self.assertTrue(os.path.isdir(os.path.join(project, expand(path))))

    def test_a_tarball_that_does_not_match_its_checksum_fails_the_job_before_convcheck(self):
        releases = ReleaseServer(os.path.join(self.scratch, "bad"), corrupt=True)
        self.addCleanup(releases.stop)
        status, log, _ = run_gitlab_job(self.job, self.scratch, {
            "CONVCHECK_VERSION": "9.9.9", "CONVCHECK_DOWNLOAD_BASE": releases.base,
            "CONVCHECK_CRD": CRD}, path_has_convcheck=False)
        self.assertNotEqual(status, 0, log)
        self.assertIn("FAILED", log)
        self.assertNotIn("convcheck-ci:", log)


class GitLabServiceForm(unittest.TestCase):
    """.convcheck-service: convcheck's image, the webhook a job service it waits for (here the
    example webhook on 127.0.0.1 stands in for the service `webhook`)."""

    def test_the_job_waits_for_the_service_and_tests_it(self):
        job = gitlab_job(".convcheck-service")
        self.assertEqual(job["image"]["entrypoint"], [""])
        self.assertEqual(job["services"][0]["alias"], "webhook")
        self.assertTrue(job["variables"]["CONVCHECK_WAIT"])
        scratch = tempfile.mkdtemp(prefix="convcheck-gitlab-service-")
        webhook = ExampleWebhook(scratch)
        try:
            status, log, _ = run_gitlab_job(job, scratch, {
                "CONVCHECK_CRD": CRD, "CONVCHECK_URL": webhook.url, "CONVCHECK_CA": webhook.ca,
                "CONVCHECK_ARGS": "--seed 1 --tests 5"})
            self.assertEqual(status, 0, log)
            self.assertIn("--wait 60s", log)
            self.assertTrue(os.path.isfile(os.path.join(scratch, "convcheck-report", "junit.xml")))
        finally:
            webhook.stop()
            shutil.rmtree(scratch)


class GitLabFuzzMode(unittest.TestCase):
    """Fuzz mode: the job's cache holds the corpus, which a second pipeline's job starts from."""

    def setUp(self):
        self.job = gitlab_job(".convcheck-service")
        self.scratch = tempfile.mkdtemp(prefix="convcheck-gitlab-fuzz-")
        self.webhook = ExampleWebhook(self.scratch)

    def tearDown(self):
        self.webhook.stop()
        shutil.rmtree(self.scratch)

    def run_job(self):
        status, log, variables = run_gitlab_job(self.job, self.scratch, {
            "CONVCHECK_CRD": CRD, "CONVCHECK_URL": self.webhook.url,
            # The budget covers fuzzing, shrinking and reports: 5 s leave a busy CI machine
            # time to finish a first flight of cases and keep its inputs.
            "CONVCHECK_CA": self.webhook.ca, "CONVCHECK_DURATION": "5s", "CONVCHECK_MODE": "fuzz",
            "CONVCHECK_ARGS": "--seed 1"})
        self.assertEqual(status, 0, log)
        return variables, log

    def test_the_cache_keeps_the_corpus_the_next_job_fuzzes_from(self):
        cache = self.job["cache"]
        self.assertEqual(cache["when"], "always")
        variables, log = self.run_job()
        self.assertIn("fuzzing from a corpus of 0 file(s)", log)
        expand = lambda s: re.sub(r"\$\{(\w+)\}", lambda m: variables[m.group(1)], s)
        cached = [os.path.join(self.scratch, expand(p)) for p in cache["paths"]]
        self.assertEqual(cached, [os.path.join(self.scratch, "convcheck-corpus/")])
        self.assertTrue(os.listdir(os.path.join(cached[0], "fuzz")))
        self.assertTrue(cache["key"].startswith("convcheck-corpus-"))
        # The runner restores the cached paths into the next job's checkout: here, they stay.
        _, log = self.run_job()
        self.assertRegex(log, r"fuzzing from a corpus of [1-9]\d* file\(s\)")


def local_script(container, scratch):
    """The container's script with its volumes' mount paths under `scratch` (made)."""
    volumes = {m["mountPath"]: os.path.join(scratch, m["name"]) for m in container["volumeMounts"]}
    for path in volumes.values():
        os.makedirs(path, exist_ok=True)
    pattern = r"(?<![\w/])(%s)(?=[/\s]|$)" % "|".join(map(re.escape, volumes))
    return re.sub(pattern, lambda m: volumes[m.group(1)], container["args"][0])


class KubernetesJob(unittest.TestCase):
    """examples/kubernetes/convcheck-job.yaml: read-only RBAC, a non-root Job, its script, kubectl."""

    path = os.path.join(SOURCE, "examples/kubernetes/convcheck-job.yaml")

    def setUp(self):
        with open(self.path) as f:
            self.docs = {d["kind"]: d for d in yaml.safe_load_all(f)}

    def test_the_cluster_role_only_reads_crds_and_custom_resources(self):
        rules = self.docs["ClusterRole"]["rules"]
        resources = {r for rule in rules for r in rule["resources"]}
        self.assertIn("customresourcedefinitions", resources)
        self.assertGreater(len(resources), 1, "no custom resources readable")
        for rule in rules:
            self.assertLessEqual(set(rule["verbs"]), {"get", "list"}, rule)
        binding = self.docs["ClusterRoleBinding"]
        self.assertEqual(binding["roleRef"]["name"], self.docs["ClusterRole"]["metadata"]["name"])
        self.assertEqual(binding["subjects"][0]["name"], self.docs["ServiceAccount"]["metadata"]["name"])

    def test_the_job_runs_as_the_images_non_root_user_with_that_service_account(self):
        pod = self.docs["Job"]["spec"]["template"]["spec"]
        self.assertEqual(pod["serviceAccountName"], self.docs["ServiceAccount"]["metadata"]["name"])
        self.assertTrue(pod["securityContext"]["runAsNonRoot"])
        with open(os.path.join(SOURCE, "Containerfile")) as f:
            user = re.search(r"^USER (\d+)", f.read(), re.M).group(1)
        self.assertEqual(str(pod["securityContext"]["runAsUser"]), user)
        container = pod["containers"][0]
        self.assertFalse(container["securityContext"]["allowPrivilegeEscalation"])
        script = container["args"][0]
        self.assertIn("convcheck run", script)
        self.assertIn("kube://", script)
        self.assertIn("--cluster-objects", script)
        self.assertNotIn("kubectl get", script, "convcheck reads the cluster itself")

    def test_the_reports_are_kept_on_a_claim(self):
        pod = self.docs["Job"]["spec"]["template"]["spec"]
        volumes = {v["name"]: v for v in pod["volumes"]}
        mounts = {m["mountPath"]: m["name"] for m in pod["containers"][0]["volumeMounts"]}
        claim = volumes[mounts["/reports"]]["persistentVolumeClaim"]["claimName"]
        self.assertEqual(claim, self.docs["PersistentVolumeClaim"]["metadata"]["name"])

    def test_the_jobs_script_tests_the_webhook_the_crd_names_with_the_clusters_objects(self):
        # The container's script with a stand-in kubectl answering `kubectl get --raw` as the API
        # server would: the CRD (clientConfig pointing at the example webhook, its caBundle) and
        # two stored objects. No API server can be reached here.
        scratch = tempfile.mkdtemp(prefix="convcheck-job-")
        webhook = ExampleWebhook(scratch)
        try:
            with open(CRD) as f:
                crd = yaml.safe_load(f)
            with open(webhook.ca, "rb") as f:
                ca_bundle = base64.b64encode(f.read()).decode()
            crd["spec"]["conversion"]["webhook"]["clientConfig"] = {"url": webhook.url,
                                                                    "caBundle": ca_bundle}
            objects = subprocess.run([CONVCHECK, "generate", "--crd", CRD, "--version", "v1",
                                      "-n", "2"], capture_output=True, text=True, check=True)
            items = [json.loads(line) for line in objects.stdout.splitlines()]
            for i, item in enumerate(items):
                item["metadata"]["name"] = "stored-%d" % i
            with open(os.path.join(scratch, "crd.json"), "w") as f:
                json.dump(crd, f)
            with open(os.path.join(scratch, "items.json"), "w") as f:
                json.dump(items, f)
            bin_dir = os.path.join(scratch, "bin")
            os.makedirs(bin_dir)
            kubectl = os.path.join(bin_dir, "kubectl")
            requests = os.path.join(scratch, "kubectl-requests")
            with open(kubectl, "w") as f:
                f.write("""#!/usr/bin/env python3
import json, sys
args = sys.argv[1:]
with open(%(requests)r, "a") as log:
    log.write(" ".join(args) + "\\n")
if args[:2] != ["get", "--raw"]:
    sys.exit("kubectl stand-in: unexpected " + " ".join(args))
path = args[2].split("?")[0]
crd = json.load(open(%(crd)r))
if path == "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + crd["metadata"]["name"]:
    print(json.dumps(crd))
elif path.startswith("/apis/%%s/" %% crd["spec"]["group"]) and path.endswith("/" + crd["spec"]["names"]["plural"]):
    version = path.split("/")[3]
    items = [i for i in json.load(open(%(items)r)) if i["apiVersion"].endswith("/" + version)]
    print(json.dumps({"apiVersion": "v1", "kind": "List", "metadata": {}, "items": items}))
else:
    sys.exit("kubectl stand-in: no " + path)
""" % {"requests": requests, "crd": os.path.join(scratch, "crd.json"),
                       "items": os.path.join(scratch, "items.json")})
            os.chmod(kubectl, 0o755)
            container = self.docs["Job"]["spec"]["template"]["spec"]["containers"][0]
            env = dict(os.environ)
            env.update({e["name"]: e["value"] for e in container["env"] if "value" in e})
            env["POD_NAME"] = "convcheck-abcde"
            self.assertEqual(env["CRD"], crd["metadata"]["name"])
            env["DURATION"] = "3s"
            env["PATH"] = bin_dir + os.pathsep + os.path.dirname(CONVCHECK) + os.pathsep + env["PATH"]
            script = local_script(container, scratch)
            run = subprocess.run(container["command"] + [script], env=env, capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            # The summary in the log, every report on the claim.
            self.assertIn("## convcheck: 0 problems, every property held", run.stdout)
            kept = os.listdir(os.path.join(scratch, "reports"))
            self.assertEqual(len(kept), 1, kept)
            self.assertTrue(kept[0].endswith("-convcheck-abcde"), kept)
            for report in ("junit.xml", "results.json", "summary.md"):
                self.assertTrue(os.path.isfile(os.path.join(scratch, "reports", kept[0], report)))
            with open(requests) as f:
                asked = f.read()
            self.assertIn("customresourcedefinitions/" + crd["metadata"]["name"], asked)
            self.assertIn("/apis/example.convcheck.dev/v1/widgets", asked)  # --cluster-objects
        finally:
            webhook.stop()
            shutil.rmtree(scratch)

    @unittest.skipUnless(shutil.which("kubectl"), "kubectl not installed")
    def test_kubectl_reads_every_object_without_a_cluster(self):
        # kubectl apply/create --dry-run=client still ask the API server for its resources;
        # --local edits read the file alone.
        out = subprocess.run(["kubectl", "label", "--local", "-f", self.path, "checked=true",
                              "-o", "name"], capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        # kind.group/name per object, e.g. job.batch/convcheck.
        read = sorted(line.split("/")[0].split(".")[0] + "/" + line.split("/")[1]
                      for line in out.stdout.split())
        expected = sorted(d["kind"].lower() + "/" + d["metadata"]["name"] for d in self.docs.values())
        self.assertEqual(read, expected)

class KubernetesIndexedJob(unittest.TestCase):
    """examples/kubernetes/convcheck-indexed-job.yaml: one shard per pod, then one merged verdict."""

    path = os.path.join(SOURCE, "examples/kubernetes/convcheck-indexed-job.yaml")

    def setUp(self):
        with open(self.path) as f:
            self.jobs = {d["metadata"]["name"]: d for d in yaml.safe_load_all(f)}
        self.shards = self.jobs["convcheck-shards"]
        self.merge = self.jobs["convcheck-merge"]

    @staticmethod
    def container(job):
        return job["spec"]["template"]["spec"]["containers"][0]

    @staticmethod
    def env(container):
        return {e["name"]: e["value"] for e in container["env"] if "value" in e}

    def test_every_pod_runs_its_shard_of_one_seed_and_merge_waits_for_them_all(self):
        spec = self.shards["spec"]
        self.assertEqual(spec["completionMode"], "Indexed")
        shard_env = self.env(self.container(self.shards))
        merge_env = self.env(self.container(self.merge))
        self.assertEqual(shard_env["JOB_COMPLETIONS"], str(spec["completions"]))
        self.assertEqual(merge_env["SHARDS"], str(spec["completions"]))
        self.assertEqual(shard_env["RUN"], merge_env["RUN"])
        script = self.container(self.shards)["args"][0]
        self.assertIn('--seed "$RUN"', script)
        self.assertIn("$JOB_COMPLETION_INDEX", script)
        self.assertIn("convcheck merge", self.container(self.merge)["args"][0])

    def test_the_pods_scripts_shard_the_run_and_merge_it_to_the_unsharded_verdict(self):
        # Each pod's script as Kubernetes would run it (JOB_COMPLETION_INDEX set per pod), the
        # claim a scratch directory, then the merge Job's script. No API server can be reached
        # here: the CRD comes from its file and the webhook runs on 127.0.0.1.
        scratch = tempfile.mkdtemp(prefix="convcheck-indexed-job-")
        webhook = ExampleWebhook(scratch, faults=("drop-field",))
        try:
            target = '--crd %s --url %s --ca-file %s' % (CRD, webhook.url, webhook.ca)
            env = dict(os.environ)
            env["PATH"] = os.path.dirname(CONVCHECK) + os.pathsep + env["PATH"]
            shard = self.container(self.shards)
            env.update(self.env(shard))
            env["TESTS"] = "20"
            script = local_script(shard, scratch).replace('--crd "kube://$CRD"', target)
            for index in range(int(env["JOB_COMPLETIONS"])):
                run = subprocess.run(shard["command"] + [script], capture_output=True, text=True,
                                     env=dict(env, JOB_COMPLETION_INDEX=str(index)))
                self.assertEqual(run.returncode, 0, run.stdout + run.stderr)  # problems: 1, merged
            merge = self.container(self.merge)
            env.update(self.env(merge))
            run = subprocess.run(merge["command"] + [local_script(merge, scratch)],
                                 capture_output=True, text=True, env=env)
            self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
            self.assertRegex(run.stdout, r"## convcheck: [1-9]\d* problems?, properties failed")
            merged = os.path.join(scratch, "reports", "run-" + env["RUN"], "merged")
            with open(os.path.join(merged, "results.json")) as f:
                merged_results = json.load(f)
            whole = subprocess.run([CONVCHECK, "run"] + target.split() +
                                   ["--seed", env["RUN"], "--tests", "20", "--json", "-"],
                                   capture_output=True, text=True)
            whole_results = json.loads(whole.stdout)
            key = lambda results: sorted((p["key"], p["cases"]) for k in results["kinds"]
                                         for p in k["problems"])
            self.assertEqual(key(merged_results), key(whole_results))
            self.assertEqual(merged_results["exitCode"], whole_results["exitCode"])
        finally:
            webhook.stop()
            shutil.rmtree(scratch)


if __name__ == "__main__":
    CONVCHECK = os.path.abspath(sys.argv[1])
    EXAMPLE_WEBHOOK = os.path.abspath(sys.argv[2])
    unittest.main(argv=[sys.argv[0], "-v"] + sys.argv[3:])

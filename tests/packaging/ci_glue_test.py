#!/usr/bin/env python3
# The CI glue run as CI systems run it: the GitHub Action's steps (read from action.yml, with the
# GITHUB_* files made here), the GitLab template's script and the Kubernetes Job's script (with a
# stand-in kubectl) against the real example webhook over TLS; the Job's RBAC is read-only, it runs
# as the image's non-root user, and kubectl reads the manifest without a cluster.
# Usage: ci_glue_test.py CONVCHECK EXAMPLE_WEBHOOK [unittest names, e.g. GitHubAction]
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
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

    def run_action(self, run_id="1001", **given):
        """Runs every step as the runner would (actions/cache steps against a cache kept in the
        scratch directory); returns (exit code of the convcheck step, outputs, summary). The
        steps' stdout and stderr are in self.log."""
        inputs = {name: spec.get("default", "") for name, spec in self.action["inputs"].items()}
        for name, value in given.items():
            name = name.replace("_", "-")
            self.assertIn(name, inputs, "action.yml has no input " + name)
            inputs[name] = value
        for name, spec in self.action["inputs"].items():
            if spec.get("required"):
                self.assertTrue(inputs[name], "required input missing: " + name)
        github = {"run_id": run_id, "run_attempt": "1"}
        workspace = os.path.join(self.scratch, "workspace")
        os.makedirs(workspace, exist_ok=True)
        output_file = os.path.join(self.scratch, "github_output")
        summary_file = os.path.join(self.scratch, "step_summary")
        for path in (output_file, summary_file):
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
                       GITHUB_ACTION_PATH=SOURCE, GITHUB_WORKSPACE=workspace)
            env["PATH"] = os.path.dirname(CONVCHECK) + os.pathsep + env["PATH"]
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
        self.assertRegex(self.log, r"INFO: +[1-9]\d* files found in")
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


class GitLabTemplate(unittest.TestCase):
    """The .convcheck job's script with its variables, as a GitLab runner runs it."""

    def setUp(self):
        with open(os.path.join(SOURCE, "ci/gitlab/convcheck.gitlab-ci.yml")) as f:
            self.job = yaml.safe_load(f)[".convcheck"]
        self.scratch = tempfile.mkdtemp(prefix="convcheck-gitlab-")
        self.webhook = ExampleWebhook(self.scratch)

    def tearDown(self):
        self.webhook.stop()
        shutil.rmtree(self.scratch)

    def test_the_job_writes_the_junit_report_its_artifacts_name(self):
        self.assertEqual(self.job["image"]["entrypoint"], [""])
        variables = {k: str(v) for k, v in self.job["variables"].items()}
        variables.update(CONVCHECK_CRD=CRD, CONVCHECK_URL=self.webhook.url,
                         CONVCHECK_CA=self.webhook.ca, CONVCHECK_DURATION="20s",
                         CONVCHECK_ARGS="--seed 1 --tests 5")
        env = dict(os.environ)
        env.update(variables)
        env["PATH"] = os.path.dirname(CONVCHECK) + os.pathsep + env["PATH"]
        installed = "/usr/share/convcheck/convcheck-ci.sh"
        for line in self.job["script"]:
            self.assertIn(installed, line)
            line = line.replace(installed, os.path.join(SOURCE, "ci/convcheck-ci.sh"))
            self.assertEqual(subprocess.run(["bash", "-c", line], cwd=self.scratch, env=env).returncode, 0)
        expand = lambda s: re.sub(r"\$\{(\w+)\}", lambda m: variables[m.group(1)], s)
        junit = os.path.join(self.scratch, expand(self.job["artifacts"]["reports"]["junit"]))
        self.assertTrue(os.path.isfile(junit), junit)
        with open(junit) as f:
            self.assertIn("<testsuite", f.read())
        self.assertEqual(self.job["artifacts"]["when"], "always")
        for path in self.job["artifacts"]["paths"]:
            self.assertTrue(os.path.isdir(os.path.join(self.scratch, expand(path))))


class GitLabFuzzMode(unittest.TestCase):
    """The .convcheck job in fuzz mode: its cache holds the corpus, which a second pipeline's job
    starts from."""

    def setUp(self):
        with open(os.path.join(SOURCE, "ci/gitlab/convcheck.gitlab-ci.yml")) as f:
            self.job = yaml.safe_load(f)[".convcheck"]
        self.scratch = tempfile.mkdtemp(prefix="convcheck-gitlab-fuzz-")
        self.webhook = ExampleWebhook(self.scratch)

    def tearDown(self):
        self.webhook.stop()
        shutil.rmtree(self.scratch)

    def run_job(self):
        variables = {k: str(v) for k, v in self.job["variables"].items()}
        variables.update(CONVCHECK_CRD=CRD, CONVCHECK_URL=self.webhook.url,
                         CONVCHECK_CA=self.webhook.ca, CONVCHECK_DURATION="2s",
                         CONVCHECK_MODE="fuzz", CONVCHECK_ARGS="--seed 1")
        env = dict(os.environ)
        env.update(variables)
        env["PATH"] = os.path.dirname(CONVCHECK) + os.pathsep + env["PATH"]
        log = ""
        for line in self.job["script"]:
            line = line.replace("/usr/share/convcheck/convcheck-ci.sh",
                                os.path.join(SOURCE, "ci/convcheck-ci.sh"))
            done = subprocess.run(["bash", "-c", line], cwd=self.scratch, env=env, text=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            self.assertEqual(done.returncode, 0, done.stdout)
            log += done.stdout
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
        self.assertIn("kubectl get crd", script)

    def test_the_jobs_script_tests_the_webhook_the_crd_names_with_the_clusters_objects(self):
        # The container's script with a stand-in kubectl answering as the API server would: the
        # CRD (clientConfig pointing at the example webhook, its caBundle) and two stored objects.
        scratch = tempfile.mkdtemp(prefix="convcheck-job-")
        webhook = ExampleWebhook(scratch)
        try:
            with open(CRD) as f:
                crd = yaml.safe_load(f)
            with open(webhook.ca, "rb") as f:
                ca_bundle = base64.b64encode(f.read()).decode()
            crd["spec"]["conversion"]["webhook"]["clientConfig"] = {"url": webhook.url,
                                                                    "caBundle": ca_bundle}
            with open(os.path.join(scratch, "crd.yaml"), "w") as f:
                yaml.safe_dump(crd, f)
            objects = subprocess.run([CONVCHECK, "generate", "--crd", CRD, "--version", "v1",
                                      "-n", "2"], capture_output=True, text=True, check=True)
            items = [json.loads(line) for line in objects.stdout.splitlines()]
            with open(os.path.join(scratch, "objects.yaml"), "w") as f:
                yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": items}, f)
            bin_dir = os.path.join(scratch, "bin")
            os.makedirs(bin_dir)
            kubectl = os.path.join(bin_dir, "kubectl")
            with open(kubectl, "w") as f:
                f.write("#!/bin/sh\n"
                        'case "$*" in\n'
                        '  "get crd %s -o yaml") cat %s/crd.yaml ;;\n'
                        '  "get %s --all-namespaces -o yaml") cat %s/objects.yaml ;;\n'
                        '  *) echo "kubectl: unexpected $*" >&2; exit 1 ;;\n'
                        "esac\n" % (crd["metadata"]["name"], scratch, crd["metadata"]["name"], scratch))
            os.chmod(kubectl, 0o755)
            container = self.docs["Job"]["spec"]["template"]["spec"]["containers"][0]
            env = dict(os.environ)
            env.update({e["name"]: e["value"] for e in container["env"]})
            self.assertEqual(env["CRD"], crd["metadata"]["name"])
            env["DURATION"] = "2s"
            env["PATH"] = bin_dir + os.pathsep + os.path.dirname(CONVCHECK) + os.pathsep + env["PATH"]
            # The pod's volumes, here under the scratch directory.
            volumes = {m["mountPath"]: os.path.join(scratch, m["name"]) for m in container["volumeMounts"]}
            for path in volumes.values():
                os.makedirs(path, exist_ok=True)
            pattern = r"(?<![\w/])(%s)(?=[/\s]|$)" % "|".join(map(re.escape, volumes))
            script = re.sub(pattern, lambda m: volumes[m.group(1)], container["args"][0])
            self.assertNotIn(" /work", script)
            run = subprocess.run(container["command"] + [script], env=env, capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            self.assertIn("<testsuite", run.stdout)
            self.assertTrue(os.path.isfile(os.path.join(scratch, "reports", "junit.xml")))
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

if __name__ == "__main__":
    CONVCHECK = os.path.abspath(sys.argv[1])
    EXAMPLE_WEBHOOK = os.path.abspath(sys.argv[2])
    unittest.main(argv=[sys.argv[0], "-v"] + sys.argv[3:])

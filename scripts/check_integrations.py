#!/usr/bin/env python3
"""Checks what a team installs from this repository, run as the team's tools run it, on payloads copied from
Examples/card-create/ (one valid, one failing rule `format`):

- scripts/install, from the debug build scripts/test has made: the tools linked into PREFIX/bin run from another
  folder as the README writes them, and `dce-validate send` finds dce-send beside dce-validate.
- the pre-commit hook (.pre-commit-hooks.yaml): pre-commit accepts the manifest; `pre-commit try-repo`, which cannot
  pass a schema, stops before building and says what to add; in a fixture repository whose .pre-commit-config.yaml
  names this repository, `git commit` of a valid payload passes and of an invalid one is refused with the file,
  pointer and rule. Both find dce-validate in DCE_VALIDATE_BUILD_DIR, as a CI cache restores it: the debug build
  scripts/test has made (.build), which run-dce-validate adopts first, compiling nothing; when the sources differ
  from HEAD's, the hook's first run builds it in release instead, as on a team's machine. The dce-compat hook lets
  the schemas' first commit through and refuses one that breaks apps, with the break on its schema line; with no
  Swift on PATH the hook stops with exit 2 and says so.
- the GitHub Action (action.yml): its `run:` steps, run as the runner runs them (each with its declared shell,
  `${{ }}` expressions and `if:` conditions evaluated, the GITHUB_* files in a temporary folder), from this
  repository as `uses:` downloads it (an archive, no .git), with the hook's build (DCE_VALIDATE_BUILD_DIR). The
  SARIF report validates against the SARIF 2.1.0 schema (scripts/check_reports.py), the step summary names the
  failing file and rule, the exit status follows fail-on-invalid, the upload step runs only when asked and then
  names the report, and every `uses:` is pinned to a version. With compat-against (and no payloads), the schemas
  are compared with a revision: a break fails the step, is annotated on its schema line, and its SARIF is uploaded
  under its own category.

Both are taken as committed (HEAD), as pre-commit and GitHub fetch them: a line says so when the work tree has
uncommitted changes. Prints a line per check and, last, 'integrations: N passed, N failed'; exit 1 when any failed.
usage: check_integrations.py [--install-only]   (scripts/test runs it with .venv-test/bin/python: pre-commit, PyYAML,
jsonschema, after its debug build; --install-only, without --ci: only scripts/install)"""
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import yaml

root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
examples = os.path.join(root, "Examples", "card-create")
VALID, INVALID = "valid-eu-virtual.json", "invalid-format-currency.json"
# What dce-validate says of INVALID, in every format: the file's line 3, the pointer and the rule.
INVALID_LINE = f"fixtures/{INVALID}:3:15: error: /currency:"
BUILDING = "run-dce-validate: building dce-validate"
passed = failed = 0


def restored_build(env):
    """Whether the hook and the Action find a debug build already made (DCE_VALIDATE_CONFIGURATION=debug, as a CI
    cache restores one) rather than building dce-validate themselves."""
    return env.get("DCE_VALIDATE_CONFIGURATION") == "debug"


def check(name, ok, output=""):
    """Prints one check's line, and on failure the end of the output that shows why."""
    global passed, failed
    if ok:
        passed += 1
        print(f"ok: {name}")
    else:
        failed += 1
        print(f"FAILED: {name}")
        for line in output.strip().splitlines()[-30:]:
            print(f"    {line}")


def run(args, cwd, env):
    """Runs a command; returns its exit status and its standard output and error together."""
    result = subprocess.run(args, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return result.returncode, result.stdout


def base_environment(scratch):
    """The caller's environment without git's per-repository variables (this may run inside a git hook), with a git
    configuration of its own (an identity to commit with, nothing from the caller's hooks or signing), and pre-commit's
    cache and every temporary file (SwiftPM leaves lock files there) in the scratch folder, not the user's."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("GIT_", "PRE_COMMIT"))}
    config = os.path.join(scratch, "gitconfig")
    with open(config, "w") as file:
        file.write("[user]\n\tname = Fixture\n\temail = fixture@example.com\n[commit]\n\tgpgsign = false\n"
                   "[init]\n\tdefaultBranch = main\n")
    temporary = os.path.join(scratch, "tmp")
    os.makedirs(temporary)
    env.update(GIT_CONFIG_GLOBAL=config, PRE_COMMIT_HOME=os.path.join(scratch, "pre-commit-home"), TMPDIR=temporary)
    return env


def tighten_program_name(schemas):
    """Gives card-create's programName a maximum of 5 characters: a break for the apps that send it, reported as
    COMPAT_LINE."""
    path = os.path.join(schemas, "card-create.json")
    with open(path) as file:
        text = file.read()
    with open(path, "w") as file:
        file.write(text.replace('"key": "programName",', '"key": "programName", "maxLength": 5,', 1))


COMPAT_LINE = "Schemas/card-create.json:23:42: error: card-create /programName: max-length-added (request, breaking)"


def copy_fixtures(folder, names):
    os.makedirs(os.path.join(folder, "fixtures"), exist_ok=True)
    for name in names:
        shutil.copy(os.path.join(examples, name), os.path.join(folder, "fixtures", name))


# --- scripts/install -------------------------------------------------------------------------------------------------

def check_install(scratch, env):
    """scripts/install, from the debug build scripts/test has made (a release install differs only in the build):
    the tools linked into PREFIX/bin run from another folder, find their schemas, and `send` finds dce-send."""
    prefix = os.path.join(scratch, "prefix")
    status, output = run(["bash", os.path.join(root, "scripts", "install"), "--configuration", "debug", "--prefix",
                          prefix], root, env)
    tool = os.path.join(prefix, "bin", "dce-validate")
    check("scripts/install --prefix: dce-validate and dce-send linked into PREFIX/bin, the resources beside them",
          status == 0 and os.path.islink(tool) and os.path.isfile(os.path.join(prefix, "bin", "dce-send"))
          and os.path.isdir(os.path.join(prefix, "lib", "dce-validate", "dce-validate_DCEEngine.resources"))
          and f"{prefix}/bin is not on PATH" in output, output)
    elsewhere = os.path.join(scratch, "elsewhere")
    os.makedirs(elsewhere)
    shutil.copy(os.path.join(examples, VALID), elsewhere)
    path_env = dict(env, PATH=os.path.join(prefix, "bin") + os.pathsep + env.get("PATH", ""))
    status, output = run(["dce-validate", VALID, "--schema", "card-create"], elsewhere, path_env)
    check("the installed dce-validate runs from another folder, as the README writes it",
          status == 0 and "valid: 1 payload checked against card-create" in output, output)
    status, output = run(["dce-validate", "send", "--help"], elsewhere, path_env)
    check("the installed dce-validate send finds dce-send beside it", status == 0
          and "USAGE: dce-validate send" in output, output)
    preview = subprocess.Popen(["dce-validate", "preview", "--schema", "card-create", "--port", "0"], cwd=elsewhere,
                               env=path_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = preview.stdout.readline()
    served = ""
    if first.startswith("preview: http://127.0.0.1:"):
        with urllib.request.urlopen(first.split(" ", 1)[1].strip() + "preview.js", timeout=10) as answer:
            served = answer.read().decode()
    preview.terminate()
    check("the installed dce-validate preview finds dce-preview and the page's files beside it, and stops on SIGTERM",
          "'use strict'" in served and preview.wait(timeout=10) == 0, first + preview.stderr.read())


# --- the pre-commit hook ---------------------------------------------------------------------------------------------

def check_hook(scratch, env, head):
    pre_commit = [sys.executable, "-m", "pre_commit"]
    status, output = run(pre_commit + ["validate-manifest", ".pre-commit-hooks.yaml"], root, env)
    check("pre-commit accepts .pre-commit-hooks.yaml", status == 0, output)

    team = os.path.join(scratch, "team")
    os.makedirs(team)
    run(["git", "init", "-q"], team, env)
    copy_fixtures(team, [VALID])
    # Not a payload: outside the hook's `files`, so never validated.
    with open(os.path.join(team, "package.json"), "w") as file:
        file.write('{"name": "team-app"}\n')
    with open(os.path.join(team, ".pre-commit-config.yaml"), "w") as file:
        hook = {"id": "dce-validate", "args": ["--schema", "card-create"], "files": "^fixtures/"}
        yaml.safe_dump({"repos": [{"repo": root, "rev": head, "hooks": [hook, {"id": "dce-compat"}]}]}, file,
                       sort_keys=False)

    status, output = run(pre_commit + ["install"], team, env)
    check("pre-commit install in the fixture repository", status == 0, output)
    run(["git", "add", "-A"], team, env)
    started = time.monotonic()
    status, output = run(["git", "commit", "-q", "-m", "A valid payload"], team, env)
    seconds = time.monotonic() - started
    restored = restored_build(env)
    what = "the build restored, not made again" if restored else "with its build"
    check(f"git commit of a valid payload passes (the hook's first run, {what}: {seconds:.0f} s)",
          status == 0 and re.search(r"^dce-validate\.+Passed$", output, re.M) is not None
          and (BUILDING in output) != restored, output)

    # What a person trying the hook runs first; try-repo cannot give it args, and runs on the committed files.
    status, output = run(pre_commit + ["try-repo", root, "dce-validate", "--ref", head, "--all-files"], team, env)
    check("try-repo (no schema given): fails before building and names the args to add",
          status != 0 and "no schema given" in output and "args: [--schema, card-create]" in output
          and BUILDING not in output, output)

    copy_fixtures(team, [INVALID])
    run(["git", "add", "-A"], team, env)
    status, output = run(["git", "commit", "-q", "-m", "An invalid payload"], team, env)
    _, staged = run(["git", "diff", "--cached", "--name-only"], team, env)
    check("git commit of an invalid payload is refused with the file, pointer and rule, without a second build",
          status != 0 and INVALID_LINE in output and "[format]" in output and BUILDING not in output
          and f"fixtures/{INVALID}" in staged, output)

    # dce-compat: the schemas' first commit has nothing to compare with; a later one that breaks apps is refused with
    # the break on its schema line, without building again.
    os.remove(os.path.join(team, "fixtures", INVALID))
    run(["git", "add", "-A"], team, env)
    shutil.copytree(os.path.join(root, "Schemas"), os.path.join(team, "Schemas"))
    run(["git", "add", "-A"], team, env)
    status, output = run(["git", "commit", "-q", "-m", "The schemas"], team, env)
    check("dce-compat, the schemas' first commit: passes, nothing to compare with",
          status == 0 and re.search(r"^dce-compat\.+Passed$", output, re.M) is not None and BUILDING not in output,
          output)
    tighten_program_name(os.path.join(team, "Schemas"))
    run(["git", "add", "-A"], team, env)
    status, output = run(["git", "commit", "-q", "-m", "A shorter program name"], team, env)
    check("dce-compat, a commit that breaks requests: refused with the break on its schema line",
          status != 0 and re.search(r"^dce-compat\.+Failed$", output, re.M) is not None
          and COMPAT_LINE in output and BUILDING not in output, output)
    run(["git", "reset", "-q", "--hard"], team, env)

    # A checkout that has not built yet, on a machine without Swift: only the tools the scripts need are on PATH.
    bare = os.path.join(scratch, "no-swift")
    run(["git", "clone", "-q", root, bare], scratch, env)
    run(["git", "checkout", "-q", "--detach", head], bare, env)
    tools = os.path.join(scratch, "tools-without-swift")
    os.makedirs(tools)
    for tool in ("bash", "dirname", "find", "cksum", "sort", "cat", "mkdir", "rm", "tail", "uname", "id"):
        if shutil.which(tool):
            os.symlink(shutil.which(tool), os.path.join(tools, tool))
    without_swift = {key: value for key, value in env.items() if key != "DCE_VALIDATE_BUILD_DIR"}
    status, output = run([os.path.join(bare, "scripts", "pre-commit-hook"), "--schema", "card-create",
                          os.path.join(team, "fixtures", VALID)], team, dict(without_swift, PATH=tools))
    check("the hook without Swift on PATH: exit 2, and it says so", status == 2 and "Swift 6 is not on PATH" in output,
          output)


# --- the GitHub Action -----------------------------------------------------------------------------------------------

EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}", re.S)
TOKEN = re.compile(r"\s*(?:(\|\||&&|==|!=|!|\(|\))|'((?:[^']|'')*)'|(\d+(?:\.\d+)?)|([A-Za-z_][\w.-]*)(\(\))?)")
STATUS_FUNCTIONS = ("success", "failure", "always", "cancelled")


class Expression:
    """GitHub's expression language as far as action.yml may use it: contexts (inputs, github, runner, steps), string
    and number literals, true/false/null, ==, !=, !, &&, || and parentheses, and the status functions. Comparison and
    truth follow GitHub's rules (strings compared ignoring case, other types as numbers). Anything else, and an input
    action.yml does not declare, is an error, so that the harness never guesses."""

    def __init__(self, text, contexts, failed_before):
        self.tokens, position = [], 0
        while position < len(text.rstrip()):
            match = TOKEN.match(text, position)
            if not match or match.end() == position:
                raise ValueError(f"cannot read the expression {text!r} at {text[position:]!r}")
            self.tokens.append(match.groups())
            position = match.end()
        self.index, self.contexts, self.failed_before = 0, contexts, failed_before

    def value(self):
        result = self.either()
        if self.index != len(self.tokens):
            raise ValueError(f"unexpected {self.tokens[self.index]} in an expression")
        return result

    def operator(self, symbol):
        if self.index < len(self.tokens) and self.tokens[self.index][0] == symbol:
            self.index += 1
            return True
        return False

    def either(self):
        left = self.both()
        while self.operator("||"):
            right = self.both()
            left = left if truthy(left) else right
        return left

    def both(self):
        left = self.comparison()
        while self.operator("&&"):
            right = self.comparison()
            left = right if truthy(left) else left
        return left

    def comparison(self):
        left = self.unary()
        for symbol in ("==", "!="):
            if self.operator(symbol):
                return equal(left, self.unary()) == (symbol == "==")
        return left

    def unary(self):
        if self.operator("!"):
            return not truthy(self.unary())
        if self.operator("("):
            inner = self.either()
            if not self.operator(")"):
                raise ValueError("a '(' without its ')' in an expression")
            return inner
        if self.index == len(self.tokens):
            raise ValueError("an expression ends where a value is expected")
        symbol, string, number, name, call = self.tokens[self.index]
        self.index += 1
        if string is not None:
            return string.replace("''", "'")
        if number is not None:
            return float(number)
        if call:
            if name not in STATUS_FUNCTIONS:
                raise ValueError(f"the harness does not know the function {name}()")
            return {"success": not self.failed_before, "failure": self.failed_before, "always": True,
                    "cancelled": False}[name]
        if name in ("true", "false", "null"):
            return {"true": True, "false": False, "null": None}[name]
        if name is None:
            raise ValueError(f"unexpected {symbol!r} in an expression")
        return self.lookup(name)

    def lookup(self, name):
        head, *rest = name.split(".")
        if head not in self.contexts:
            raise ValueError(f"the harness does not know the context {head!r} ({name})")
        if head == "inputs" and rest and rest[0] not in self.contexts["inputs"]:
            raise ValueError(f"{name}: action.yml declares no such input")
        value = self.contexts[head]
        for part in rest:
            value = value.get(part) if isinstance(value, dict) else None
        return value


def truthy(value):
    return value not in (None, False, "", 0) and not (isinstance(value, float) and math.isnan(value))


def equal(left, right):
    if isinstance(left, str) and isinstance(right, str):
        return left.lower() == right.lower()

    def number(value):
        if value is None or value is False:
            return 0.0
        if value is True:
            return 1.0
        if isinstance(value, str):
            try:
                return float(value.strip()) if value.strip() else 0.0
            except ValueError:
                return math.nan
        return float(value)

    return number(left) == number(right)


def text_of(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def substitute(text, contexts, failed_before=False):
    return EXPRESSION.sub(lambda match: text_of(Expression(match.group(1), contexts, failed_before).value()), str(text))


def condition(step, contexts, failed_before):
    """Whether the runner runs a step: its `if:` (written with or without ${{ }}), with success() added unless the
    condition calls a status function itself."""
    text = str(step.get("if", "success()")).strip()
    match = EXPRESSION.fullmatch(text)
    text = match.group(1) if match else text
    if not re.search(r"\b(" + "|".join(STATUS_FUNCTIONS) + r")\(\)", text):
        text = f"success() && ({text})"
    return truthy(Expression(text, contexts, failed_before).value())


def read_text(path):
    """A file's text; empty when there is no such file (a step that wrote nothing there)."""
    if not os.path.exists(path):
        return ""
    with open(path) as file:
        return file.read()


def read_commands_file(path):
    """A GITHUB_OUTPUT or GITHUB_ENV file: `name=value` lines and `name<<DELIMITER` blocks."""
    values, lines = {}, read_text(path).splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            end = lines.index(delimiter, index + 1)
            values[name] = "\n".join(lines[index + 1:end])
            index = end
        elif "=" in line:
            name, value = line.split("=", 1)
            values[name] = value
        index += 1
    return values


SHELLS = {"bash": ["bash", "--noprofile", "--norc", "-eo", "pipefail"], "sh": ["sh", "-e"], "python": ["python3"]}


def run_action(action, action_path, workspace, inputs, env):
    """Runs a composite action as the runner does; returns (exit status, outputs, step summary, the log, the
    `uses:` steps that would run with their evaluated `with:`)."""
    declared = action.get("inputs", {})
    given = {name: str(spec.get("default", "")) for name, spec in declared.items()}
    unknown = set(inputs) - set(declared)
    if unknown:
        raise ValueError(f"action.yml declares no input {sorted(unknown)}")
    given.update(inputs)
    missing = [name for name, spec in declared.items() if spec.get("required") and not given[name]]
    if missing:
        raise ValueError(f"required inputs not given: {missing}")
    runner_temp = tempfile.mkdtemp(prefix="runner-", dir=os.path.dirname(workspace))
    summary_path = os.path.join(runner_temp, "step-summary.md")
    contexts = {"inputs": given, "github": {"action_path": action_path, "workspace": workspace},
                "runner": {"temp": runner_temp, "os": "Linux"}, "steps": {}}
    step_env = dict(env, CI="true", GITHUB_ACTIONS="true", GITHUB_WORKSPACE=workspace, GITHUB_ACTION_PATH=action_path,
                    GITHUB_STEP_SUMMARY=summary_path, RUNNER_TEMP=runner_temp)
    status, log, uses = 0, "", []
    for number, step in enumerate(action["runs"]["steps"]):
        if not condition(step, contexts, status != 0):
            continue
        if "uses" in step:
            uses.append((step["uses"], {key: substitute(value, contexts, status != 0)
                                        for key, value in step.get("with", {}).items()}))
            continue
        files = {name: os.path.join(runner_temp, f"{name}-{number}") for name in ("output", "env", "path", "script")}
        with open(files["script"], "w") as script:
            script.write(substitute(step["run"], contexts, status != 0))
        environment = dict(step_env, GITHUB_OUTPUT=files["output"], GITHUB_ENV=files["env"], GITHUB_PATH=files["path"])
        for key, value in step.get("env", {}).items():
            environment[key] = substitute(value, contexts, status != 0)
        cwd = os.path.join(workspace, substitute(step.get("working-directory", "."), contexts))
        step_status, output = run(SHELLS[step["shell"]] + [files["script"]], cwd, environment)
        log += output
        step_env.update(read_commands_file(files["env"]))
        if os.path.exists(files["path"]):
            added = [line for line in read_text(files["path"]).splitlines() if line]
            step_env["PATH"] = os.pathsep.join(added[::-1] + [step_env["PATH"]])
        if "id" in step:
            contexts["steps"][step["id"]] = {"outputs": read_commands_file(files["output"]),
                                             "outcome": "success" if step_status == 0 else "failure"}
        if step_status != 0 and not step.get("continue-on-error"):
            status = step_status
    outputs = {name: substitute(spec["value"], contexts) for name, spec in action.get("outputs", {}).items()}
    summary = read_text(summary_path)
    return status, outputs, summary, log, uses


def check_action(scratch, env, head):
    with open(os.path.join(root, "action.yml")) as file:
        action = yaml.safe_load(file)
    steps = action.get("runs", {}).get("steps", [])
    check("action.yml is a composite action whose every run step declares its shell",
          action.get("runs", {}).get("using") == "composite" and steps
          and all("uses" in step or step.get("shell") in SHELLS for step in steps))
    pinned = [step["uses"] for step in steps if "uses" in step]
    check(f"every uses: is pinned to a version ({', '.join(pinned)})",
          all(re.fullmatch(r"[\w.-]+/[\w./-]+@(v\d+(\.\d+)*|[0-9a-f]{40})", name) for name in pinned), str(pinned))

    # As `uses: owner/dce-validate@ref` brings it: the files of that commit, without .git.
    action_path = os.path.join(scratch, "action")
    archive = os.path.join(scratch, "action.tar")
    os.makedirs(action_path)
    run(["git", "archive", "--format=tar", "-o", archive, head], root, env)
    run(["tar", "-xf", archive, "-C", action_path], root, env)

    def workspace(name, payloads):
        folder = os.path.join(scratch, name)
        copy_fixtures(folder, payloads)
        return folder

    def sarif_problems(path):
        """What scripts/check_reports.py finds wrong with a SARIF report; empty when it is valid."""
        if not os.path.exists(path):
            return f"{path} was not written"
        checker = os.path.join(root, "scripts", "check_reports.py")
        status, output = run([sys.executable, checker, "sarif", path], root, env)
        return "" if status == 0 else output or f"check_reports.py exited {status}"

    both = workspace("ws-invalid", [VALID, INVALID])
    started = time.monotonic()
    status, outputs, summary, log, uses = run_action(action, action_path, both,
                                                     {"paths": "fixtures", "schema": "card-create"}, env)
    seconds = time.monotonic() - started
    report = os.path.join(both, "dce-validate.sarif")
    row = re.search(rf"^\| fixtures/{re.escape(INVALID)} \| 3 \| /currency \| format \|", summary, re.M)
    check(f"action, an invalid payload: reuses the kept build ({seconds:.0f} s), fails the step with exit 1, annotates "
          "the file", BUILDING not in log and "dce-validate" in log and status == 1 and outputs.get("exit-code") == "1"
          and f"::error file=fixtures/{INVALID},line=3," in log, log)
    problems = sarif_problems(report)
    check("action, an invalid payload: the SARIF report validates against the SARIF 2.1.0 schema",
          outputs.get("sarif-file") == "dce-validate.sarif" and not problems, problems or str(outputs))
    check("action, an invalid payload: the step summary names the failing file and rule", row is not None, summary)
    check("action, an invalid payload: the SARIF upload runs and names the report",
          uses == [("github/codeql-action/upload-sarif@v4",
                    {"sarif_file": "dce-validate.sarif", "category": "dce-validate/card-create"})], str(uses))

    reported = workspace("ws-report-only", [VALID, INVALID])
    status, outputs, summary, log, uses = run_action(
        action, action_path, reported,
        {"paths": f"  fixtures/valid-*.json\n fixtures/{INVALID}\n\n", "schema": "card-create",
         "fail-on-invalid": "false", "sarif-file": "reports/card-create.sarif", "upload-sarif": "false"}, env)
    problems = sarif_problems(os.path.join(reported, "reports", "card-create.sarif"))
    check("action, fail-on-invalid false: passes, still reports (exit-code 1, SARIF, summary), no upload, no rebuild",
          status == 0 and outputs.get("exit-code") == "1" and BUILDING not in log and not problems
          and f"fixtures/{INVALID}" in summary and uses == [], log + summary + problems)

    valid = workspace("ws-valid", [VALID])
    shutil.copytree(os.path.join(root, "Schemas"), os.path.join(valid, "team-schemas"))
    status, outputs, summary, log, uses = run_action(
        action, action_path, valid, {"paths": "fixtures", "schema": "card-create", "schemas": "team-schemas",
                                     "args": "--context region=EU --language de"}, env)
    check("action, a valid payload with schemas and args: passes, summary written",
          status == 0 and outputs.get("exit-code") == "0" and "card-create" in summary and len(uses) == 1,
          log + summary)

    status, outputs, summary, log, uses = run_action(
        action, action_path, valid, {"paths": "fixtures/missing.json", "schema": "card-create",
                                     "fail-on-invalid": "false"}, env)
    check("action, an unreadable payload: fails with exit 2 even when fail-on-invalid is false",
          status == 2 and outputs.get("exit-code") == "2", log)

    # compat-against alone (no payloads): the workspace's Schemas against a revision, annotated on the schema line.
    team = os.path.join(scratch, "ws-compat")
    shutil.copytree(os.path.join(root, "Schemas"), os.path.join(team, "Schemas"))
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "The schemas"]):
        run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com"] + command, team, env)
    status, outputs, summary, log, uses = run_action(action, action_path, team, {"compat-against": "HEAD"}, env)
    check("action, compat-against with no change: passes, exit 0, its SARIF uploaded under its own category",
          status == 0 and outputs.get("compat-exit-code") == "0" and outputs.get("exit-code") == ""
          and uses == [("github/codeql-action/upload-sarif@v4",
                        {"sarif_file": "dce-compat.sarif", "category": "dce-validate/compat"})], log + str(uses))
    tighten_program_name(os.path.join(team, "Schemas"))
    status, outputs, summary, log, uses = run_action(action, action_path, team, {"compat-against": "HEAD"}, env)
    problems = sarif_problems(os.path.join(team, "dce-compat.sarif"))
    check("action, compat-against with a break: fails with exit 1, annotates the schema line, valid SARIF",
          status == 1 and outputs.get("compat-exit-code") == "1"
          and "::error file=Schemas/card-create.json,line=23,col=42,title=dce-validate compat max-length-added::" in log
          and not problems and '"uri":"Schemas/card-create.json"' in read_text(os.path.join(team, "dce-compat.sarif")),
          log + problems)

    # Against what apps are served: `--catalogue` needs dce-send beside dce-validate, which the first such run builds.
    gateway_binary = os.path.join(root, ".build", "debug", "dce-gateway")
    if not os.access(gateway_binary, os.X_OK):
        check("action with --catalogue against a running gateway", False,
              f"{gateway_binary} is not built (scripts/test builds it before running this)")
        return
    keys = os.path.join(scratch, "gateway-keys")
    log_path = os.path.join(scratch, "gateway.log")
    with open(log_path, "w") as log_file:
        gateway = subprocess.Popen([gateway_binary, "--port", "0", "--keys", keys, "--no-auth",
                                    "--catalogue-version", "2026.11.24"],
                                   stdout=log_file, stderr=subprocess.STDOUT, env=env)
    try:
        url, deadline = None, time.monotonic() + 60
        while url is None and gateway.poll() is None and time.monotonic() < deadline:
            url = re.search(r"listening on (http://127\.0\.0\.1:\d+)", read_text(log_path))
            time.sleep(0.05)
        if url is None:
            check("action with --catalogue against a running gateway", False, read_text(log_path))
            return
        served = workspace("ws-catalogue", [VALID])
        key = os.path.join(keys, "signing.pub")
        started = time.monotonic()
        status, outputs, summary, log, uses = run_action(
            action, action_path, served,
            {"paths": "fixtures", "schema": "card-create", "upload-sarif": "false",
             "args": f"--catalogue {url.group(1)} --catalogue-key {key} --catalogue-cache {scratch}/catalogue-cache"},
            env)
        seconds = time.monotonic() - started
        restored = restored_build(env)
        what = "finds dce-send in the restored build" if restored else "builds dce-send once"
        check(f"action with --catalogue: {what} ({seconds:.0f} s), validates against the served catalogue and names it",
              status == 0 and ("run-dce-validate: building dce-send" in log) != restored and BUILDING not in log
              and "checked against card-create (catalogue 2026.11.24)" in summary, log + summary)
    finally:
        gateway.terminate()
        gateway.wait()


def tool_build(scratch, env, git):
    """The build the hook and the action find, as a CI cache restores one made from the same sources: the debug build
    scripts/test has made in .build, which run-dce-validate adopts (DCE_VALIDATE_BUILD_DIR, DCE_VALIDATE_CONFIGURATION)
    by building dce-validate and dce-send there from this checkout, with nothing left to compile, and recording the
    sources they were made from. When the work tree's sources differ from HEAD's, which the hook and the action are
    taken from, they build in release in a folder of their own instead, as a team's first run does."""
    if git("status", "--porcelain", "--", "Package.swift", "Sources", "Schemas"):
        print("note: the sources differ from HEAD's: the hook's first run builds dce-validate in release")
        return dict(env, DCE_VALIDATE_BUILD_DIR=os.path.join(scratch, "tool-build"),
                    DCE_VALIDATE_CONFIGURATION="release")
    adopted = dict(env, DCE_VALIDATE_BUILD_DIR=os.path.join(root, ".build"), DCE_VALIDATE_CONFIGURATION="debug")
    status, output = run([os.path.join(root, "scripts", "run-dce-validate"), "send", "--help"], root, adopted)
    check("run-dce-validate adopts the debug build of dce-validate and dce-send in .build, compiling nothing",
          status == 0 and not any("Compiling" in read_text(os.path.join(root, ".build", f"{product}-debug-build.log"))
                                  for product in ("dce-validate", "dce-send")), output)
    return adopted if status == 0 else None


def main():
    def git(*args):
        return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True).stdout.strip()

    head = git("rev-parse", "HEAD")
    changed = git("status", "--porcelain", "--untracked-files=no")
    if changed:
        print(f"note: the hook and the action are tested as committed ({head[:10]}), without the uncommitted changes")
    scratch = tempfile.mkdtemp(prefix="dce-integrations-")
    try:
        env = base_environment(scratch)
        check_install(scratch, env)
        if "--install-only" not in sys.argv[1:]:
            kept = tool_build(scratch, env, git)
            if kept is not None:
                check_hook(scratch, kept, head)
                check_action(scratch, kept, head)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"integrations: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

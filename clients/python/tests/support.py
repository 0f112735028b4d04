"""How the tests reach a real ``kvledger serve`` and ``kvledger run``.

``KVLEDGER_JAR`` names the command-line jar (``java -jar JAR serve ...``); ``KVLEDGER_CLASSPATH``
instead names a classpath holding the command line (``io.kvledger.infrastructure.cli.KvLedgerCli``). With
neither, the tests use the repository's own jar, which the ``kvledger`` launcher at the root builds first
when it is missing or older than a source (as the client falls back to the launcher), so
``python3 -m unittest discover -s tests -t .`` in ``clients/python`` needs nothing set.
``KVLEDGER_JAVA_OPTS`` is passed to every JVM started.
``KVLEDGER_RUN_LOGS`` may name a folder holding ``NAME.jsonl``, the log ``kvledger run`` writes for
each example, so the suite need not start a JVM per example for it.
"""

import json
import os
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent


def _java():
    return [os.environ.get("KVLEDGER_JAVA", "java")] + os.environ.get("KVLEDGER_JAVA_OPTS", "").split()


def serve_command():
    """The command that starts a server, without ``--stdio`` or ``--socket``."""
    return kvledger_command() + ["serve"]


def kvledger_command():
    """The command line: ``java -cp CLASSPATH KvLedgerCli`` or ``java -jar JAR``."""
    classpath = os.environ.get("KVLEDGER_CLASSPATH")
    if classpath:
        return _java() + ["-cp", classpath, "io.kvledger.infrastructure.cli.KvLedgerCli"]
    return _java() + ["-jar", os.environ.get("KVLEDGER_JAR") or built_jar()]


_BUILT = []


def built_jar():
    """The repository's command-line jar, built by the launcher if it is missing or stale (once per run)."""
    if not _BUILT:
        launcher = REPO / "kvledger"
        done = subprocess.run(["bash", str(launcher), "--version"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=1200)
        if done.returncode != 0:
            raise AssertionError("%s --version (which builds the jar) exited %d: %s" % (
                launcher, done.returncode, done.stderr.decode("utf-8", "replace")))
        _BUILT.append(str(REPO / "infrastructure" / "cli" / "target" / "kvledger.jar"))
    return _BUILT[0]


def cli(*args, check=True):
    """Runs ``kvledger ARGS`` (the command line), returning the completed process."""
    argv = kvledger_command()
    done = subprocess.run(argv + [str(a) for a in args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    if check and done.returncode != 0:
        raise AssertionError("kvledger %s exited %d: %s" % (" ".join(map(str, args)), done.returncode,
                                                           done.stderr.decode("utf-8", "replace")))
    return done


def examples_dir():
    given = os.environ.get("KVLEDGER_EXAMPLES")
    if given:
        return Path(given)
    for candidate in (REPO / "tests" / "acceptance" / "src" / "test" / "resources" / "examples",
                      REPO / "tests" / "src" / "test" / "resources" / "examples"):
        if candidate.is_dir():
            return candidate
    raise AssertionError("no examples folder; set KVLEDGER_EXAMPLES")


def examples():
    return sorted(p for p in examples_dir().glob("*.jsonl") if not p.name.endswith(".expect.jsonl"))


def read_log(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def run_log(scenario, tmp):
    """The log ``kvledger run SCENARIO`` writes, as decoded objects."""
    given = os.environ.get("KVLEDGER_RUN_LOGS")
    if given and (Path(given) / scenario.name).is_file():
        return read_log(Path(given) / scenario.name)
    out = Path(tmp) / (scenario.stem + ".run.jsonl")
    cli("run", scenario, "-o", out)
    return read_log(out)


def read_scenario(path):
    """(config or None, [(line number, command)]) of a scenario file."""
    config = None
    commands = []
    first = True
    with open(path, encoding="utf-8") as f:
        for number, text in enumerate(f, start=1):
            if not text.strip():
                continue
            obj = json.loads(text)
            if first and list(obj) == ["config"]:
                config = obj["config"]
            else:
                commands.append((number, obj))
            first = False
    return config, commands

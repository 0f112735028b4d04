"""Records what the capture copied out of vLLM at the connector's boundary, as replayable fixtures.

With ``harness --record DIR`` each workload also writes ``DIR/<workload>.records.jsonl``: a first line
``{"config": ..., "source": ...}`` (the capture's engine config, as the capture derived it from vLLM's
config) and then one ``{"record": ...}`` line per call record the scheduler-role capture made, in order
(:mod:`kvledger_capture.records`: each vLLM call with the arguments and answers the capture copied). The
default suite replays them through the translator and the audit (``tests/test_vllm_recordings.py``),
without vLLM.
"""

import json
import os

from kvledger_capture import translate as _translate
from kvledger_capture import writer as _writer

_state = {"dir": None, "file": None, "name": None, "params": None}
_original_init = _writer.CaptureWriter.__init__
_original_feed = _translate.Translator.feed


def _init(self, folder, config, *args, **kwargs):
    f = _state["file"]
    if f is not None:
        f.write(json.dumps({"config": config, "source": "kvledger conformance harness, workload %s (%s)" % (
            _state["name"], ", ".join("%s=%s" % kv for kv in sorted(_state["params"].items())))}) + "\n")
    _original_init(self, folder, config, *args, **kwargs)


def _feed(self, record):
    """Each record as the translator gets it: the records' lazy snapshots of vLLM's requests made plain dicts."""
    f = _state["file"]
    if f is not None:
        f.write(json.dumps({"record": record}) + "\n")
    _original_feed(self, record)


def install(directory):
    """Records into ``directory``; the harness then runs the capture's writer as a thread of its own process
    (``kvledger_capture_writer: thread``), where these hooks are."""
    os.makedirs(directory, exist_ok=True)
    _state["dir"] = directory
    _writer.CaptureWriter.__init__ = _init
    _translate.Translator.feed = _feed


def installed():
    return _state["dir"] is not None


def start(name, workload):
    _state["name"], _state["params"] = name, dict(vars(workload))
    _state["file"] = open(os.path.join(_state["dir"], name + ".records.jsonl"), "w", encoding="utf-8")


def expect(name, verdict):
    """The recording's ``.expect.json`` for the default suite's replay, from the harness's verdict: its shape,
    the requests where the audit shows vllm#54193, and the safety codes of the capture's known faults it shows
    (any other safety code fails the replay)."""
    findings = verdict.get("findings", [])
    own = sorted({f["request"] for f in findings if f.get("vllm") == "vllm#54193" and f["request"]},
                 key=int)  # the stores (the evictions vLLM makes for them name no request)
    known = sorted({f["code"] for f in findings
                    if f["class"] == "safety" and not f.get("vllm") and not f.get("departure")})
    facts, params = verdict["facts"], verdict["params"]
    text = {"shape": params["shape"],
            "why": "Workload %s of the conformance harness (vLLM's real %s), %d requests, %d steps. The audit flags "
                   "vllm#54193 (the final store at a finish includes the last sampled token, whose KV slot no "
                   "forward pass wrote) on the requests listed; the other safety findings are the capture's known "
                   "faults (docs/vllm-conformance.md), listed so a new kind fails." % (
                       name, "AsyncScheduler" if params["async_scheduling"] else "Scheduler",
                       facts["requests"], facts["steps"]),
            "vllm#54193": own, "known_capture_faults": known, "min_requests": min(50, facts["requests"])}
    with open(os.path.join(_state["dir"], name + ".expect.json"), "w", encoding="utf-8") as f:
        json.dump(text, f, indent=1)
        f.write("\n")


def stop():
    if _state["file"] is not None:
        _state["file"].close()
    _state["file"] = None

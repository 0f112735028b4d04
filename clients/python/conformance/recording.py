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

from kvledger_capture import writer as _writer

_state = {"dir": None, "file": None, "name": None, "params": None}
_original_init = _writer.CaptureWriter.__init__
_original_put = _writer.CaptureWriter.put


def _init(self, folder, config):
    f = _state["file"]
    if f is not None:
        f.write(json.dumps({"config": config, "source": "kvledger conformance harness, workload %s (%s)" % (
            _state["name"], ", ".join("%s=%s" % kv for kv in sorted(_state["params"].items())))}) + "\n")
    _original_init(self, folder, config)


def _put(self, record):
    f = _state["file"]
    if f is not None and self.error is None:
        f.write(json.dumps({"record": record}) + "\n")
    _original_put(self, record)


def install(directory):
    os.makedirs(directory, exist_ok=True)
    _state["dir"] = directory
    _writer.CaptureWriter.__init__ = _init
    _writer.CaptureWriter.put = _put


def start(name, workload):
    _state["name"], _state["params"] = name, dict(vars(workload))
    _state["file"] = open(os.path.join(_state["dir"], name + ".records.jsonl"), "w", encoding="utf-8")


def stop():
    if _state["file"] is not None:
        _state["file"].close()
    _state["file"] = None

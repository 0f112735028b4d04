"""Small stand-ins for vLLM's scheduler-side objects, and a replayer of recorded call sequences.

vLLM cannot be installed here, so the capture connector is driven by call sequences recorded as data
(``vllm_calls/*.jsonl``, built from the scenarios of vLLM's own offloading-connector unit tests). Each
line is one thing the engine does:

- ``{"config": {...}}``: block sizes, world size, CPU blocks, async scheduling (first line);
- ``{"add": ID, "prompt": [...]}``: a request enters the engine;
- ``{"call": NAME, ...}``: the scheduler calls the connector (``get_num_new_matched_tokens``,
  ``update_state_after_alloc``, ``build_connector_meta``, ``update_connector_output``,
  ``request_finished``, ``reset_cache``); what vLLM's OffloadingConnector returned is given with it
  (``returns``, or the jobs of the metadata), so a stand-in inner connector answers exactly that;
- ``{"sample": ID, "tokens": [...], "rejected": K}``: the engine appends sampled tokens and takes back
  K rejected speculative tokens (``update_from_output``);
- ``{"preempt": ID}``: the engine preempts a request (its computed tokens go to 0).

A request named in an ``update_connector_output``'s ``recving`` has its load's tokens computed, as vLLM's
scheduler sets them when the load is done: the GPU hit plus the loaded tokens, less one if that is the
whole request.

After each ``build_connector_meta`` the engine adds the step's scheduled tokens to each request's
``num_computed_tokens``, as vLLM's scheduler does right after building the connector's metadata.
"""

import hashlib
import json
from types import SimpleNamespace

from kvledger_capture.connector import KvLedgerCaptureConnector


class StandInRequest:
    """The attributes of vLLM's ``Request`` the capture reads."""

    def __init__(self, request_id, prompt, block_size):
        self.request_id = request_id
        self.prompt_token_ids = list(prompt)
        self.all_token_ids = list(prompt)
        self.num_computed_tokens = 0
        self.status = SimpleNamespace(name="WAITING")
        self._block_size = block_size
        self.block_hashes = []
        self._rehash()

    @property
    def num_tokens(self):
        return len(self.all_token_ids)

    def append(self, tokens):
        self.all_token_ids.extend(tokens)
        self._rehash()

    def _rehash(self):
        """One hash per full block of known tokens, chained through the prefix (no salt), as vLLM's are."""
        full = len(self.all_token_ids) // self._block_size
        while len(self.block_hashes) < full:
            end = (len(self.block_hashes) + 1) * self._block_size
            self.block_hashes.append(hashlib.sha256(repr(self.all_token_ids[:end]).encode()).digest()[:16])


class StandInBlocks:
    """``KVCacheBlocks``: one group of block ids."""

    def __init__(self, block_ids):
        self._ids = list(block_ids)

    def get_block_ids(self):
        return (list(self._ids),)


class RecordedOffloadingConnector:
    """Answers each call with what the recorded vLLM connector answered (set by the replayer)."""

    def __init__(self, vllm_config, role, kv_cache_config=None):
        self.answer = None
        self.calls = []

    def _answer(self, name):
        self.calls.append(name)
        return self.answer

    def get_num_new_matched_tokens(self, request, num_computed_tokens):
        return self._answer("get_num_new_matched_tokens")

    def update_state_after_alloc(self, request, blocks, num_external_tokens):
        return self._answer("update_state_after_alloc")

    def build_connector_meta(self, scheduler_output):
        return self._answer("build_connector_meta")

    def update_connector_output(self, connector_output):
        return self._answer("update_connector_output")

    def request_finished(self, request, block_ids):
        return self._answer("request_finished")

    def reset_cache(self):
        return self._answer("reset_cache")

    def take_events(self):
        return []


def _transfer_job(req_id, block_ids, gpu_is_source):
    gpu = SimpleNamespace(block_ids=list(block_ids))
    cpu = SimpleNamespace(block_ids=[])
    return SimpleNamespace(req_id=req_id, src_spec=gpu if gpu_is_source else cpu, dst_spec=cpu if gpu_is_source else gpu)


def replay(calls_path, capture_dir):
    """Drives a capture connector through a recorded sequence; returns the connector (closed)."""
    with open(calls_path, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f if line.strip()]
    config = lines[0]["config"]
    block_size = config["block_size"]
    extra = {"block_size": config.get("offloaded_block_size", block_size),
             "num_cpu_blocks": config.get("num_cpu_blocks", 100),
             "kvledger_capture_dir": str(capture_dir),
             "kvledger_inner_connector": "tests.vllm_standins:RecordedOffloadingConnector"}
    vllm_config = SimpleNamespace(
        cache_config=SimpleNamespace(block_size=block_size),
        parallel_config=SimpleNamespace(world_size=config.get("world_size", 1)),
        scheduler_config=SimpleNamespace(async_scheduling=config.get("async_scheduling", False)),
        kv_transfer_config=SimpleNamespace(kv_connector_extra_config=extra))
    connector = KvLedgerCaptureConnector(vllm_config, SimpleNamespace(name="SCHEDULER"), None)
    inner = connector._inner
    requests = {}
    for line in lines[1:]:
        if "add" in line:
            requests[line["add"]] = StandInRequest(line["add"], line["prompt"], block_size)
        elif "sample" in line:
            request = requests[line["sample"]]
            request.append(line.get("tokens", []))
            request.num_computed_tokens -= line.get("rejected", 0)
        elif "preempt" in line:
            request = requests[line["preempt"]]
            request.num_computed_tokens = 0
            request.status = SimpleNamespace(name="PREEMPTED")
        else:
            _call(connector, inner, requests, line)
    connector.shutdown()
    if connector._writer.error is not None:
        raise connector._writer.error
    return connector


def _call(connector, inner, requests, line):
    name = line["call"]
    if name == "get_num_new_matched_tokens":
        inner.answer = tuple(line["returns"])
        request = requests[line["req"]]
        request.gpu_hit = line["num_computed_tokens"]
        connector.get_num_new_matched_tokens(request, line["num_computed_tokens"])
    elif name == "update_state_after_alloc":
        inner.answer = None
        request = requests[line["req"]]
        connector.update_state_after_alloc(request, StandInBlocks(line["blocks"]), line["num_external_tokens"])
        if line["num_external_tokens"]:
            request.status = SimpleNamespace(name="WAITING_FOR_REMOTE_KVS")
            request.loading = request.gpu_hit + line["num_external_tokens"]
    elif name == "build_connector_meta":
        output = _scheduler_output(line, requests)
        inner.answer = SimpleNamespace(
            load_jobs={int(j): _transfer_job(r, b, False) for j, (r, b) in line.get("load_jobs", {}).items()},
            store_jobs={int(j): _transfer_job(r, b, True) for j, (r, b) in line.get("store_jobs", {}).items()},
            jobs_to_flush=set(line.get("flush", [])))
        connector.build_connector_meta(output)
        for rid, tokens in line.get("scheduled", {}).items():  # the scheduler's _update_after_schedule
            requests[rid].num_computed_tokens += tokens
            requests[rid].status = SimpleNamespace(name="RUNNING")
    elif name == "update_connector_output":
        inner.answer = None
        worker_meta = SimpleNamespace(completed_jobs={int(j): c for j, c in line.get("completed", {}).items()})
        connector.update_connector_output(SimpleNamespace(
            kv_connector_worker_meta=worker_meta, finished_sending=set(line.get("sending", [])),
            finished_recving=set(line.get("recving", []))))
        for rid in line.get("recving", []):  # the scheduler's _update_waiting_for_remote_kv
            request = requests[rid]
            request.num_computed_tokens = min(request.loading, request.num_tokens - 1)
    elif name == "request_finished":
        request = requests[line["req"]]
        request.status = SimpleNamespace(name=line["status"])
        inner.answer = tuple(line.get("returns", [False, None]))
        connector.request_finished(request, [])
    elif name == "reset_cache":
        inner.answer = True
        connector.reset_cache()
    else:
        raise ValueError("unknown call %r" % name)


def _scheduler_output(line, requests):
    new = [SimpleNamespace(req_id=rid, prompt_token_ids=requests[rid].prompt_token_ids, block_ids=(list(blocks),))
           for rid, blocks in line.get("new", {}).items()]
    cached_ids, cached_blocks, resumed = [], [], set()
    for rid, data in line.get("cached", {}).items():
        cached_ids.append(rid)
        cached_blocks.append((list(data.get("blocks", [])),))
        if data.get("resumed"):
            resumed.add(rid)
    return SimpleNamespace(
        scheduled_new_reqs=new,
        scheduled_cached_reqs=SimpleNamespace(req_ids=cached_ids, new_block_ids=cached_blocks, resumed_req_ids=resumed),
        num_scheduled_tokens=dict(line.get("scheduled", {})),
        preempted_req_ids=set(line.get("preempted", [])),
        finished_req_ids=set(line.get("finished", [])))

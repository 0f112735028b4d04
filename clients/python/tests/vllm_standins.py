"""Stand-ins for vLLM's scheduler-side objects, and a replayer of recorded call sequences through both roles.

vLLM cannot be installed here, so the capture connector is driven by call sequences recorded as data
(``vllm_calls/*.jsonl``, built from the scenarios of vLLM's own offloading-connector unit tests), on top of
the faithful stand-in of vLLM's connector base (:mod:`tests.vllm_api`). Each line is one thing the engine does:

- ``{"config": {...}}``: block sizes, world size, CPU blocks, async scheduling (first line);
- ``{"add": ID, "prompt": [...]}``: a request enters the engine (``on_new_request``);
- ``{"call": NAME, ...}``: the scheduler calls the connector (``get_num_new_matched_tokens``,
  ``update_state_after_alloc``, ``build_connector_meta``, ``update_connector_output``,
  ``request_finished``, ``reset_cache``, ``take_events``); what vLLM's OffloadingConnector returned is given
  with it (``returns``, or the jobs of the metadata), so a stand-in inner connector answers exactly that;
- ``{"sample": ID, "tokens": [...], "rejected": K}``: the engine appends sampled tokens and takes back
  K rejected speculative tokens (``update_from_output``);
- ``{"preempt": ID}``: the engine preempts a request (its computed tokens go to 0).

Each step runs through a worker-role capture connector too, as vLLM's model runner drives it: the step's
metadata goes through ``handle_preemptions``, ``bind_connector_metadata``, ``start_load_kv``,
``wait_for_save``, ``clear_connector_metadata``; an ``update_connector_output`` line is what the worker
reports through ``get_finished``, ``get_block_ids_with_load_errors`` (its ``invalid`` blocks) and
``build_connector_worker_meta``, and the scheduler-role connector gets the ``KVConnectorOutput`` made of
what the worker-role connector returned. So a member that did not reach the wrapped connector loses the
completions, and the captured log shows it.

After each ``build_connector_meta`` the engine adds the step's scheduled tokens to each request's
``num_computed_tokens``; a request in an output's ``recving`` has its load's tokens computed (the GPU hit
plus the loaded tokens, less one if that is the whole request), or only its GPU hit when its load failed.
"""

import hashlib
import json
from types import SimpleNamespace

from kvledger_capture.connector import KvLedgerCaptureConnector

from .vllm_api import KVConnectorBase_V1, KVConnectorRole, SupportsHMA

INNER = "tests.vllm_standins:RecordedOffloadingConnector"


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


class RecordedOffloadingConnector(KVConnectorBase_V1, SupportsHMA):
    """vLLM's OffloadingConnector as the replayer recorded it: each call answers what the replayer set.

    Like the real one it is ``SupportsHMA``, prefers cross-layer blocks, opts out of ``requires_kv_delivery``
    (a cache, though ``kv_both``), and its worker side reads the metadata bound to it (asserting it is set).
    """

    def __init__(self, vllm_config, role, kv_cache_config=None):
        super().__init__(vllm_config, role, kv_cache_config)
        self.answer = None
        self.calls = []
        self.worker_report = None      # what get_finished & co. answer, set by the replayer
        self.seen_metadata = []        # the metadata start_load_kv read, step by step
        self.flushed = []              # jobs_to_flush handle_preemptions got

    @property
    def prefer_cross_layer_blocks(self):
        return True

    @property
    def requires_kv_delivery(self):
        return False

    def _answer(self, name):
        self.calls.append(name)
        return self.answer

    # scheduler side
    def get_num_new_matched_tokens(self, request, num_computed_tokens):
        return self._answer("get_num_new_matched_tokens")

    def update_state_after_alloc(self, request, blocks, num_external_tokens):
        return self._answer("update_state_after_alloc")

    def build_connector_meta(self, scheduler_output):
        return self._answer("build_connector_meta")

    def update_connector_output(self, connector_output):
        self.calls.append("update_connector_output")

    def request_finished(self, request, block_ids):
        return self.request_finished_all_groups(request, (block_ids,))

    def request_finished_all_groups(self, request, block_ids):
        return self._answer("request_finished")

    def reset_cache(self):
        self.calls.append("reset_cache")
        return True

    def take_events(self):
        self.calls.append("take_events")
        events, self.answer = (self.answer or [], None)
        return events

    # worker side
    def handle_preemptions(self, kv_connector_metadata):
        self.flushed.extend(sorted(getattr(kv_connector_metadata, "jobs_to_flush", ())))

    def start_load_kv(self, forward_context, **kwargs):
        self.seen_metadata.append(self._get_connector_metadata())

    def wait_for_layer_load(self, layer_name):
        pass

    def save_kv_layer(self, layer_name, kv_layer, attn_metadata, **kwargs):
        pass

    def wait_for_save(self):
        self._get_connector_metadata()

    def get_finished(self, finished_req_ids):
        report = self.worker_report or {}
        return set(report.get("sending", ())), set(report.get("recving", ()))

    def get_block_ids_with_load_errors(self):
        return set((self.worker_report or {}).get("invalid", ()))

    def build_connector_worker_meta(self):
        completed = (self.worker_report or {}).get("completed")
        if not completed:
            return None
        return SimpleNamespace(completed_jobs={int(j): c for j, c in completed.items()})


def vllm_config(block_size, world_size=1, async_scheduling=False, extra=None):
    """The parts of ``VllmConfig`` the base and the capture read."""
    return SimpleNamespace(
        cache_config=SimpleNamespace(block_size=block_size),
        parallel_config=SimpleNamespace(world_size=world_size),
        scheduler_config=SimpleNamespace(async_scheduling=async_scheduling),
        kv_transfer_config=SimpleNamespace(kv_connector_extra_config=dict(extra or {}), kv_role="kv_both",
                                           is_kv_producer=True, is_kv_consumer=True))


def kv_cache_config(*groups):
    """``KVCacheConfig`` with its ``kv_cache_groups`` (default: one full-attention group)."""
    groups = groups or (("FullAttentionSpec", ["model.layers.0.self_attn"]),)
    specs = [SimpleNamespace(kv_cache_spec=type(kind, (), {})(), layer_names=list(layers)) for kind, layers in groups]
    return SimpleNamespace(kv_cache_groups=specs, num_blocks=1000)


def _transfer_job(req_id, block_ids, gpu_is_source):
    gpu = SimpleNamespace(block_ids=list(block_ids))
    cpu = SimpleNamespace(block_ids=[])
    return SimpleNamespace(req_id=req_id, src_spec=gpu if gpu_is_source else cpu, dst_spec=cpu if gpu_is_source else gpu)


def replay(calls_path, capture_dir):
    """Drives a capture connector pair through a recorded sequence; returns (scheduler, worker), closed."""
    with open(calls_path, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f if line.strip()]
    config = lines[0]["config"]
    block_size = config["block_size"]
    extra = {"block_size": config.get("offloaded_block_size", block_size),
             "num_cpu_blocks": config.get("num_cpu_blocks", 100),
             "kvledger_capture_dir": str(capture_dir), "kvledger_inner_connector": INNER}
    vllm = vllm_config(block_size, config.get("world_size", 1), config.get("async_scheduling", False), extra)
    scheduler = KvLedgerCaptureConnector(vllm, KVConnectorRole.SCHEDULER, kv_cache_config())
    worker = KvLedgerCaptureConnector(vllm, KVConnectorRole.WORKER, kv_cache_config())
    engine = _Engine(scheduler, worker, block_size)
    for line in lines[1:]:
        engine.do(line)
    scheduler.shutdown()
    worker.shutdown()
    if scheduler._writer.error is not None:
        raise AssertionError(scheduler._writer.error)
    return scheduler, worker


class _Engine:
    """vLLM's engine around the two connectors: its scheduler's bookkeeping and its model runner's calls."""

    def __init__(self, scheduler, worker, block_size):
        self.scheduler, self.worker = scheduler, worker
        self.inner, self.inner_worker = scheduler._inner, worker._inner
        self.block_size = block_size
        self.requests = {}
        self.finished = set()

    def do(self, line):
        requests = self.requests
        if "add" in line:
            request = requests[line["add"]] = StandInRequest(line["add"], line["prompt"], self.block_size)
            self.scheduler.on_new_request(request)
        elif "sample" in line:
            request = requests[line["sample"]]
            request.append(line.get("tokens", []))
            request.num_computed_tokens -= line.get("rejected", 0)
        elif "preempt" in line:
            request = requests[line["preempt"]]
            request.num_computed_tokens = 0
            request.status = SimpleNamespace(name="PREEMPTED")
        else:
            getattr(self, "_" + line["call"])(line)

    def _get_num_new_matched_tokens(self, line):
        self.inner.answer = tuple(line["returns"])
        request = self.requests[line["req"]]
        request.gpu_hit = line["num_computed_tokens"]
        self.scheduler.get_num_new_matched_tokens(request, line["num_computed_tokens"])

    def _update_state_after_alloc(self, line):
        self.inner.answer = None
        request = self.requests[line["req"]]
        self.scheduler.update_state_after_alloc(request, StandInBlocks(line["blocks"]), line["num_external_tokens"])
        if line["num_external_tokens"]:
            request.status = SimpleNamespace(name="WAITING_FOR_REMOTE_KVS")
            request.loading = request.gpu_hit + line["num_external_tokens"]
            request.load_blocks = set(line["blocks"])

    def _build_connector_meta(self, line):
        output = _scheduler_output(line, self.requests)
        meta = SimpleNamespace(
            load_jobs={int(j): _transfer_job(r, b, False) for j, (r, b) in line.get("load_jobs", {}).items()},
            store_jobs={int(j): _transfer_job(r, b, True) for j, (r, b) in line.get("store_jobs", {}).items()},
            jobs_to_flush=set(line.get("flush", [])))
        self.inner.answer = meta
        built = self.scheduler.build_connector_meta(output)
        assert built is meta, "the scheduler gets the offloading connector's own metadata"
        for rid, tokens in line.get("scheduled", {}).items():  # the scheduler's _update_after_schedule
            self.requests[rid].num_computed_tokens += tokens
            self.requests[rid].status = SimpleNamespace(name="RUNNING")
        # The model runner: flush before the forward pass, then the step's loads and stores.
        self.worker.handle_preemptions(built)
        self.worker.bind_connector_metadata(built)
        assert self.worker.has_connector_metadata()
        self.worker.start_load_kv(SimpleNamespace(no_compile_layers={}))
        self.worker.wait_for_save()
        self.worker.clear_connector_metadata()
        assert self.inner_worker.seen_metadata[-1] is built, "the worker's offloading connector read this step's metadata"

    def _update_connector_output(self, line):
        self.inner_worker.worker_report = line
        sending, recving = self.worker.get_finished(set(self.finished))
        invalid = self.worker.get_block_ids_with_load_errors()
        worker_meta = self.worker.build_connector_worker_meta()
        self.inner_worker.worker_report = None
        self.scheduler.update_connector_output(SimpleNamespace(
            kv_connector_worker_meta=worker_meta, finished_sending=sending, finished_recving=recving,
            invalid_block_ids=invalid, kv_connector_stats=None, kv_cache_events=None))
        for rid in recving:  # the scheduler's _update_waiting_for_remote_kv
            request = self.requests[rid]
            if invalid & getattr(request, "load_blocks", set()):
                request.num_computed_tokens = request.gpu_hit   # recompute what failed to load
            else:
                request.num_computed_tokens = min(request.loading, request.num_tokens - 1)

    def _request_finished(self, line):
        request = self.requests[line["req"]]
        request.status = SimpleNamespace(name=line["status"])
        self.inner.answer = tuple(line.get("returns", [False, None]))
        self.scheduler.request_finished(request, [])
        self.finished.add(line["req"])

    def _reset_cache(self, line):
        assert self.scheduler.reset_cache() is True

    def _take_events(self, line):
        """CPU blocks the offloading connector's manager dropped: hashes of a request's blocks, by index."""
        request = self.requests[line["req"]]
        hashes = [request.block_hashes[i] for i in line["removed_blocks"]]
        self.inner.answer = [type("BlockRemoved", (), {"block_hashes": hashes, "medium": "CPU"})()]
        self.scheduler.take_events()


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

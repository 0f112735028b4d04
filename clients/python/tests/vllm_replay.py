"""A replayer of recorded vLLM call sequences through a scheduler-role and a worker-role capture connector.

The capture connector is driven by call sequences recorded as data (``vllm_calls/*.jsonl``, built from the
scenarios of vLLM's own offloading-connector unit tests), on top of the faithful stand-ins of vLLM's connector
base (:mod:`tests.vllm_api`) and KV cache managers (:mod:`tests.vllm_kv_cache`). Each line is one thing the
engine does:

- ``{"config": {...}}``: block sizes, world size, CPU blocks, async scheduling (first line); ``groups`` gives
  the ``KVCacheConfig``'s groups (``spec``: a spec class name, ``block_size``, ``sliding_window``,
  ``is_eagle_group``, ``layers``), else the model has one full-attention group of ``block_size``;
- ``{"add": ID, "prompt": [...]}``: a request enters the engine (``on_new_request``);
- ``{"call": NAME, ...}``: the scheduler calls the connector (``get_num_new_matched_tokens``,
  ``update_state_after_alloc``, ``build_connector_meta``, ``update_connector_output``,
  ``request_finished``, ``reset_cache``, ``take_events``); what vLLM's OffloadingConnector returned is given
  with it (``returns``, or the jobs of the metadata), so a stand-in inner connector answers exactly that.
  Block ids are one list per group when the config has groups (0 is vLLM's null block); a job's lists
  become one ``GPULoadStoreSpec`` with ``group_sizes``;
- ``{"remove_skipped_blocks": ID}``: the scheduler's ``allocate_slots`` for request ID calls the KV cache
  manager's ``remove_skipped_blocks`` with the request's ``num_computed_tokens``: each group's manager frees
  what lies outside its window (a sliding-window group's), as vLLM's does;
- ``{"sample": ID, "tokens": [...], "rejected": K}``: the engine appends sampled tokens and takes back
  K rejected speculative tokens (``update_from_output``);
- ``{"preempt": ID}``: the engine preempts a request (its computed tokens go to 0, its blocks are freed).

Each step runs through a worker-role capture connector too, as vLLM's model runner drives it: the step's
metadata goes through ``handle_preemptions``, ``bind_connector_metadata``, ``start_load_kv``,
``wait_for_save``, ``clear_connector_metadata``; an ``update_connector_output`` line is what the worker
reports through ``get_finished``, ``get_block_ids_with_load_errors`` (its ``invalid`` blocks) and
``build_connector_worker_meta``, and the scheduler-role connector gets the ``KVConnectorOutput`` made of
what the worker-role connector returned. So a member that did not reach the wrapped connector loses the
completions, and the captured log shows it. A finished request reaches the connector as vLLM's scheduler
hands it over: ``request_finished_all_groups`` with one block list per group for a ``SupportsHMA``
connector, ``request_finished`` with the one group's otherwise.

After each ``build_connector_meta`` the engine adds the step's scheduled tokens to each request's
``num_computed_tokens``; a request in an output's ``recving`` has its load's tokens computed (the GPU hit
plus the loaded tokens, less one if that is the whole request), or only its GPU hit when its load failed.
"""

import json
from math import gcd
from types import SimpleNamespace

from kvledger_capture.connector import KvLedgerCaptureConnector

from . import vllm_kv_cache
from .vllm_api import KVConnectorRole, supports_hma
from .vllm_standins import INNER, StandInBlocks, StandInRequest, kv_cache_config, per_group, transfer_job, vllm_config


def recorded_kv_cache_config(config):
    """The ``KVCacheConfig`` a recording's config line describes."""
    groups = config.get("groups")
    if not groups:
        return kv_cache_config(block_size=config["block_size"])
    specs = []
    for g, group in enumerate(groups):
        options = {k: group[k] for k in ("block_size", "sliding_window", "attention_chunk_size", "is_eagle_group")
                   if k in group}
        specs.append((group["spec"], group.get("layers", ["model.layers.%d.self_attn" % g]), options))
    return kv_cache_config(*specs, block_size=config["block_size"])


def replay(calls_path, capture_dir, window_frees=True):
    """Drives a capture connector pair through a recorded sequence; returns (scheduler, worker), closed.

    ``window_frees=False`` gives vLLM's KV cache manager its own ``remove_skipped_blocks`` back before the
    replay, so the capture does not see the frees (what a capture without that hook would record).
    """
    with open(calls_path, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f if line.strip()]
    config = lines[0]["config"]
    block_size = config["block_size"]
    extra = {"block_size": config.get("offloaded_block_size", block_size),
             "num_cpu_blocks": config.get("num_cpu_blocks", 100),
             "kvledger_capture_dir": str(capture_dir), "kvledger_inner_connector": INNER,
             # vLLM's offloading tests run with offload_prompt_only false (their utils.py), as were these recordings
             "offload_prompt_only": config.get("offload_prompt_only", False)}
    if config.get("groups") and "offloaded_block_size" not in config:
        del extra["block_size"]
    vllm = vllm_config(block_size, config.get("world_size", 1), config.get("async_scheduling", False), extra)
    kv_config = recorded_kv_cache_config(config)
    scheduler = KvLedgerCaptureConnector(vllm, KVConnectorRole.SCHEDULER, kv_config)
    worker = KvLedgerCaptureConnector(vllm, KVConnectorRole.WORKER, kv_config)
    if not window_frees:
        from kvledger_capture import window_hook
        window_hook.uninstall(scheduler._window_blocks_freed)
    engine = _Engine(scheduler, worker, kv_config, bool(config.get("groups")))
    try:
        for line in lines[1:]:
            engine.do(line)
    finally:
        scheduler.shutdown()
        worker.shutdown()
    if scheduler._writer.error is not None:
        raise AssertionError(scheduler._writer.error)
    return scheduler, worker


class _Engine:
    """vLLM's engine around the two connectors: its scheduler's bookkeeping and its model runner's calls."""

    def __init__(self, scheduler, worker, kv_config, grouped):
        self.scheduler, self.worker = scheduler, worker
        self.inner, self.inner_worker = scheduler._inner, worker._inner
        self.grouped = grouped
        sizes = [g.kv_cache_spec.block_size for g in kv_config.kv_cache_groups]
        self.hash_unit = 0
        for size in sizes:
            self.hash_unit = gcd(self.hash_unit, size)
        self.pool = vllm_kv_cache.BlockPool()
        self.managers = vllm_kv_cache.managers(kv_config, self.pool)
        scheduler.bind_gpu_block_pool(self.pool)
        self.requests = {}
        self.finished = set()

    # --- the KV cache manager's tables --------------------------------------------------------------

    def _set_table(self, rid, block_ids):
        for manager, group in zip(self.managers, per_group(block_ids)):
            manager.req_to_blocks[rid] = [self.pool.block(b) for b in group]

    def _extend_table(self, rid, block_ids):
        for manager, group in zip(self.managers, per_group(block_ids)):
            manager.req_to_blocks[rid].extend(self.pool.block(b) for b in group)

    def _table_ids(self, rid):
        return tuple([b.block_id for b in m.req_to_blocks.get(rid, ())] for m in self.managers)

    def _free(self, rid):
        for manager in self.managers:
            manager.free(rid)

    def _job(self, rid, block_ids, gpu_is_source):
        indices = None
        if self.grouped:
            tables = self._table_ids(rid)
            indices = [table.index(group[0]) if group and group[0] in table else 0
                       for table, group in zip(tables, per_group(block_ids))]
        return transfer_job(rid, block_ids, gpu_is_source, indices)

    # --- the recorded lines ---------------------------------------------------------------------------

    def do(self, line):
        requests = self.requests
        if "add" in line:
            request = requests[line["add"]] = StandInRequest(line["add"], line["prompt"], self.hash_unit)
            self.scheduler.on_new_request(request)
        elif "sample" in line:
            request = requests[line["sample"]]
            request.append(line.get("tokens", []))
            request.num_computed_tokens -= line.get("rejected", 0)
        elif "preempt" in line:
            request = requests[line["preempt"]]
            request.num_computed_tokens = 0
            request.status = SimpleNamespace(name="PREEMPTED")
            self._free(line["preempt"])
        elif "remove_skipped_blocks" in line:
            rid = line["remove_skipped_blocks"]
            for manager in self.managers:  # the KV cache coordinator's remove_skipped_blocks
                manager.remove_skipped_blocks(rid, requests[rid].num_computed_tokens)
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
            self._set_table(line["req"], line["blocks"])
            request.status = SimpleNamespace(name="WAITING_FOR_REMOTE_KVS")
            request.loading = request.gpu_hit + line["num_external_tokens"]
            request.load_blocks = {b for group in per_group(line["blocks"]) for b in group}

    def _build_connector_meta(self, line):
        for rid, blocks in line.get("new", {}).items():
            self._set_table(rid, blocks)
        for rid, data in line.get("cached", {}).items():
            (self._set_table if data.get("resumed") else self._extend_table)(rid, data.get("blocks", []))
        output = _scheduler_output(line, self.requests)
        meta = SimpleNamespace(
            load_jobs={int(j): self._job(r, b, False) for j, (r, b) in line.get("load_jobs", {}).items()},
            store_jobs={int(j): self._job(r, b, True) for j, (r, b) in line.get("store_jobs", {}).items()},
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
        """vLLM's ``Scheduler._connector_finished``: all groups' blocks to an HMA connector, else group 0's."""
        rid = line["req"]
        request = self.requests[rid]
        request.status = SimpleNamespace(name=line["status"])
        self.inner.answer = tuple(line.get("returns", [False, None]))
        block_ids = self._table_ids(rid)
        if supports_hma(self.scheduler):
            self.scheduler.request_finished_all_groups(request, block_ids)
        else:
            self.scheduler.request_finished(request, block_ids[0])
        self.finished.add(rid)
        if not line.get("returns", [False])[0]:
            self._free(rid)

    def _reset_cache(self, line):
        assert self.scheduler.reset_cache() is True

    def _take_events(self, line):
        """CPU blocks the offloading connector's manager dropped: hashes of a request's blocks, by index."""
        request = self.requests[line["req"]]
        hashes = [request.block_hashes[i] for i in line["removed_blocks"]]
        self.inner.answer = [type("BlockRemoved", (), {"block_hashes": hashes, "medium": "CPU"})()]
        self.scheduler.take_events()


def _scheduler_output(line, requests):
    new = [SimpleNamespace(req_id=rid, prompt_token_ids=requests[rid].prompt_token_ids,
                           block_ids=tuple(per_group(blocks)))
           for rid, blocks in line.get("new", {}).items()]
    cached_ids, cached_blocks, resumed = [], [], set()
    for rid, data in line.get("cached", {}).items():
        cached_ids.append(rid)
        cached_blocks.append(tuple(per_group(data.get("blocks", []))))
        if data.get("resumed"):
            resumed.add(rid)
    return SimpleNamespace(
        scheduled_new_reqs=new,
        scheduled_cached_reqs=SimpleNamespace(req_ids=cached_ids, new_block_ids=cached_blocks, resumed_req_ids=resumed),
        num_scheduled_tokens=dict(line.get("scheduled", {})),
        preempted_req_ids=set(line.get("preempted", [])),
        finished_req_ids=set(line.get("finished", [])))

"""A KV connector for vLLM that records what its scheduler does with the offloading connector.

Load it in place of vLLM's ``OffloadingConnector``; it wraps one and changes nothing it decides::

    --kv-transfer-config '{"kv_connector": "KvLedgerCaptureConnector",
                           "kv_connector_module_path": "kvledger_capture.connector",
                           "kv_role": "kv_both",
                           "kv_connector_extra_config": {"block_size": 64, "num_cpu_blocks": 1000,
                                                         "kvledger_capture_dir": "/tmp/capture"}}'

In the scheduler role every call the scheduler makes is copied into a small record on the scheduler's
thread (only new tokens and hashes, never a whole sequence) and put on a queue; a writer thread
translates the records (:mod:`kvledger_capture.translate`) and appends to two files in the capture
folder: ``commands.jsonl`` (a kvledger scenario: ``kvledger run`` replays it through kvledger's rules)
and ``vllm-events.jsonl`` (vLLM's own decisions as an event log: ``kvledger audit`` judges it, and
``kvledger diff`` shows the first step where the two disagree). In the worker role it only delegates.

Written against vLLM's scheduler-side API of the offloading connector with scheduler-assigned job ids:
``OffloadingConnectorMetadata(load_jobs, store_jobs, jobs_to_flush)`` of ``TransferJob(req_id, src_spec,
dst_spec)`` and ``OffloadingWorkerMetadata.completed_jobs`` in ``KVConnectorOutput.kv_connector_worker_meta``
(vllm-project/vllm, offloading/common.py @ 03f97cce04f108cebea5865e448186da3d3e36f9; facade
offloading_connector.py and the scheduler tests read at 0072b0b7443b and 0105e232b7fa). One KV-cache
group (full attention) is captured: the block ids of group 0.
"""

import atexit
import importlib
import json
import os
import queue
import threading

from .translate import Translator

try:  # the real base class when vLLM is installed; tests run without it
    from vllm.distributed.kv_transfer.kv_connector.v1.base import KVConnectorBase_V1 as _Base
except ImportError:  # pragma: no cover - depends on the environment
    _Base = object

_STOP = object()


def _role_name(role):
    return getattr(role, "name", str(role)).upper()


def _ids(spec):
    ids = getattr(spec, "block_ids", spec)
    if hasattr(ids, "tolist"):
        ids = ids.tolist()
    return [int(b) for b in ids]


def _group0(block_ids):
    """Block ids of the first KV-cache group, from vLLM's tuple of per-group lists (or a flat list)."""
    if block_ids is None:
        return []
    if hasattr(block_ids, "get_block_ids"):
        block_ids = block_ids.get_block_ids()
    if len(block_ids) and isinstance(block_ids[0], (list, tuple)):
        return [int(b) for b in block_ids[0]]
    return [int(b) for b in block_ids]


def _hex(block_hash):
    if isinstance(block_hash, (bytes, bytearray)):
        return block_hash.hex()
    return str(block_hash)


def _status(request):
    status = getattr(request, "status", None)
    return getattr(status, "name", str(status) if status is not None else "")


class CaptureWriter:
    """The queue and the writer thread: records in, two JSON Lines files out."""

    def __init__(self, folder, config):
        os.makedirs(folder, exist_ok=True)
        self.folder = folder
        self.translator = Translator(config)
        self._queue = queue.SimpleQueue()
        self._commands = open(os.path.join(folder, "commands.jsonl"), "w", encoding="utf-8")
        self._events = open(os.path.join(folder, "vllm-events.jsonl"), "w", encoding="utf-8")
        self._commands.write(json.dumps({"config": self.translator.config}) + "\n")
        self._written = [0, 0]
        self.error = None
        self._thread = threading.Thread(target=self._run, name="kvledger-capture", daemon=True)
        self._thread.start()

    def put(self, record):
        self._queue.put(record)

    def _run(self):
        while True:
            record = self._queue.get()
            if record is _STOP:
                break
            try:
                self.translator.feed(record)
            except Exception as e:  # never let a capture problem reach the scheduler
                self.error = self.error or e
            if self._queue.empty():
                self._drain()
        self._drain()
        self._commands.close()
        self._events.close()

    def _drain(self):
        t = self.translator
        for line in t.commands[self._written[0]:]:
            self._commands.write(json.dumps(line) + "\n")
        for line in t.events[self._written[1]:]:
            self._events.write(json.dumps(line) + "\n")
        self._written = [len(t.commands), len(t.events)]
        self._commands.flush()
        self._events.flush()

    def close(self):
        """Writes what is queued and closes the files. Idempotent."""
        if self._thread.is_alive():
            self._queue.put(_STOP)
            self._thread.join()


class KvLedgerCaptureConnector(_Base):
    """vLLM's OffloadingConnector, with every scheduler-side call recorded for kvledger."""

    def __init__(self, vllm_config, role, kv_cache_config=None):
        if _Base is not object:
            super().__init__(vllm_config, role, kv_cache_config)
        extra = dict(getattr(vllm_config.kv_transfer_config, "kv_connector_extra_config", None) or {})
        self._inner = _inner_class(extra)(vllm_config, role, kv_cache_config)
        self._writer = None
        if _role_name(role) == "SCHEDULER":
            folder = extra.get("kvledger_capture_dir", "kvledger-capture")
            self._writer = CaptureWriter(folder, _engine_config(vllm_config, extra))
            self._sent_tokens = {}   # request id -> tokens already recorded (prompt included)
            self._sent_hashes = {}
            self._live = {}          # request id -> vLLM's Request, for the tokens it appends
            atexit.register(self._writer.close)

    # --- scheduler side: recorded ----------------------------------------------------------------

    def get_num_new_matched_tokens(self, request, num_computed_tokens):
        result = self._inner.get_num_new_matched_tokens(request, num_computed_tokens)
        if self._writer is not None:
            self._live[request.request_id] = request
            self._writer.put({"call": "get_num_new_matched_tokens", "request": self._snapshot(request),
                              "num_computed_tokens": int(num_computed_tokens),
                              "result": [None if result[0] is None else int(result[0]), bool(result[1])]})
        return result

    def update_state_after_alloc(self, request, blocks, num_external_tokens):
        result = self._inner.update_state_after_alloc(request, blocks, num_external_tokens)
        if self._writer is not None:
            self._live[request.request_id] = request
            self._writer.put({"call": "update_state_after_alloc", "request": self._snapshot(request),
                              "block_ids": _group0(blocks) if num_external_tokens else [],
                              "num_external_tokens": int(num_external_tokens)})
        return result

    def build_connector_meta(self, scheduler_output):
        meta = self._inner.build_connector_meta(scheduler_output)
        if self._writer is not None:
            self._writer.put(self._meta_record(scheduler_output, meta))
        return meta

    def update_connector_output(self, connector_output):
        self._inner.update_connector_output(connector_output)
        if self._writer is not None:
            worker_meta = getattr(connector_output, "kv_connector_worker_meta", None)
            completed = dict(getattr(worker_meta, "completed_jobs", None) or {})
            self._writer.put({"call": "update_connector_output",
                              "completed_jobs": {int(k): int(v) for k, v in completed.items()},
                              "finished_sending": sorted(getattr(connector_output, "finished_sending", None) or ()),
                              "finished_recving": sorted(getattr(connector_output, "finished_recving", None) or ())})

    def request_finished(self, request, block_ids):
        result = self._inner.request_finished(request, block_ids)
        self._record_finish(request, result)
        return result

    def request_finished_all_groups(self, request, block_ids):
        result = self._inner.request_finished_all_groups(request, block_ids)
        self._record_finish(request, result)
        return result

    def reset_cache(self, *args, **kwargs):
        result = self._inner.reset_cache(*args, **kwargs)
        if self._writer is not None:
            self._writer.put({"call": "reset_cache"})
        return result

    def take_events(self):
        events = list(self._inner.take_events() or ())
        if self._writer is not None:
            removed = [_hex(h) for e in events if type(e).__name__ == "BlockRemoved"
                       and str(getattr(e, "medium", "")).upper() == "CPU" for h in getattr(e, "block_hashes", ())]
            if removed:
                self._writer.put({"call": "take_events", "removed": removed})
        return events

    def shutdown(self):
        try:
            inner_shutdown = getattr(self._inner, "shutdown", None)
            if inner_shutdown is not None:
                inner_shutdown()
        finally:
            if self._writer is not None:
                self._writer.close()

    # --- worker side and everything else: delegated ------------------------------------------------

    def start_load_kv(self, forward_context, **kwargs):
        return self._inner.start_load_kv(forward_context, **kwargs)

    def wait_for_layer_load(self, layer_name):
        return self._inner.wait_for_layer_load(layer_name)

    def save_kv_layer(self, layer_name, kv_layer, attn_metadata, **kwargs):
        return self._inner.save_kv_layer(layer_name, kv_layer, attn_metadata, **kwargs)

    def wait_for_save(self):
        return self._inner.wait_for_save()

    def __getattr__(self, name):
        # Only reached for attributes this class lacks: register_kv_caches, get_finished, bind_connector_metadata, ...
        if name == "_inner":
            raise AttributeError(name)
        return getattr(self._inner, name)

    # --- records -----------------------------------------------------------------------------------

    def _snapshot(self, request):
        """The request as the translator needs it, copying only what is new since the last record."""
        rid = request.request_id
        snap = {"request_id": rid, "status": _status(request),
                "num_computed_tokens": int(getattr(request, "num_computed_tokens", 0) or 0)}
        sent = self._sent_tokens.get(rid)
        if sent is None:
            prompt = [int(t) for t in request.prompt_token_ids]
            snap["prompt_token_ids"] = prompt
            sent = len(prompt)
        total = int(getattr(request, "num_tokens", sent))
        if total > sent:
            snap["new_tokens"] = [int(t) for t in request.all_token_ids[sent:total]]
            sent = total
        self._sent_tokens[rid] = sent
        hashes = getattr(request, "block_hashes", None) or ()
        done = self._sent_hashes.get(rid, 0)
        if len(hashes) > done:
            snap["new_hashes"] = [_hex(h) for h in hashes[done:]]
            self._sent_hashes[rid] = len(hashes)
        return snap

    def _meta_record(self, output, meta):
        scheduled = []
        for new in getattr(output, "scheduled_new_reqs", None) or ():
            request = self._live.get(new.req_id)
            snap = self._snapshot(request) if request is not None else {"request_id": new.req_id,
                                                                          "prompt_token_ids": list(new.prompt_token_ids or [])}
            scheduled.append({"request": snap, "new": True, "block_ids": _group0(new.block_ids)})
        cached = getattr(output, "scheduled_cached_reqs", None)
        if cached is not None:
            resumed_ids = set(getattr(cached, "resumed_req_ids", None) or ())
            resumed_flags = list(getattr(cached, "resumed_from_preemption", None) or ())
            new_blocks = list(getattr(cached, "new_block_ids", None) or ())
            for i, rid in enumerate(cached.req_ids):
                request = self._live.get(rid)
                snap = self._snapshot(request) if request is not None else {"request_id": rid}
                resumed = rid in resumed_ids or (i < len(resumed_flags) and bool(resumed_flags[i]))
                blocks = _group0(new_blocks[i]) if i < len(new_blocks) else []
                scheduled.append({"request": snap, "resumed": resumed, "block_ids": blocks})
        record = {"call": "build_connector_meta", "scheduled": scheduled,
                  "num_scheduled_tokens": {k: int(v) for k, v in (output.num_scheduled_tokens or {}).items()},
                  "preempted_req_ids": sorted(getattr(output, "preempted_req_ids", None) or ()),
                  "finished_req_ids": sorted(getattr(output, "finished_req_ids", None) or ()),
                  "load_jobs": [{"job_id": int(j), "req_id": t.req_id, "block_ids": _ids(t.dst_spec)}
                                for j, t in sorted((getattr(meta, "load_jobs", None) or {}).items())],
                  "store_jobs": [{"job_id": int(j), "req_id": t.req_id, "block_ids": _ids(t.src_spec)}
                                 for j, t in sorted((getattr(meta, "store_jobs", None) or {}).items())],
                  "jobs_to_flush": sorted(int(j) for j in (getattr(meta, "jobs_to_flush", None) or ()))}
        for rid in record["finished_req_ids"]:
            self._live.pop(rid, None)
        return record

    def _record_finish(self, request, result):
        if self._writer is not None:
            self._writer.put({"call": "request_finished", "request": self._snapshot(request),
                              "result": [bool(result[0]) if result else False, None]})


def _inner_class(extra):
    path = extra.get("kvledger_inner_connector")
    if path:
        module, _, name = path.partition(":")
        return getattr(importlib.import_module(module), name)
    from vllm.distributed.kv_transfer.kv_connector.v1.offloading_connector import OffloadingConnector
    return OffloadingConnector


def _engine_config(vllm_config, extra):
    """The kvledger config of the captured engine, from vLLM's config and the connector's extra config."""
    block_size = int(vllm_config.cache_config.block_size)
    offloaded = int(extra.get("block_size", block_size))
    config = {"gpuBlockSize": block_size,
              "blocksPerChunk": max(1, offloaded // block_size),
              "workers": int(getattr(vllm_config.parallel_config, "world_size", 1) or 1),
              "cpuCapacityChunks": int(extra.get("kvledger_cpu_capacity_chunks", extra.get("num_cpu_blocks", 1024))),
              "releasePolicy": "FENCE"}
    if extra.get("max_offload_tokens") is not None:
        config["maxOffloadTokens"] = int(extra["max_offload_tokens"])
    if extra.get("offload_prompt_only"):
        config["offloadPromptOnly"] = True
    return config

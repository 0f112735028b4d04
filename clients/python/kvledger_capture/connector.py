"""A KV connector for vLLM that records what its scheduler does with the offloading connector.

Load it in place of vLLM's ``OffloadingConnector``; it wraps one and changes nothing it decides::

    --kv-transfer-config '{"kv_connector": "KvLedgerCaptureConnector",
                           "kv_connector_module_path": "kvledger_capture.connector",
                           "kv_role": "kv_both",
                           "kv_connector_extra_config": {"block_size": 64, "num_cpu_blocks": 1000,
                                                         "kvledger_capture_dir": "/tmp/capture"}}'

Every member of vLLM's ``KVConnectorBase_V1`` and ``SupportsHMA`` is defined here and hands the call to the
wrapped connector (properties and class methods included: ``prefer_cross_layer_blocks``,
``requires_kv_delivery``, the stats and layout class methods answer as the offloading connector answers);
only ``role`` is this wrapper's own
(the role both were built with). There is no ``__getattr__``: with vLLM installed this class subclasses the
base, so a member it did not define would be the base's default, not the offloading connector's.

In the scheduler role each scheduler-side call is also copied into a small record
(:mod:`kvledger_capture.records`) and handed to a writer thread (:mod:`kvledger_capture.writer`), which
writes ``commands.jsonl`` (a kvledger scenario) and ``vllm-events.jsonl`` (vLLM's decisions as an event
log) into the capture folder. A failure there stops the capture with one ERROR through vLLM's logger and
never reaches the scheduler.

Written against vLLM's ``KVConnectorBase_V1`` and ``SupportsHMA`` at vllm-project/vllm
003df2961dd8830c317a61f9745ccd557da9fa06 and the offloading connector with scheduler-assigned job ids
(``OffloadingConnectorMetadata(load_jobs, store_jobs, jobs_to_flush)``, ``OffloadingWorkerMetadata.completed_jobs``;
offloading/common.py @ 03f97cce04f1).

The class is ``SupportsHMA``, as the offloading connector is, so vLLM keeps its hybrid KV cache manager on:
every KV cache group of the ``kv_cache_config`` is recorded (:mod:`kvledger_capture.groups`: the log's
``groups``), the transfer specs' block ids are split per group (``group_sizes``), vLLM's null block is
``null``, the KV cache manager's frees of sliding-window blocks are ``FreeWindowBlocks``
(:mod:`kvledger_capture.window_hook`), and ``request_finished_all_groups`` reaches the wrapped connector.
A group the contract has no kind for (Mamba, chunked local attention) is refused at construction.
"""

import atexit
import importlib

from . import window_hook
from .groups import blocks_per_chunk, describe, is_revision4
from .records import Recorder
from .writer import CaptureWriter, logger

try:  # the real base classes when vLLM is installed (the tests install a faithful stand-in)
    from vllm.distributed.kv_transfer.kv_connector.v1.base import KVConnectorBase_V1 as _Base
    from vllm.distributed.kv_transfer.kv_connector.v1.base import SupportsHMA as _HMA
    _BASES = (_Base, _HMA)
except ImportError:  # pragma: no cover - depends on the environment
    _Base = object
    _BASES = (object,)


def _role_name(role):
    return getattr(role, "name", str(role)).upper()


def _extra(vllm_config):
    transfer = getattr(vllm_config, "kv_transfer_config", None)
    return dict(getattr(transfer, "kv_connector_extra_config", None) or {})


class KvLedgerCaptureConnector(*_BASES):
    """vLLM's OffloadingConnector, with every scheduler-side call recorded for kvledger."""

    #: Base members this wrapper answers itself, and why (every other one reaches the wrapped connector).
    OWN_MEMBERS = {"role": "the role this wrapper and the wrapped connector were both built with"}

    _inner_class = None   # the wrapped class, for the class methods vLLM calls without a config

    def __init__(self, vllm_config, role, kv_cache_config=None):
        extra = _extra(vllm_config)
        config = _engine_config(vllm_config, extra, kv_cache_config)  # refuses what the log cannot say
        if _Base is not object:
            super().__init__(vllm_config, role, kv_cache_config)
        inner_class = _inner_class(extra)
        KvLedgerCaptureConnector._inner_class = inner_class
        self._inner = inner_class(vllm_config, role, kv_cache_config)
        self._writer = None
        self._gpu_block_pool = None
        if _role_name(role) == "SCHEDULER":
            folder = extra.get("kvledger_capture_dir", "kvledger-capture")
            self._writer = CaptureWriter(folder, config)
            self._recorder = Recorder()
            atexit.register(self._close_capture)
            if "groups" in config:
                window_hook.install(self._window_blocks_freed)

    # --- answered as the wrapped connector answers ------------------------------------------------

    @property
    def prefer_cross_layer_blocks(self):
        return self._inner.prefer_cross_layer_blocks

    @property
    def supports_divergent_local_hybrid_hits(self):
        return getattr(self._inner, "supports_divergent_local_hybrid_hits", False)

    @property
    def supports_eagle_prefix_cache_hashing(self):  # vllm#50897 (not in main): only where the inner has it
        return getattr(self._inner, "supports_eagle_prefix_cache_hashing", False)

    @property
    def requires_kv_delivery(self):
        return self._inner.requires_kv_delivery

    def set_eagle_prefix_cache_hashing(self, enabled):
        self.use_eagle_prefix_cache_hashing = enabled
        setter = getattr(self._inner, "set_eagle_prefix_cache_hashing", None)
        return setter(enabled) if setter is not None else None

    @classmethod
    def get_required_kvcache_layout(cls, vllm_config):
        return _inner_class(_extra(vllm_config)).get_required_kvcache_layout(vllm_config)

    @classmethod
    def requires_piecewise_for_cudagraph(cls, extra_config):
        return _inner_class(dict(extra_config or {})).requires_piecewise_for_cudagraph(extra_config)

    @classmethod
    def build_kv_connector_stats(cls, data=None):
        return (cls._inner_class or _inner_class({})).build_kv_connector_stats(data)

    @classmethod
    def build_prom_metrics(cls, vllm_config, metric_types, labelnames, per_engine_labelvalues):
        return _inner_class(_extra(vllm_config)).build_prom_metrics(
            vllm_config, metric_types, labelnames, per_engine_labelvalues)

    # --- worker side: delegated --------------------------------------------------------------------

    def bind_connector_metadata(self, connector_metadata):
        return self._inner.bind_connector_metadata(connector_metadata)

    def clear_connector_metadata(self):
        return self._inner.clear_connector_metadata()

    def _get_connector_metadata(self):
        return self._inner._get_connector_metadata()

    def has_connector_metadata(self):
        return self._inner.has_connector_metadata()

    def register_kv_caches(self, kv_caches):
        return self._inner.register_kv_caches(kv_caches)

    def register_cross_layers_kv_cache(self, kv_cache, attn_backend):
        return self._inner.register_cross_layers_kv_cache(kv_cache, attn_backend)

    def set_host_xfer_buffer_ops(self, copy_operation):
        return self._inner.set_host_xfer_buffer_ops(copy_operation)

    def handle_preemptions(self, kv_connector_metadata):
        return self._inner.handle_preemptions(kv_connector_metadata)

    def start_load_kv(self, forward_context, **kwargs):
        return self._inner.start_load_kv(forward_context, **kwargs)

    def wait_for_layer_load(self, layer_name):
        return self._inner.wait_for_layer_load(layer_name)

    def save_kv_layer(self, layer_name, kv_layer, attn_metadata, **kwargs):
        return self._inner.save_kv_layer(layer_name, kv_layer, attn_metadata, **kwargs)

    def wait_for_save(self):
        return self._inner.wait_for_save()

    def get_finished(self, finished_req_ids):
        return self._inner.get_finished(finished_req_ids)

    def get_block_ids_with_load_errors(self):
        return self._inner.get_block_ids_with_load_errors()

    def get_kv_connector_stats(self):
        return self._inner.get_kv_connector_stats()

    def get_kv_connector_kv_cache_events(self):
        return self._inner.get_kv_connector_kv_cache_events()

    def get_handshake_metadata(self):
        return self._inner.get_handshake_metadata()

    def build_connector_worker_meta(self):
        return self._inner.build_connector_worker_meta()

    def get_finished_count(self):
        return self._inner.get_finished_count()

    def set_xfer_handshake_metadata(self, metadata):
        return self._inner.set_xfer_handshake_metadata(metadata)

    def set_xfer_handshake_metadata_pp_aware(self, metadata):
        return self._inner.set_xfer_handshake_metadata_pp_aware(metadata)

    def shutdown(self):
        try:
            return self._inner.shutdown()
        finally:
            self._close_capture()

    def _close_capture(self):
        """Stops listening to the KV cache manager, writes what is queued and closes the files. Idempotent."""
        if self._writer is not None:
            window_hook.uninstall(self._window_blocks_freed)
            self._writer.close()

    # --- scheduler side: delegated, and recorded -------------------------------------------------------

    def bind_gpu_block_pool(self, gpu_block_pool):
        self._gpu_block_pool = gpu_block_pool  # which KV cache manager's frees are this engine's
        return self._inner.bind_gpu_block_pool(gpu_block_pool)

    def on_new_request(self, request):
        return self._inner.on_new_request(request)

    def has_pending_push_work(self):
        return self._inner.has_pending_push_work()

    def get_num_new_matched_tokens(self, request, num_computed_tokens):
        result = self._inner.get_num_new_matched_tokens(request, num_computed_tokens)
        self._record(lambda r: r.matched(request, num_computed_tokens, result), "get_num_new_matched_tokens")
        return result

    def update_state_after_alloc(self, request, blocks, num_external_tokens):
        result = self._inner.update_state_after_alloc(request, blocks, num_external_tokens)
        self._record(lambda r: r.allocated(request, blocks, num_external_tokens), "update_state_after_alloc")
        return result

    def build_connector_meta(self, scheduler_output):
        meta = self._inner.build_connector_meta(scheduler_output)
        self._record(lambda r: r.meta(scheduler_output, meta), "build_connector_meta")
        return meta

    def update_connector_output(self, connector_output):
        result = self._inner.update_connector_output(connector_output)
        self._record(lambda r: r.output(connector_output), "update_connector_output")
        return result

    def request_finished(self, request, block_ids):
        result = self._inner.request_finished(request, block_ids)
        self._record(lambda r: r.finished(request, result), "request_finished")
        return result

    def request_finished_all_groups(self, request, block_ids):
        result = self._inner.request_finished_all_groups(request, block_ids)
        self._record(lambda r: r.finished(request, result), "request_finished_all_groups")
        return result

    def reset_cache(self):
        result = self._inner.reset_cache()
        self._record(lambda r: {"call": "reset_cache"}, "reset_cache")
        return result

    def take_events(self):
        events = self._inner.take_events()
        if self._writer is None or self._writer.error is not None:
            return events
        events = list(events or ())
        self._record(lambda r: Recorder.evicted(events), "take_events")
        return events

    def _window_blocks_freed(self, manager, request_id, freed):
        """The KV cache manager of this engine (the one whose block pool vLLM bound) freed window blocks."""
        pool = self._gpu_block_pool
        if pool is not None and getattr(manager, "block_pool", pool) is not pool:
            return

        def make(recorder):
            group, block_ids = freed()
            return recorder.window_freed(request_id, group, block_ids) if block_ids else None
        self._record(make, "remove_skipped_blocks")

    def _record(self, make, call):
        """Copies a call into a record for the writer; a failure stops the capture, never the scheduler."""
        writer = self._writer
        if writer is None or writer.error is not None:
            return
        try:
            record = make(self._recorder)
        except Exception as e:
            writer.fail("cannot copy %s: %s: %s" % (call, type(e).__name__, e))
            return
        if record is not None:
            writer.put(record)


def _inner_class(extra):
    path = extra.get("kvledger_inner_connector")
    if path:
        module, _, name = path.partition(":")
        return getattr(importlib.import_module(module), name)
    from vllm.distributed.kv_transfer.kv_connector.v1.offloading_connector import OffloadingConnector
    return OffloadingConnector


def _engine_config(vllm_config, extra, kv_cache_config):
    """The kvledger config of the captured engine, from vLLM's config, its KV cache groups and the connector's
    extra config; a group or geometry the contract cannot say is refused, logged at ERROR and raised."""
    try:
        groups = describe(kv_cache_config)
        if is_revision4(groups):
            block_size = int(vllm_config.cache_config.block_size)
            offloaded = int(extra.get("block_size", block_size))
            config = {"gpuBlockSize": block_size, "blocksPerChunk": max(1, offloaded // block_size)}
        else:
            offloaded = extra.get("block_size")
            config = {"blocksPerChunk": blocks_per_chunk(groups, None if offloaded is None else int(offloaded))}
    except ValueError as e:
        logger.error("%s", e)
        raise
    config["workers"] = int(getattr(vllm_config.parallel_config, "world_size", 1) or 1)
    config["cpuCapacityChunks"] = int(extra.get("kvledger_cpu_capacity_chunks", extra.get("num_cpu_blocks", 1024)))
    config["releasePolicy"] = "FENCE"
    if extra.get("max_offload_tokens") is not None:
        config["maxOffloadTokens"] = int(extra["max_offload_tokens"])
    if extra.get("offload_prompt_only"):
        config["offloadPromptOnly"] = True
    if not is_revision4(groups):
        config["groups"] = groups
    return config

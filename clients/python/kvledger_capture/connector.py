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
import os

from . import __version__, window_hook
from .groups import check_blocks_per_chunk, describe, hash_block_size, is_revision4
from .records import Recorder
from .writer import CaptureWriter, ProcessWriter, logger

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
        scheduler_role = _role_name(role) == "SCHEDULER"
        groups = _refuse_what_the_log_cannot_say(extra, kv_cache_config) if scheduler_role else None
        if _Base is not object:
            super().__init__(vllm_config, role, kv_cache_config)
        inner_class = _inner_class(extra)
        KvLedgerCaptureConnector._inner_class = inner_class
        self._inner = inner_class(vllm_config, role, kv_cache_config)
        self._writer = None
        self._gpu_block_pool = None
        self._scheduler = None
        if scheduler_role:  # the worker role records nothing, so it refuses nothing
            self._scheduler = getattr(self._inner, "connector_scheduler", None)
            _refuse_other_tiers(extra, self._scheduler)
            config = _engine_config(vllm_config, extra, groups, self._scheduler)
            folder = engine_folder(extra, vllm_config)
            writer = CaptureWriter if extra.get("kvledger_capture_writer") == "thread" else ProcessWriter
            self._writer = writer(folder, config, producer=producer(), segment_bytes=_segment_bytes(extra))
            self._recorder = Recorder(self._scheduler)
            self._evicted = []  # (request id, evicted offload keys) of the step being built, in vLLM's order
            _listen_to_evictions(self._scheduler, self._evicted)
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
        result = self._inner.on_new_request(request)
        if self._writer is not None:
            self._recorder.added(request)  # a request first scheduled mid-stream is known by then
        return result

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
        if self._writer is None:
            return self._inner.build_connector_meta(scheduler_output)
        evicted = self._evicted
        del evicted[:]
        meta = self._inner.build_connector_meta(scheduler_output)
        self._record(lambda r: r.meta(scheduler_output, meta, evicted), "build_connector_meta")
        del evicted[:]
        kick = getattr(self._writer, "kick", None)
        if kick is not None:
            kick()
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
        self._record(lambda r: r.reset(), "reset_cache")
        return result

    def take_events(self):
        events = self._inner.take_events()
        if self._writer is None or self._writer.error is not None:
            return events
        events = list(events or ())
        if not _listens_to_evictions(self._scheduler):  # else the CPU manager told the capture already
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


#: Settings of the offloading connector's extra config that contract revision 6 does not model (section 9.4):
#: name -> (whether the value is one the contract models, what to do instead).
_UNMODELLED = {
    "eviction_policy": (lambda v: str(v).lower() == "lru", "the contract's tier is LRU; leave eviction_policy unset"),
    "cache_policy_module_path": (lambda v: not v, "the contract's tier is LRU; a custom cache policy is not modelled"),
    "store_threshold": (lambda v: int(v) <= 1, "the contract stores every offered chunk; store_threshold 0 or 1 does"),
    "enable_request_free_prefetch": (lambda v: not v, "the contract has no load job without a request"),
}


def _refuse_what_the_log_cannot_say(extra, kv_cache_config):
    """The engine's KV cache groups, or a ValueError (logged at ERROR) naming the group or the setting that
    contract revision 6 cannot say (section 9.4). Only the scheduler role, which writes the log, refuses."""
    try:
        for name, (modelled, instead) in _UNMODELLED.items():
            if name in extra and extra[name] is not None:
                try:
                    ok = modelled(extra[name])
                except (TypeError, ValueError):
                    ok = False
                if not ok:
                    raise ValueError("kvledger capture cannot record kv_connector_extra_config %s=%r: not modelled "
                                     "in contract revision 6 (section 9.4); %s (docs/vllm-capture.md)"
                                     % (name, extra[name], instead))
        return describe(kv_cache_config)
    except ValueError as e:
        logger.error("%s", e)
        raise


def _refuse_other_tiers(extra, scheduler):
    """A tier other than vLLM's CPU memory manager (a tiering spec's ``spec_name``) is not modelled (9.4): told by
    the manager vLLM's scheduler built, whatever the spec is called."""
    manager = getattr(scheduler, "manager", None)
    if manager is None:
        return
    if "CPUOffloadingManager" not in [cls.__name__ for cls in type(manager).__mro__]:
        message = ("kvledger capture cannot record kv_connector_extra_config spec_name=%r: its tier (%s) is not "
                   "vLLM's CPU memory tier, not modelled in contract revision 6 (section 9.4); capture with "
                   "CPUOffloadingSpec (docs/vllm-capture.md)" % (extra.get("spec_name"), type(manager).__name__))
        logger.error("%s", message)
        raise ValueError(message)


def _engine_config(vllm_config, extra, groups, scheduler):
    """The kvledger config of the captured engine. What vLLM's offloading scheduler derived (``blocks_per_chunk``,
    the worker count, ``offload_prompt_only``, each group's EAGLE flag, the CPU tier's blocks) is read from the
    wrapped connector's own scheduler config and manager, not derived again; only an inner connector without
    them (not vLLM's) falls back to the extra config, with vLLM's defaults."""
    try:
        config = _offloading_facts(vllm_config, extra, scheduler, groups)
        if groups is not None and "eagle" in config:
            for group, eagle in zip(groups, config.pop("eagle")):
                group["eagle"] = bool(eagle)
        config.pop("eagle", None)
        tokens_per_hash = config.pop("tokensPerHash", None)
        unit = hash_block_size(groups) if groups else int(vllm_config.cache_config.block_size)
        if tokens_per_hash is not None and int(tokens_per_hash) != unit:
            raise ValueError("kvledger capture: vLLM hashes blocks of %d tokens where the KV cache groups give %d "
                             "(--prefix-match-unit, or decode context parallelism): the capture's keys would name "
                             "the wrong prefixes, so it is not modelled (docs/vllm-capture.md)" % (tokens_per_hash, unit))
        if is_revision4(groups):
            block_size = int(groups[0]["blockSize"]) if groups else int(vllm_config.cache_config.block_size)
            config = dict({"gpuBlockSize": block_size}, **config)
        else:
            check_blocks_per_chunk(groups, config["blocksPerChunk"])
            config["groups"] = groups
    except ValueError as e:
        logger.error("%s", e)
        raise
    return config


def _offloading_facts(vllm_config, extra, scheduler, groups):
    facts = getattr(scheduler, "config", None)
    manager = getattr(scheduler, "manager", None)
    out = {}
    if facts is not None:
        out["blocksPerChunk"] = int(facts.blocks_per_chunk)
        out["workers"] = int(facts.num_workers)
    else:
        out["blocksPerChunk"] = _blocks_per_chunk_of(vllm_config, extra, groups)
        out["workers"] = int(getattr(vllm_config.parallel_config, "world_size", 1) or 1)
    capacity = getattr(manager, "_num_blocks", None)
    if capacity is None:
        capacity = extra.get("kvledger_cpu_capacity_chunks", extra.get("num_cpu_blocks", 1024))
    out["cpuCapacityChunks"] = int(capacity)
    out["releasePolicy"] = "FENCE"
    prompt_only = facts.offload_prompt_only if facts is not None else extra.get("offload_prompt_only", True)
    if prompt_only:
        out["offloadPromptOnly"] = True
    if facts is not None and getattr(facts, "kv_group_configs", None) is not None:
        out["eagle"] = [bool(g.is_eagle_group) for g in facts.kv_group_configs]
    if facts is not None and getattr(facts, "tokens_per_hash", None) is not None:
        out["tokensPerHash"] = facts.tokens_per_hash
    return out


def _blocks_per_chunk_of(vllm_config, extra, groups):
    """vLLM's ``build_offloading_config``: ``blocks_per_chunk``, else ``block_size`` over the groups' one block
    size (vLLM refuses ``block_size`` with groups of different block sizes)."""
    if extra.get("blocks_per_chunk") is not None:
        return int(extra["blocks_per_chunk"])
    if extra.get("block_size") is None:
        return 1
    sizes = sorted({g["blockSize"] for g in groups}) if groups else [int(vllm_config.cache_config.block_size)]
    if len(sizes) > 1:
        raise ValueError("kvledger capture: the offloaded block_size %s needs every KV cache group to have one block "
                         "size, as vLLM's offloading config does; the groups have %s"
                         % (extra["block_size"], ", ".join(str(s) for s in sizes)))
    return max(1, int(extra["block_size"]) // sizes[0])


def engine_folder(extra, vllm_config):
    """The capture folder of this engine: ``kvledger_capture_dir``, and in it one folder per data-parallel engine
    (``dp<rank>``) when vLLM runs several, so no two engines write the same files."""
    folder = extra.get("kvledger_capture_dir", "kvledger-capture")
    parallel = getattr(vllm_config, "parallel_config", None)
    size = int(getattr(parallel, "data_parallel_size", 1) or 1)
    if size > 1:
        rank = getattr(parallel, "data_parallel_index", None)
        if rank is None:
            rank = getattr(parallel, "data_parallel_rank", 0)
        return os.path.join(folder, "dp%d" % int(rank or 0))
    return folder


def _segment_bytes(extra):
    value = extra.get("kvledger_capture_segment_bytes")
    return int(value) if value else 0


def producer():
    """``producer`` of the log (contract 9.3): the capture's version and vLLM's (its installed distribution's,
    else its module's ``__version__``)."""
    try:
        from importlib.metadata import PackageNotFoundError, version as installed
        try:
            version = installed("vllm")
        except PackageNotFoundError:
            import vllm
            version = getattr(vllm, "__version__", None)
    except ImportError:
        version = None
    return "kvledger_capture %s / vLLM %s" % (__version__, version or "unknown")


_EVICTION_LISTENERS = "__kvledger_evicted__"


def _listen_to_evictions(scheduler, evicted):
    """Hears what the CPU manager evicts to make room for a store, with the request it stores for, while vLLM's
    ``prepare_store`` runs (inside ``build_connector_meta``): whether or not vLLM's KV events are on, and with
    vLLM's own offload keys (the block hash and the group), which are the keys the capture writes."""
    manager = getattr(scheduler, "manager", None)
    prepare = getattr(manager, "prepare_store", None)
    if prepare is None:
        return

    def prepare_store(keys, req_context, *args, **kwargs):
        output = prepare(keys, req_context, *args, **kwargs)
        if output is None:  # no room: vLLM makes no job and offers the chunks again next step (StoreDeferred)
            evicted.append(("deferred", getattr(req_context, "req_id", None), [bytes(k).hex() for k in keys]))
            return output
        gone = getattr(output, "evicted_keys", None)
        if gone:
            evicted.append(("evicted", getattr(req_context, "req_id", None), [bytes(k).hex() for k in gone]))
        return output
    manager.prepare_store = prepare_store
    setattr(manager, _EVICTION_LISTENERS, True)


def _listens_to_evictions(scheduler):
    return bool(getattr(getattr(scheduler, "manager", None), _EVICTION_LISTENERS, False))

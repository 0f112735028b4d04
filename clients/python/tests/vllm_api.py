"""A stand-in of vLLM's KV connector API: ``KVConnectorBase_V1`` and ``SupportsHMA`` with exactly their members.

Written for these tests (vLLM is not installed for the default suite) from vLLM's own source, read, not copied:
``vllm/distributed/kv_transfer/kv_connector/v1/base.py`` of vLLM main of 2026-08 (about v0.28.0; upstream main
merged up to 2026-08-14, 75b227d85, the snapshot the conformance harness runs). It has ``requires_kv_delivery``
(vllm-project/vllm#50297), ``supports_divergent_local_hybrid_hits`` (#50344, read by the scheduler's local
prefix-cache hit), ``has_pending_push_work``, ``bind_gpu_block_pool``, ``on_new_request``,
``build_connector_worker_meta``, and ``SupportsHMA``, whose one member is the abstract
``request_finished_all_groups(request, block_ids)``, with ``supports_hma``; it does not have the EAGLE
prefix-cache hashing members of the unmerged #50897. Names, signatures (parameter names and defaults) and the
base's default behaviour are vLLM's; the bodies are this file's own. ``test_connector_api`` lists every public
member of the base by introspection, so a member added here that the capture connector neither delegates nor
owns fails that test; ``conformance/base_check.py`` compares these classes with vLLM's real ones member by
member wherever the conformance harness runs, so drift of vLLM's base is caught there.

``install()`` puts the module paths the capture connector imports (``vllm.logger``, the base module, and
the KV cache manager module of :mod:`tests.vllm_kv_cache`) into ``sys.modules`` when vLLM itself is not
importable.
"""

import enum
import logging
import sys
import types
from abc import ABC, abstractmethod

VLLM_SNAPSHOT = "vLLM main of 2026-08 (upstream 75b227d85)"
BASE_PATH = "vllm/distributed/kv_transfer/kv_connector/v1/base.py"


def init_logger(name):
    """``vllm.logger.init_logger``: a standard-library logger of that name."""
    return logging.getLogger(name)


logger = init_logger("vllm.distributed.kv_transfer.kv_connector.v1.base")


class SupportsHMA(ABC):
    """Marks a connector that can run with vLLM's hybrid memory allocator (several KV cache groups)."""

    @abstractmethod
    def request_finished_all_groups(self, request, block_ids):
        """Once per finished request, with one block-id list per group; returns (delay the free, params)."""
        raise NotImplementedError


def supports_hma(connector):
    if isinstance(connector, type):
        return issubclass(connector, SupportsHMA)
    return isinstance(connector, SupportsHMA)


class KVConnectorRole(enum.Enum):
    SCHEDULER = 0
    WORKER = 1


class KVConnectorHandshakeMetadata(ABC):  # noqa: B024 - a marker, as in vLLM
    pass


class KVConnectorMetadata(ABC):  # noqa: B024
    """Scheduler-side connector -> worker-side connector, once per step."""


class KVConnectorWorkerMetadata(ABC):
    """Worker-side connector -> scheduler-side connector, aggregated over the workers."""

    @abstractmethod
    def aggregate(self, other):
        pass


class KVConnectorBase_V1(ABC):  # noqa: N801 - vLLM's name
    """The members of vLLM's base, with its defaults."""

    @property
    def supports_divergent_local_hybrid_hits(self):
        # whether an external hit can complete a local hybrid hit whose groups diverge; vLLM: False
        return False

    @property
    def prefer_cross_layer_blocks(self):
        return False

    @property
    def requires_kv_delivery(self):
        # vLLM: the producer role (kv_producer or kv_both) must deliver its KV; a cache opts out.
        return self._kv_transfer_config.is_kv_producer

    def __init__(self, vllm_config, role, kv_cache_config):
        # vLLM warns here that the API is experimental; the stand-in says it at DEBUG, not to fill test output.
        logger.debug("Initializing KVConnectorBase_V1 (stand-in of %s).", VLLM_SNAPSHOT)
        self._connector_metadata = None
        self._vllm_config = vllm_config
        if vllm_config.kv_transfer_config is None:
            raise ValueError("kv_transfer_config must be set for KVConnectorBase_V1")
        self._kv_transfer_config = vllm_config.kv_transfer_config
        self._kv_cache_config = kv_cache_config
        self._role = role

    @property
    def role(self):
        return self._role

    # --- worker side ---------------------------------------------------------------------------

    def bind_connector_metadata(self, connector_metadata):
        self._connector_metadata = connector_metadata

    def clear_connector_metadata(self):
        self._connector_metadata = None

    def _get_connector_metadata(self):
        assert self._connector_metadata is not None
        return self._connector_metadata

    def has_connector_metadata(self):
        return self._connector_metadata is not None

    def register_kv_caches(self, kv_caches):
        return

    def register_cross_layers_kv_cache(self, kv_cache, attn_backend):
        return

    def set_host_xfer_buffer_ops(self, copy_operation):
        return

    def handle_preemptions(self, kv_connector_metadata):
        return

    @abstractmethod
    def start_load_kv(self, forward_context, **kwargs):
        pass

    @abstractmethod
    def wait_for_layer_load(self, layer_name):
        pass

    @abstractmethod
    def save_kv_layer(self, layer_name, kv_layer, attn_metadata, **kwargs):
        pass

    @abstractmethod
    def wait_for_save(self):
        pass

    def get_finished(self, finished_req_ids):
        return None, None

    def get_block_ids_with_load_errors(self):
        return set()

    def shutdown(self):
        return None

    def get_kv_connector_stats(self):
        return None

    def get_kv_connector_kv_cache_events(self):
        return None

    def get_handshake_metadata(self):
        return None

    def build_connector_worker_meta(self):
        return None

    # --- scheduler side ------------------------------------------------------------------------

    def bind_gpu_block_pool(self, gpu_block_pool):
        return

    @abstractmethod
    def get_num_new_matched_tokens(self, request, num_computed_tokens):
        pass

    @abstractmethod
    def update_state_after_alloc(self, request, blocks, num_external_tokens):
        pass

    @abstractmethod
    def build_connector_meta(self, scheduler_output):
        pass

    def on_new_request(self, request):
        return

    def update_connector_output(self, connector_output):
        return

    def request_finished(self, request, block_ids):
        return False, None

    def take_events(self):
        return ()

    def has_pending_push_work(self):
        return False

    @classmethod
    def get_required_kvcache_layout(cls, vllm_config):
        if cls is KVConnectorBase_V1:
            raise TypeError("get_required_kvcache_layout should not be called on the abstract base class")
        return None

    @classmethod
    def requires_piecewise_for_cudagraph(cls, extra_config):
        return False

    def get_finished_count(self):
        return None

    @classmethod
    def build_kv_connector_stats(cls, data=None):
        return None

    def set_xfer_handshake_metadata(self, metadata):
        return None

    def set_xfer_handshake_metadata_pp_aware(self, metadata):
        if any(pp_rank != 0 for pp_rank, _ in metadata):
            raise ValueError("%s received pp_rank > 0 handshake metadata but does not support "
                             "PP-disaggregated KV transfer." % type(self).__name__)
        self.set_xfer_handshake_metadata({tp_rank: meta for (_, tp_rank), meta in metadata.items()})

    @classmethod
    def build_prom_metrics(cls, vllm_config, metric_types, labelnames, per_engine_labelvalues):
        return None

    def reset_cache(self):
        logger.debug("Connector cache reset requested, but %s does not implement reset_cache().", type(self).__name__)
        return None


def public_members(cls):
    """The public members a connector class has from ``cls`` (its own and inherited), sorted."""
    return sorted(name for name in dir(cls) if not name.startswith("_"))


def install():
    """Makes ``import vllm.logger`` and the base module resolve here, unless vLLM is installed."""
    try:
        import vllm  # noqa: F401 - a real vLLM wins
        return
    except ImportError:
        pass
    from . import vllm_kv_cache
    this = sys.modules[__name__]
    modules = {".".join(BASE_PATH[:-3].split("/")): this, "vllm.logger": this}
    modules.update({name: vllm_kv_cache for name in vllm_kv_cache.MODULES})
    for path, module in modules.items():
        parts = path.split(".")
        for i in range(1, len(parts)):
            name = ".".join(parts[:i])
            sys.modules.setdefault(name, types.ModuleType(name))
        sys.modules[path] = module

"""Stand-ins for vLLM's scheduler-side objects the capture reads, and vLLM's offloading connector as recorded.

vLLM cannot be installed here: the capture connector is driven by recorded call sequences
(:mod:`tests.vllm_replay`) on top of the faithful stand-in of vLLM's connector base (:mod:`tests.vllm_api`)
and of its KV cache side (:mod:`tests.vllm_kv_cache`). This module has the objects vLLM hands the connector:
``Request``, ``KVCacheBlocks``, the ``VllmConfig`` and ``KVCacheConfig`` parts read, the transfer jobs with
their ``GPULoadStoreSpec`` (``block_ids`` of all groups, ``group_sizes``, ``block_indices``), and the
offloading connector that answers what the recording says it answered.
"""

import hashlib
import json
from types import SimpleNamespace

from . import vllm_kv_cache
from .vllm_api import KVConnectorBase_V1, SupportsHMA

INNER = "tests.vllm_standins:RecordedOffloadingConnector"


class StandInRequest:
    """The attributes of vLLM's ``Request`` the capture reads; ``block_size`` is its hash unit (vLLM's
    ``hash_block_size``: the block size, or with groups the greatest common divisor of theirs)."""

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
    """``KVCacheBlocks``: block ids per group (a flat list is one group's)."""

    def __init__(self, block_ids):
        self._ids = per_group(block_ids)

    def get_block_ids(self):
        return tuple(list(group) for group in self._ids)


def per_group(block_ids):
    """A recording's block ids as one list per group (a flat list is one group's)."""
    block_ids = list(block_ids or ())
    if block_ids and isinstance(block_ids[0], list):
        return [list(group) for group in block_ids]
    return [block_ids]


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
        self.finished_block_ids = {}   # request id -> the per-group block ids request_finished_all_groups got

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
        return self._answer("request_finished")

    def request_finished_all_groups(self, request, block_ids):
        self.finished_block_ids[request.request_id] = tuple(list(group) for group in block_ids)
        return self._answer("request_finished_all_groups")

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


def kv_cache_config(*groups, block_size=4):
    """``KVCacheConfig`` with its ``kv_cache_groups`` (default: one full-attention group of ``block_size``).

    Each group is ``(spec class name, layer names)`` or ``(name, layers, options)``, options being the spec's
    (``block_size``, ``sliding_window``, ``attention_chunk_size``) and ``is_eagle_group``.
    """
    groups = groups or (("FullAttentionSpec", ["model.layers.0.self_attn"]),)
    specs = []
    for group in groups:
        kind, layers = group[0], group[1]
        options = dict(group[2]) if len(group) > 2 else {}
        eagle = bool(options.pop("is_eagle_group", False))
        options.setdefault("block_size", block_size)
        spec = vllm_kv_cache.SPECS[kind](**options)
        specs.append(vllm_kv_cache.KVCacheGroupSpec(layers, spec, is_eagle_group=eagle))
    return vllm_kv_cache.KVCacheConfig(num_blocks=1000, kv_cache_tensors=[], kv_cache_groups=specs)


def transfer_job(req_id, block_ids, gpu_is_source, block_indices=None):
    """A ``TransferJob``: its GPU spec lists every group's blocks in one ``block_ids``, group after group, with
    ``group_sizes`` and ``block_indices`` (each group's first table index) when the model has groups (vLLM's
    ``GPULoadStoreSpec``)."""
    lists = per_group(block_ids)
    gpu = SimpleNamespace(block_ids=[b for group in lists for b in group])
    if block_indices is not None:
        gpu.group_sizes = [len(group) for group in lists]
        gpu.block_indices = list(block_indices)
    cpu = SimpleNamespace(block_ids=[])
    return SimpleNamespace(req_id=req_id, src_spec=gpu if gpu_is_source else cpu, dst_spec=cpu if gpu_is_source else gpu)

"""A stand-in of vLLM's KV cache side the capture reads: the KV cache specs and groups of a ``KVCacheConfig``,
and the single-type KV cache managers whose ``remove_skipped_blocks`` frees sliding-window blocks.

Written for these tests (vLLM cannot be installed here) from vLLM's source, read, not copied:
``vllm/v1/core/single_type_kv_cache_manager.py`` as it stands in a fork of vLLM's main kept by one of its
maintainers, NickLucche/vllm at commit ef357e9984c5fd936562cb5949bb2b0269003b8f (the newest version of that file
the search tool's index holds; vllm-project/vllm's own copy there predates ``get_num_skipped_tokens``), and
``vllm/v1/kv_cache_interface.py`` for ``KVCacheGroupSpec(layer_names, kv_cache_spec, is_eagle_group)``. Names,
attributes and signatures are vLLM's (``req_to_blocks``, ``kv_cache_group_id``, ``block_pool``,
``_null_block``, ``remove_skipped_blocks(request_id, total_computed_tokens)``, ``get_num_skipped_tokens``);
the bodies are this file's own, with vLLM's rule: a sliding-window manager skips
``max(0, total_computed_tokens - sliding_window + 1)`` tokens, replaces the whole blocks before them by the
null block (walking back from the last until one is already null) and gives them to the block pool.
"""

from collections import defaultdict


# --- vllm/v1/kv_cache_interface.py ------------------------------------------------------------------

class KVCacheSpec:
    def __init__(self, block_size):
        self.block_size = block_size


class AttentionSpec(KVCacheSpec):
    pass


class FullAttentionSpec(AttentionSpec):
    pass


class MLAAttentionSpec(FullAttentionSpec):
    pass


class SlidingWindowSpec(AttentionSpec):
    def __init__(self, block_size, sliding_window):
        super().__init__(block_size)
        self.sliding_window = sliding_window


class ChunkedLocalAttentionSpec(AttentionSpec):
    def __init__(self, block_size, attention_chunk_size):
        super().__init__(block_size)
        self.attention_chunk_size = attention_chunk_size


class MambaSpec(KVCacheSpec):
    pass


SPECS = {cls.__name__: cls for cls in (FullAttentionSpec, MLAAttentionSpec, SlidingWindowSpec,
                                       ChunkedLocalAttentionSpec, MambaSpec)}


class KVCacheGroupSpec:
    def __init__(self, layer_names, kv_cache_spec, is_eagle_group=False):
        self.layer_names = list(layer_names)
        self.kv_cache_spec = kv_cache_spec
        self.is_eagle_group = is_eagle_group


class KVCacheConfig:
    def __init__(self, num_blocks, kv_cache_tensors, kv_cache_groups):
        self.num_blocks = num_blocks
        self.kv_cache_tensors = kv_cache_tensors
        self.kv_cache_groups = kv_cache_groups


# --- vllm/v1/core/block_pool.py, kv_cache_utils.py -----------------------------------------------------

class KVCacheBlock:
    def __init__(self, block_id, is_null=False):
        self.block_id = block_id
        self.ref_cnt = 0
        self.is_null = is_null


class BlockPool:
    """The pool's null block (id 0) and its blocks by id; ``freed`` is what managers gave back, in order."""

    def __init__(self):
        self.null_block = KVCacheBlock(0, is_null=True)
        self._blocks = {}
        self.freed = []

    def block(self, block_id):
        if block_id == 0:
            return self.null_block
        return self._blocks.setdefault(block_id, KVCacheBlock(block_id))

    def free_blocks(self, ordered_blocks):
        self.freed.extend(b.block_id for b in ordered_blocks)


# --- vllm/v1/core/single_type_kv_cache_manager.py ---------------------------------------------------

class SingleTypeKVCacheManager:

    def __init__(self, kv_cache_spec, block_pool, kv_cache_group_id):
        self.block_size = kv_cache_spec.block_size
        self.kv_cache_spec = kv_cache_spec
        self.block_pool = block_pool
        self.req_to_blocks = defaultdict(list)
        self.kv_cache_group_id = kv_cache_group_id
        self._null_block = block_pool.null_block

    def remove_skipped_blocks(self, request_id, total_computed_tokens):
        num_skipped_tokens = self.get_num_skipped_tokens(total_computed_tokens)
        if num_skipped_tokens <= 0:
            return
        blocks = self.req_to_blocks[request_id]
        last = min(num_skipped_tokens // self.block_size, len(blocks))
        removed = []
        for i in range(last - 1, -1, -1):
            if blocks[i] == self._null_block:
                break
            removed.append(blocks[i])
            blocks[i] = self._null_block
        self.block_pool.free_blocks(removed)

    def get_num_skipped_tokens(self, num_computed_tokens):
        return 0

    def free(self, request_id):
        self.block_pool.free_blocks(reversed(self.req_to_blocks.pop(request_id, [])))


class FullAttentionManager(SingleTypeKVCacheManager):
    pass


class SlidingWindowManager(SingleTypeKVCacheManager):

    def __init__(self, kv_cache_spec, **kwargs):
        super().__init__(kv_cache_spec, **kwargs)
        self.sliding_window = kv_cache_spec.sliding_window

    def get_num_skipped_tokens(self, num_computed_tokens):
        return max(0, num_computed_tokens - self.sliding_window + 1)


def managers(kv_cache_config, block_pool):
    """One manager per group, as vLLM's KV cache coordinator builds them (``spec_manager_map``)."""
    out = []
    for g, group in enumerate(kv_cache_config.kv_cache_groups):
        spec = group.kv_cache_spec
        cls = SlidingWindowManager if isinstance(spec, SlidingWindowSpec) else FullAttentionManager
        out.append(cls(spec, block_pool=block_pool, kv_cache_group_id=g))
    return out


MODULES = {"vllm.v1.core.single_type_kv_cache_manager": ("SingleTypeKVCacheManager", "FullAttentionManager",
                                                       "SlidingWindowManager"),
           "vllm.v1.kv_cache_interface": ("KVCacheSpec", "AttentionSpec", "FullAttentionSpec", "MLAAttentionSpec",
                                          "SlidingWindowSpec", "ChunkedLocalAttentionSpec", "MambaSpec",
                                          "KVCacheGroupSpec", "KVCacheConfig")}

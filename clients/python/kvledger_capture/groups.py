"""The KV cache groups of the captured engine: vLLM's ``kv_cache_config`` as the contract's ``groups``.

Each of vLLM's ``KVCacheGroupSpec`` becomes one group object of the contract's config (section 7.1), in
group order: ``FullAttentionSpec`` (and its subclasses, MLA's included) is ``FULL``; ``SlidingWindowSpec``
(and its subclasses) is ``SLIDING_WINDOW`` with its ``sliding_window``; a group vLLM annotates
``is_eagle_group`` (the EAGLE/MTP draft layers) has ``eagle: true``. The block size is the spec's. Specs the
contract has no kind for (``MambaSpec``, ``ChunkedLocalAttentionSpec``, cross attention, ...) are refused,
naming the group, as are the geometries the contract makes malformed (``blocksPerChunk`` > 1 with a
sliding-window group). A model of one ``FULL`` group without ``eagle`` is written without ``groups``, as
revision 4's logs are.
"""

from math import gcd

#: vLLM's spec classes (by name, through the class's bases) and the contract's kind of each.
KINDS = (("SlidingWindowSpec", "SLIDING_WINDOW"), ("FullAttentionSpec", "FULL"))

#: Spec classes of a kind above that the contract still cannot say (section 9.4), by name: RSWA frees a gap in
#: the middle of a full-attention table, which no FreeWindowBlocks of the contract describes.
REFUSED = ("RSWASpec",)


def _kind(spec):
    names = [cls.__name__ for cls in type(spec).__mro__]
    if any(name in REFUSED for name in names):
        return None
    for name in names:  # most derived first: SlidingWindowMLASpec is a sliding window
        for spec_name, kind in KINDS:
            if name == spec_name:
                return kind
    return None


def representative(spec):
    """The per-layer spec of vLLM's ``UniformTypeKVCacheSpecs`` (layers of one type, different page sizes: the
    worker's spec of such a group), as vLLM's ``generate_scheduler_kv_cache_config`` picks it: the first."""
    specs = getattr(spec, "kv_cache_specs", None)
    if type(spec).__name__ == "UniformTypeKVCacheSpecs" and specs:
        return next(iter(specs.values()))
    return spec


def describe(kv_cache_config):
    """The groups of vLLM's ``kv_cache_config`` as the contract's group objects; refuses what it cannot say.

    Returns None when vLLM gave no groups (no ``kv_cache_config``): the engine's one group comes from
    ``cache_config.block_size`` then.
    """
    groups = list(getattr(kv_cache_config, "kv_cache_groups", None) or ())
    if not groups:
        return None
    described = []
    for index, group in enumerate(groups):
        spec = representative(getattr(group, "kv_cache_spec", None))
        kind = _kind(spec)
        layers = list(getattr(group, "layer_names", None) or ())
        if kind is None:
            shown = ", ".join(layers[:2]) + (", ..." if len(layers) > 2 else "")
            raise ValueError(
                "kvledger capture cannot record KV cache group %d: %s, %d layers (%s); the contract's groups are "
                "FULL (FullAttentionSpec) and SLIDING_WINDOW (SlidingWindowSpec) only, so a model with %s layers "
                "cannot be captured (docs/vllm-capture.md)" % (index, type(spec).__name__, len(layers), shown,
                                                              type(spec).__name__))
        entry = {"kind": kind, "blockSize": int(spec.block_size)}
        if kind == "SLIDING_WINDOW":
            entry["slidingWindow"] = int(spec.sliding_window)
            retained = int(getattr(spec, "extra_retained_tokens", 0) or 0)
            if retained > 0:
                raise ValueError(
                    "kvledger capture cannot record KV cache group %d: a sliding window that retains %d extra tokens "
                    "(SlidingWindowSpec.extra_retained_tokens, multi-module MTP) is not modelled in contract revision 6 "
                    "(section 9.4); capture without multi-module MTP (docs/vllm-capture.md)" % (index, retained))
        entry["eagle"] = bool(getattr(group, "is_eagle_group", False))
        described.append(entry)
    return described


def is_revision4(groups):
    """One FULL group without eagle: the log of revision 4, without ``groups`` (contract 7.0)."""
    return groups is None or (len(groups) == 1 and groups[0]["kind"] == "FULL" and not groups[0]["eagle"])


def check_blocks_per_chunk(groups, per_chunk):
    """Refuses ``blocksPerChunk`` > 1 with a sliding-window group: malformed in the contract (7.11, 8)."""
    if per_chunk > 1 and any(g["kind"] == "SLIDING_WINDOW" for g in groups):
        raise ValueError("kvledger capture: blocksPerChunk %d (kv_connector_extra_config block_size or "
                         "blocks_per_chunk) with a sliding-window group is malformed in the contract (a null sub-block "
                         "would make a partial chunk); capture with one GPU block per chunk" % per_chunk)


def lcm_block_size(groups):
    """``gpuBlockSize`` of a grouped log: the least common multiple of the groups' block sizes (7.1)."""
    out = 1
    for g in groups:
        out = out * g["blockSize"] // gcd(out, g["blockSize"])
    return out


def hash_block_size(groups):
    """Tokens per hash of ``Request.block_hashes``: the greatest common divisor of the block sizes (vLLM's
    default without ``prefix_match_unit``)."""
    out = 0
    for g in groups:
        out = gcd(out, g["blockSize"])
    return out or 1

"""The geometry of the captured engine's KV cache groups, as the translator needs it (contract section 7).

With one ``FULL`` group without ``eagle`` (no ``groups`` in the config) every per-group field is the flat list
of revision 4 and keys are vLLM's block hashes, as before groups. Otherwise a per-group field is one list
per group (``G`` >= 2) or the flat list of the one group (``G`` = 1), exactly as kvledger's formats read it;
vLLM's null block (block id 0) is ``null`` in a table; and the key of chunk ``i`` of group ``g`` is vLLM's
``make_offload_key``: the block hash of the chunk's last ``H``-token hash unit followed by the group index as
four big-endian bytes (hex), so the same tokens have another key in each group.
"""

from .groups import hash_block_size, is_revision4, lcm_block_size

NULL_BLOCK_ID = 0   # vLLM's BlockPool.null_block.block_id


class Geometry:

    def __init__(self, config):
        groups = config.get("groups")
        self.per_chunk = int(config.get("blocksPerChunk", 1))
        if groups is None:
            groups = [{"kind": "FULL", "blockSize": int(config.get("gpuBlockSize", 16)), "eagle": False}]
        self.groups = [dict(g) for g in groups]
        self.count = len(self.groups)
        self.grouped = not is_revision4(self.groups)
        self.block_sizes = [int(g["blockSize"]) for g in self.groups]
        self.chunk_sizes = [b * self.per_chunk for b in self.block_sizes]
        self.hash_unit = hash_block_size(self.groups) if self.grouped else self.block_sizes[0]
        self.gpu_block_size = lcm_block_size(self.groups)

    # --- shapes ------------------------------------------------------------------------------------

    def lists(self, value, nulls=True):
        """A record's block ids (one list per group, or one flat list for one group) as ``G`` lists.

        In a grouped engine vLLM's null block becomes ``None`` (where ``nulls``: tables, not job sources).
        """
        value = [] if value is None else list(value)
        if value and isinstance(value[0], (list, tuple)):
            out = [[int(b) for b in group] for group in value]
        elif self.count == 1:
            out = [[int(b) for b in value]]
        elif not value:
            out = []
        else:
            raise ValueError("a flat list of block ids %s for an engine of %d KV cache groups" % (value, self.count))
        out.extend([] for _ in range(self.count - len(out)))
        if len(out) != self.count:
            raise ValueError("block ids of %d KV cache groups for an engine of %d" % (len(out), self.count))
        if nulls and self.grouped:
            out = [[None if b == NULL_BLOCK_ID else b for b in group] for group in out]
        return out

    def shape(self, lists):
        """A per-group field as the log writes it: the flat list for one group, else one list per group."""
        return list(lists[0]) if self.count == 1 else [list(group) for group in lists]

    def empty(self):
        return [[] for _ in range(self.count)]

    # --- rules of section 7 the capture needs to name vLLM's decisions ------------------------------

    def first_in_window(self, g, tokens):
        """``first_g(t)``: the first table entry inside the window of the next token (7.1)."""
        group = self.groups[g]
        if group["kind"] != "SLIDING_WINDOW":
            return 0
        return max(0, tokens - int(group["slidingWindow"]) + 1) // self.block_sizes[g]

    def hit_chunks(self, gpu_hit, end):
        """``hitChunks[g]`` of a hit from ``gpu_hit`` to ``end`` tokens: ``max(a_g, first_g(N)) .. e_g - 1`` (7.5)."""
        out = []
        for g, chunk in enumerate(self.chunk_sizes):
            start = max(gpu_hit // chunk, self.first_in_window(g, end) // self.per_chunk)
            out.append(list(range(start, -(-end // chunk))))
        return out

    def key(self, hashes, g, chunk):
        """The key of chunk ``chunk`` of group ``g`` from a request's block hashes (hex), or a placeholder."""
        index = (chunk + 1) * self.chunk_sizes[g] // self.hash_unit - 1
        if index >= len(hashes):
            return "chunk-%d-unhashed" % chunk if not self.grouped else "g%d-chunk-%d-unhashed" % (g, chunk)
        if not self.grouped:
            return hashes[index]
        return hashes[index] + "%08x" % g

    def evicted_key(self, offload_key):
        """kvledger's key of one of vLLM's offload keys (hex: the block hash, then the group as four big-endian
        bytes): the same string :meth:`key` makes, which without groups is the block hash alone."""
        return offload_key if self.grouped else offload_key[:-8]

    def engine_configured(self, config):
        """The fields of ``EngineConfigured`` (contract 3 and 7.1), ``groups`` last when grouped."""
        full = {"gpuBlockSize": 16, "blocksPerChunk": 1, "workers": 1, "cpuCapacityChunks": 1024,
                "releasePolicy": "FENCE", "maxOffloadTokens": None, "offloadPromptOnly": False}
        full.update({k: v for k, v in config.items() if k != "groups"})
        if "groups" in config:
            full["gpuBlockSize"] = self.gpu_block_size
            full["groups"] = [_echo(g) for g in self.groups]
        return full


def _echo(group):
    """A group as ``EngineConfigured`` writes it: kind, blockSize, slidingWindow (sliding only), eagle."""
    out = {"kind": group["kind"], "blockSize": int(group["blockSize"])}
    if group["kind"] == "SLIDING_WINDOW":
        out["slidingWindow"] = int(group["slidingWindow"])
    out["eagle"] = bool(group.get("eagle", False))
    return out

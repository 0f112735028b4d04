package io.kvledger.infrastructure.kvevents;

/**
 * How each event of a batch is laid out; the batch itself is always the array
 * {@code [ts, [events...], data_parallel_rank]}. See docs/kv-events.md for the sources.
 */
public enum KvEventEncoding {
    /**
     * A msgpack map tagged by {@code "type"} ({@code {"type": "BlockStored", "block_hashes": [...], ...}}):
     * vLLM's encoding since it dropped {@code array_like} from the event structs (vllm-project/vllm#42892,
     * merged 2026-06-09; released in 0.26). Fields by name, so consumers need not know their order.
     */
    MAP,
    /**
     * A msgpack array whose first element is the tag ({@code ["BlockStored", [...], parent, ...]}): vLLM up
     * to 0.25 ({@code array_like=True}), and what consumers written for it decode (llm-d-kv-cache before
     * its #661, AIBrix).
     */
    ARRAY
}

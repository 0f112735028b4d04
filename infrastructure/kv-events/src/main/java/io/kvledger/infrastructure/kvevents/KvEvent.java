package io.kvledger.infrastructure.kvevents;

import java.util.List;

/**
 * One of vLLM's KV-cache events ({@code vllm/distributed/kv_events.py}): a stored run of blocks, removed
 * blocks, or everything cleared. Block hashes are vLLM's "external" 64-bit hashes, kept as the bits of
 * an unsigned 64-bit integer (a negative {@code long} is a value of 2^63 or more on the wire).
 */
public sealed interface KvEvent permits KvEvent.BlockStored, KvEvent.BlockRemoved, KvEvent.AllBlocksCleared {

    /** The kv-cache spec kind vLLM gives full-attention groups, the only kind kvledger models. */
    String FULL_ATTENTION = "full_attention";

    /** The event's tag on the wire: its class name in vLLM. */
    String tag();

    /**
     * Blocks became loadable in {@code medium}. Self-describing: each block's hash, the hash of the block
     * before the first ({@code null} at the start of a sequence), the tokens of all the blocks and the
     * tokens per block, so a router can index them by token prefix.
     */
    record BlockStored(List<Long> blockHashes, Long parentBlockHash, List<Integer> tokenIds, int blockSize,
                       Integer loraId, String medium, String loraName, Integer groupIdx, String kvCacheSpecKind)
            implements KvEvent {

        public BlockStored {
            blockHashes = List.copyOf(blockHashes);
            tokenIds = List.copyOf(tokenIds);
        }

        @Override
        public String tag() {
            return "BlockStored";
        }
    }

    /** Blocks left {@code medium}. */
    record BlockRemoved(List<Long> blockHashes, String medium, Integer groupIdx) implements KvEvent {

        public BlockRemoved {
            blockHashes = List.copyOf(blockHashes);
        }

        @Override
        public String tag() {
            return "BlockRemoved";
        }
    }

    /** Every block is gone (vLLM: a cache reset). */
    record AllBlocksCleared() implements KvEvent {

        @Override
        public String tag() {
            return "AllBlocksCleared";
        }
    }
}

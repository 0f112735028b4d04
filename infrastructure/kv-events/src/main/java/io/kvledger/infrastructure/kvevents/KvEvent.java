package io.kvledger.infrastructure.kvevents;

import java.util.List;

/**
 * One of vLLM's KV-cache events ({@code vllm/distributed/kv_events.py}): a stored run of blocks, removed
 * blocks, or everything cleared. Block hashes are vLLM's "external" 64-bit hashes, kept as the bits of
 * an unsigned 64-bit integer (a negative {@code long} is a value of 2^63 or more on the wire).
 */
public sealed interface KvEvent permits KvEvent.BlockStored, KvEvent.BlockRemoved, KvEvent.AllBlocksCleared {

    /** The kv-cache spec kind vLLM gives full-attention groups ({@code KVCacheSpecKind.FULL_ATTENTION}). */
    String FULL_ATTENTION = "full_attention";

    /** The kv-cache spec kind vLLM gives sliding-window groups ({@code KVCacheSpecKind.SLIDING_WINDOW}). */
    String SLIDING_WINDOW = "sliding_window";

    /** The event's tag on the wire: its class name in vLLM. */
    String tag();

    /**
     * Blocks became loadable in {@code medium}. Self-describing: each block's hash, the hash of the block
     * before the first ({@code null} at the start of a sequence), the tokens of all the blocks and the
     * tokens per block, so a router can index them by token prefix. {@code groupIdx}, {@code kvCacheSpecKind}
     * and {@code kvCacheSpecSlidingWindow} name the KV cache group, as vLLM's offloading connector fills them:
     * the window in tokens for a sliding-window group, {@code null} for full attention.
     */
    record BlockStored(List<Long> blockHashes, Long parentBlockHash, List<Integer> tokenIds, int blockSize,
                       Integer loraId, String medium, String loraName, Integer groupIdx, String kvCacheSpecKind,
                       Integer kvCacheSpecSlidingWindow)
            implements KvEvent {

        public BlockStored {
            blockHashes = List.copyOf(blockHashes);
            tokenIds = List.copyOf(tokenIds);
        }

        /** A full-attention event (no sliding window). */
        public BlockStored(List<Long> blockHashes, Long parentBlockHash, List<Integer> tokenIds, int blockSize,
                           Integer loraId, String medium, String loraName, Integer groupIdx, String kvCacheSpecKind) {
            this(blockHashes, parentBlockHash, tokenIds, blockSize, loraId, medium, loraName, groupIdx, kvCacheSpecKind,
                    null);
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

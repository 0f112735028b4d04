package io.kvledger.domain.rules;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.state.CpuTier;
import io.kvledger.domain.state.RequestState;
import java.util.ArrayList;
import java.util.List;

/**
 * The chunks {@code s .. S-1} a request offers to the CPU tier after ComputeTokens, AbortRequest or
 * FinishRequest, and which of them the tier lacks.
 *
 * @param end          {@code S}, the cursor after an accepted offer
 * @param chunks       the offered chunk indices, ascending
 * @param keys         their keys
 * @param lacking      the offered chunk indices the tier does not hold
 * @param lackingKeys  their keys
 */
public record StoreOffer(int end, List<Integer> chunks, List<String> keys, List<Integer> lacking,
                         List<String> lackingKeys) {

    public static StoreOffer of(EngineConfig config, CpuTier tier, RequestState request) {
        int end = StoreBound.storableChunks(config, request);
        if (end <= request.cursor()) {
            // Most steps complete no chunk: nothing to offer, nothing to allocate.
            return new StoreOffer(request.cursor(), List.of(), List.of(), List.of(), List.of());
        }
        int f = config.blocksPerChunk();
        List<Integer> chunks = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        List<Integer> lacking = new ArrayList<>();
        List<String> lackingKeys = new ArrayList<>();
        for (int chunk = request.cursor(); chunk < end; chunk++) {
            String key = request.key(chunk, f);
            chunks.add(chunk);
            keys.add(key);
            if (!tier.holds(key)) {
                lacking.add(chunk);
                lackingKeys.add(key);
            }
        }
        return new StoreOffer(end, chunks, keys, lacking, lackingKeys);
    }

    public boolean isEmpty() {
        return chunks.isEmpty();
    }

    /** An offer the tier already holds whole: no job, but the cursor moves and the chunks are touched. */
    public boolean isHeldWhole() {
        return !chunks.isEmpty() && lacking.isEmpty();
    }

    /** All {@code F} GPU blocks of each chunk, in order: the source of a store. */
    public static List<Integer> sourceBlocks(RequestState request, List<Integer> chunks, int blocksPerChunk) {
        List<Integer> blocks = new ArrayList<>(chunks.size() * blocksPerChunk);
        for (int chunk : chunks) {
            for (int i = 0; i < blocksPerChunk; i++) {
                blocks.add(request.blockTable().get(chunk * blocksPerChunk + i));
            }
        }
        return blocks;
    }
}

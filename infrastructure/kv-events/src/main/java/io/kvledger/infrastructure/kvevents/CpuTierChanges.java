package io.kvledger.infrastructure.kvevents;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RequestEvent;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensAppended;
import io.kvledger.domain.state.BlockHashes;
import io.kvledger.domain.state.EngineState;
import io.kvledger.infrastructure.kvevents.KvEvent.AllBlocksCleared;
import io.kvledger.infrastructure.kvevents.KvEvent.BlockRemoved;
import io.kvledger.infrastructure.kvevents.KvEvent.BlockStored;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The CPU tier's changes in an engine's events, as vLLM's KV-cache events: {@code BlockStored} when a
 * store makes chunks loadable ({@code ChunksStored}), {@code BlockRemoved} when they leave the tier
 * ({@code ChunksEvicted}: evictions, and a failed load's dropped chunks), {@code AllBlocksCleared} at a
 * {@code CacheReset}. A store that fails drops chunks that were never loadable, so it says nothing.
 *
 * <p>The events are self-describing, like vLLM's {@code self_describing_kv_events}: a chunk's
 * {@code BlockStored} names the hashes of its {@code F} GPU blocks, the hash before them, its tokens
 * and {@code block_size = B}, so a router can match it to a prompt (routers drop CPU events without
 * token ids). The tokens and hashes are taken when the store is scheduled, while the request is live;
 * a removal fans out to the same hashes. Memory: the tokens of live requests, and one description per
 * chunk being written or loadable.
 */
public final class CpuTierChanges {

    private record Chunk(List<Long> hashes, Long parent, List<Integer> tokens) {
    }

    private static final class Tokens {
        private final List<Integer> tokens;
        private BlockHashes hashes;

        Tokens(List<Integer> prompt, int blockSize) {
            this.tokens = new ArrayList<>(prompt);
            this.hashes = BlockHashes.of(blockSize, prompt);
        }

        void append(List<Integer> more) {
            tokens.addAll(more);
            hashes = hashes.append(more);
        }
    }

    private final String medium;
    private final Map<String, Tokens> requests = new HashMap<>();
    private final Map<String, Chunk> writing = new HashMap<>();
    private final Map<String, Chunk> loadable = new HashMap<>();
    private final Map<Long, List<String>> storesInFlight = new HashMap<>();

    /** @param medium the tier's name in the events; vLLM's CPU tier is {@code "CPU"} */
    public CpuTierChanges(String medium) {
        this.medium = medium;
    }

    /** The KV events of one step's events, {@code after} being the state after the step. */
    public List<KvEvent> apply(List<EngineEvent> events, EngineState after) {
        EngineConfig config = after.config();
        List<KvEvent> out = new ArrayList<>();
        Set<String> touched = new HashSet<>();
        boolean reset = false;
        for (EngineEvent event : events) {
            if (event instanceof RequestEvent e) {
                touched.add(e.requestId());
            }
            if (event instanceof RequestRegistered e) {
                requests.putIfAbsent(e.requestId(), new Tokens(e.promptTokens(), config.gpuBlockSize()));
            } else if (event instanceof TokensAppended e) {
                Tokens tokens = requests.get(e.requestId());
                if (tokens != null) {
                    tokens.append(e.tokens());
                }
            } else if (event instanceof StoreJobScheduled e) {
                scheduled(e, config);
            } else if (event instanceof StoreJobCompleted e) {
                List<String> keys = storesInFlight.remove(e.jobId());
                if (keys != null && !e.success()) {
                    keys.forEach(writing::remove);
                }
            } else if (event instanceof ChunksStored e) {
                for (String key : e.keys()) {
                    Chunk chunk = writing.remove(key);
                    if (chunk == null) {
                        chunk = new Chunk(List.of(ExternalHash.of(key)), null, List.of());
                    }
                    loadable.put(key, chunk);
                    out.add(stored(chunk, config));
                }
            } else if (event instanceof ChunksEvicted e) {
                List<Long> hashes = new ArrayList<>();
                for (String key : e.keys()) {
                    Chunk chunk = loadable.remove(key);
                    if (chunk != null) {
                        hashes.addAll(chunk.hashes());
                    }
                }
                if (!hashes.isEmpty()) {
                    out.add(new BlockRemoved(hashes, medium, 0));
                }
            } else if (event instanceof CacheReset) {
                writing.clear();
                loadable.clear();
                storesInFlight.clear();
                reset = true;
                out.add(new AllBlocksCleared());
            }
        }
        forgetRetired(reset ? new ArrayList<>(requests.keySet()) : touched, after);
        return out;
    }

    private void scheduled(StoreJobScheduled e, EngineConfig config) {
        storesInFlight.put(e.jobId(), List.copyOf(e.keys().flat()));
        Tokens tokens = requests.get(e.requestId());
        int f = config.blocksPerChunk();
        int c = config.chunkTokens();
        for (int i = 0; i < e.keys().flat().size(); i++) {
            String key = e.keys().flat().get(i);
            Integer chunk = i < e.chunkIndices().flat().size() ? e.chunkIndices().flat().get(i) : null;
            if (tokens == null || chunk == null || chunk < 0 || tokens.hashes.fullBlocks() < (chunk + 1) * f) {
                // Only a log written elsewhere lacks what a chunk needs: announce the key alone, as vLLM's placeholder does.
                writing.put(key, new Chunk(List.of(ExternalHash.of(key)), null, List.of()));
                continue;
            }
            List<Long> hashes = new ArrayList<>(f);
            for (int block = chunk * f; block < (chunk + 1) * f; block++) {
                hashes.add(ExternalHash.of(tokens.hashes.get(block)));
            }
            Long parent = chunk == 0 ? null : ExternalHash.of(tokens.hashes.get(chunk * f - 1));
            writing.put(key, new Chunk(hashes, parent, List.copyOf(tokens.tokens.subList(chunk * c, (chunk + 1) * c))));
        }
    }

    private BlockStored stored(Chunk chunk, EngineConfig config) {
        int blockSize = chunk.tokens().isEmpty() ? 0 : config.gpuBlockSize();
        return new BlockStored(chunk.hashes(), chunk.parent(), chunk.tokens(), blockSize, null, medium, null, 0,
                KvEvent.FULL_ATTENTION);
    }

    private void forgetRetired(Iterable<String> requestIds, EngineState after) {
        for (String requestId : requestIds) {
            if (after.heldRequest(requestId) == null) {
                requests.remove(requestId);
            }
        }
    }
}

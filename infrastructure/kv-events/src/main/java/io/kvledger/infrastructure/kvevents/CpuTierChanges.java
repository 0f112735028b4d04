package io.kvledger.infrastructure.kvevents;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.group.GroupKeys;
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

    /** What a chunk's events say: its hashes, parent and tokens, and its KV cache group. */
    private record Chunk(List<Long> hashes, Long parent, List<Integer> tokens, int group) {
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
                requests.putIfAbsent(e.requestId(), new Tokens(e.promptTokens(), config.hashBlockSize()));
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
                        chunk = placeholder(key, GroupKeys.groupOf(key, config.groupCount()));
                    }
                    loadable.put(key, chunk);
                    out.add(stored(chunk, config));
                }
            } else if (event instanceof ChunksEvicted e) {
                removed(e, config.groupCount(), out);
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

    /** One {@code BlockRemoved} per group whose chunks left the tier, in group order (vLLM's per-group events). */
    private void removed(ChunksEvicted e, int groups, List<KvEvent> out) {
        List<List<Long>> hashes = new ArrayList<>(groups);
        for (int g = 0; g < groups; g++) {
            hashes.add(new ArrayList<>());
        }
        for (String key : e.keys()) {
            Chunk chunk = loadable.remove(key);
            if (chunk != null) {
                hashes.get(Math.min(chunk.group(), groups - 1)).addAll(chunk.hashes());
            }
        }
        for (int g = 0; g < groups; g++) {
            if (!hashes.get(g).isEmpty()) {
                out.add(new BlockRemoved(hashes.get(g), medium, g));
            }
        }
    }

    private void scheduled(StoreJobScheduled e, EngineConfig config) {
        storesInFlight.put(e.jobId(), List.copyOf(e.keys().flat()));
        Tokens tokens = requests.get(e.requestId());
        for (int g = 0; g < e.keys().groupCount(); g++) {
            List<String> keys = e.keys().group(g);
            List<Integer> chunks = g < e.chunkIndices().groupCount() ? e.chunkIndices().group(g) : List.of();
            for (int i = 0; i < keys.size(); i++) {
                String key = keys.get(i);
                writing.put(key, describe(key, i < chunks.size() ? chunks.get(i) : null, g, tokens, config));
            }
        }
    }

    /**
     * The self-describing form of chunk {@code chunk} of group {@code g}: the hashes of its {@code F} GPU blocks
     * of {@code B_g} tokens, the hash before them and its tokens. vLLM's connector describes full-attention
     * groups only, so a sliding-window chunk, and a chunk a log written elsewhere names without what it needs,
     * is announced by its key alone, as vLLM's placeholder does.
     */
    private Chunk describe(String key, Integer chunk, int g, Tokens tokens, EngineConfig config) {
        int f = config.blocksPerChunk();
        int perBlock = config.group(g).blockSize() / tokens(tokens, config);
        if (tokens == null || chunk == null || chunk < 0 || config.group(g).isSliding()
                || tokens.hashes.fullBlocks() < (chunk + 1) * f * perBlock) {
            return placeholder(key, g);
        }
        int c = config.chunkTokens(g);
        List<Long> hashes = new ArrayList<>(f);
        for (int block = chunk * f; block < (chunk + 1) * f; block++) {
            hashes.add(ExternalHash.of(tokens.hashes.get((block + 1) * perBlock - 1)));
        }
        Long parent = chunk == 0 ? null : ExternalHash.of(tokens.hashes.get(chunk * f * perBlock - 1));
        return new Chunk(hashes, parent, List.copyOf(tokens.tokens.subList(chunk * c, (chunk + 1) * c)), g);
    }

    private static int tokens(Tokens tokens, EngineConfig config) {
        return tokens == null ? config.hashBlockSize() : tokens.hashes.blockSize();
    }

    private static Chunk placeholder(String key, int group) {
        return new Chunk(List.of(ExternalHash.of(key)), null, List.of(), group);
    }

    /** vLLM's CPU event of a stored chunk, with its group's spec kind and window (the offloading connector's). */
    private BlockStored stored(Chunk chunk, EngineConfig config) {
        int blockSize = chunk.tokens().isEmpty() ? 0 : config.group(chunk.group()).blockSize();
        KvCacheGroup group = config.group(chunk.group());
        return new BlockStored(chunk.hashes(), chunk.parent(), chunk.tokens(), blockSize, null, medium, null,
                chunk.group(), group.isSliding() ? KvEvent.SLIDING_WINDOW : KvEvent.FULL_ATTENTION,
                group.isSliding() ? group.slidingWindow() : null);
    }

    private void forgetRetired(Iterable<String> requestIds, EngineState after) {
        for (String requestId : requestIds) {
            if (after.heldRequest(requestId) == null) {
                requests.remove(requestId);
            }
        }
    }
}

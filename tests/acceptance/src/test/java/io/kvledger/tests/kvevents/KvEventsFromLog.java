package io.kvledger.tests.kvevents;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensAppended;
import io.kvledger.domain.state.BlockHashes;
import io.kvledger.infrastructure.kvevents.KvEvent;
import io.kvledger.infrastructure.kvevents.KvEvent.AllBlocksCleared;
import io.kvledger.infrastructure.kvevents.KvEvent.BlockRemoved;
import io.kvledger.infrastructure.kvevents.KvEvent.BlockStored;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The KV events a router should see for a log, derived from the log alone and written apart from the
 * publisher: the chunks a {@code ChunksStored} names (their tokens from {@code promptTokens} and
 * {@code TokensAppended}, their block hashes chained over those tokens, the last one checked against
 * the log's key), the stored chunks a {@code ChunksEvicted} names, and a reset.
 */
final class KvEventsFromLog {

    private record Chunk(List<Long> hashes, Long parent, List<Integer> tokens) {
    }

    private KvEventsFromLog() {
    }

    static List<KvEvent> expected(List<EngineEvent> log) {
        int b = 0;
        int f = 0;
        Map<String, List<Integer>> tokens = new HashMap<>();
        Map<Long, Map<String, Chunk>> jobs = new HashMap<>();
        Map<String, Chunk> writing = new HashMap<>();
        Map<String, Chunk> stored = new HashMap<>();
        List<KvEvent> out = new ArrayList<>();
        for (EngineEvent event : log) {
            if (event instanceof EngineConfigured e) {
                b = e.config().gpuBlockSize();
                f = e.config().blocksPerChunk();
            } else if (event instanceof RequestRegistered e) {
                tokens.putIfAbsent(e.requestId(), new ArrayList<>(e.promptTokens()));
            } else if (event instanceof TokensAppended e) {
                tokens.get(e.requestId()).addAll(e.tokens());
            } else if (event instanceof StoreJobScheduled e) {
                List<Integer> known = tokens.get(e.requestId());
                BlockHashes hashes = BlockHashes.of(b, known);
                Map<String, Chunk> chunks = new HashMap<>();
                for (int i = 0; i < e.keys().flat().size(); i++) {
                    int chunk = e.chunkIndices().flat().get(i);
                    List<Long> blockHashes = new ArrayList<>();
                    for (int block = chunk * f; block < (chunk + 1) * f; block++) {
                        blockHashes.add(low64(hashes.get(block)));
                    }
                    assertEquals(low64(e.keys().flat().get(i)), blockHashes.get(f - 1), "a chunk's key is its last block's hash");
                    Long parent = chunk == 0 ? null : low64(hashes.get(chunk * f - 1));
                    Chunk described = new Chunk(blockHashes, parent,
                            List.copyOf(known.subList(chunk * b * f, (chunk + 1) * b * f)));
                    chunks.put(e.keys().flat().get(i), described);
                    writing.put(e.keys().flat().get(i), described);
                }
                jobs.put(e.jobId(), chunks);
            } else if (event instanceof StoreJobCompleted e) {
                Map<String, Chunk> chunks = jobs.remove(e.jobId());
                if (chunks != null && !e.success()) {
                    chunks.keySet().forEach(writing::remove);
                }
            } else if (event instanceof ChunksStored e) {
                for (String key : e.keys()) {
                    Chunk chunk = writing.remove(key);
                    stored.put(key, chunk);
                    out.add(new BlockStored(chunk.hashes(), chunk.parent(), chunk.tokens(), b, null, "CPU", null, 0,
                            "full_attention"));
                }
            } else if (event instanceof ChunksEvicted e) {
                List<Long> removed = new ArrayList<>();
                for (String key : e.keys()) {
                    Chunk chunk = stored.remove(key);
                    if (chunk != null) {
                        removed.addAll(chunk.hashes());
                    }
                }
                if (!removed.isEmpty()) {
                    out.add(new BlockRemoved(removed, "CPU", 0));
                }
            } else if (event instanceof CacheReset) {
                jobs.clear();
                writing.clear();
                stored.clear();
                out.add(new AllBlocksCleared());
            }
        }
        return out;
    }

    static long low64(String hex) {
        return Long.parseUnsignedLong(hex.substring(hex.length() - 16), 16);
    }
}

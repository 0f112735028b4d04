package io.kvledger.domain.decision;

import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.FreeWindowBlocks;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.testkit.EventMatcher;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Vocabulary of the KV cache group rule tests (contract section 7): configs, per-group lists (with null
 * blocks), the commands that take them and matchers of jobs whose keys are opaque.
 */
final class GroupFixtures {

    /** {@code [FULL B4, SWA B4 w4]}: the window is one block. */
    static final EngineConfig FULL_SWA4 = EngineConfig.DEFAULTS.withGroups(
            List.of(KvCacheGroup.full(4), KvCacheGroup.slidingWindow(4, 4)));
    /** {@code [FULL B4, SWA B4 w8]}. */
    static final EngineConfig FULL_SWA8 = EngineConfig.DEFAULTS.withGroups(
            List.of(KvCacheGroup.full(4), KvCacheGroup.slidingWindow(4, 8)));
    static final EngineConfig FULL_SWA4_DELAY_FREE = FULL_SWA4.withReleasePolicy(ReleasePolicy.DELAY_FREE);
    /** {@code [FULL B4, FULL B4 eagle]}. */
    static final EngineConfig FULL_EAGLE = EngineConfig.DEFAULTS.withGroups(
            List.of(KvCacheGroup.full(4), KvCacheGroup.full(4).asEagle()));
    /** {@code [SWA B4 w4]}: one sliding group, which is grouped (7.0). */
    static final EngineConfig SWA4 = EngineConfig.DEFAULTS.withGroups(List.of(KvCacheGroup.slidingWindow(4, 4)));

    private GroupFixtures() {
    }

    /** A list that may hold {@code null} (a null block). */
    static List<Integer> l(Integer... ids) {
        return Arrays.asList(ids);
    }

    @SafeVarargs
    static PerGroup<Integer> g(List<Integer>... lists) {
        return PerGroup.of(Arrays.asList(lists));
    }

    static RegisterRequest register(String id, int from, int to) {
        List<Integer> tokens = new ArrayList<>();
        for (int t = from; t <= to; t++) {
            tokens.add(t);
        }
        return new RegisterRequest(id, tokens);
    }

    @SafeVarargs
    static AllocateBlocks alloc(String id, List<Integer>... lists) {
        return new AllocateBlocks(id, g(lists), 0);
    }

    @SafeVarargs
    static AllocateBlocks load(String id, int externalTokens, List<Integer>... lists) {
        return new AllocateBlocks(id, g(lists), externalTokens);
    }

    @SafeVarargs
    static FreeWindowBlocks free(String id, List<Integer>... lists) {
        return new FreeWindowBlocks(id, g(lists));
    }

    /** A store of these chunks from these blocks, per group, with one key per chunk (keys are opaque). */
    static EventMatcher store(long jobId, String id, PerGroup<Integer> chunks, PerGroup<Integer> blocks) {
        return new JobMatcher(StoreJobScheduled.class, jobId, id, chunks, blocks);
    }

    static EventMatcher loadJob(long jobId, String id, PerGroup<Integer> chunks, PerGroup<Integer> blocks) {
        return new JobMatcher(LoadJobScheduled.class, jobId, id, chunks, blocks);
    }

    private record JobMatcher(Class<?> type, long jobId, String requestId, PerGroup<Integer> chunks,
                              PerGroup<Integer> blocks) implements EventMatcher {
        @Override
        public boolean matches(EngineEvent actual) {
            if (actual instanceof StoreJobScheduled s && type == StoreJobScheduled.class) {
                return same(s.jobId(), s.requestId(), s.chunkIndices(), s.keys(), s.blockIds());
            }
            if (actual instanceof LoadJobScheduled s && type == LoadJobScheduled.class) {
                return same(s.jobId(), s.requestId(), s.chunkIndices(), s.keys(), s.blockIds());
            }
            return false;
        }

        private boolean same(long id, String request, PerGroup<Integer> c, PerGroup<String> k, PerGroup<Integer> b) {
            if (id != jobId || !request.equals(requestId) || !c.equals(chunks) || !b.equals(blocks)
                    || k.groupCount() != c.groupCount()) {
                return false;
            }
            for (int group = 0; group < c.groupCount(); group++) {
                if (k.group(group).size() != c.group(group).size()) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public String toString() {
            return type.getSimpleName() + "[jobId=" + jobId + ", requestId=" + requestId + ", chunkIndices=" + chunks
                    + ", blockIds=" + blocks + ", keys: one per chunk]";
        }
    }
}

package io.kvledger.infrastructure.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.event.TokensAppended;
import io.kvledger.domain.state.EngineState;
import io.kvledger.infrastructure.log.LogEntry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Given a log's entries as the parse thread reads them, when the prompts are hashed ahead, then each
 * registration's prompt is hashed by the block size the fold hashes it by: the first configuration's
 * ({@code gcd} of the groups' block sizes), or the base's for a log that starts after one; nothing before
 * a configuration is known, and a prompt that cannot be hashed is left to the fold to meet.
 */
class PromptHashesAheadTest {

    private record Hashed(int blockSize, List<Integer> prompt) {
    }

    @Test
    void eachPromptIsHashedByTheFirstConfigurationsBlockSize() {
        List<Hashed> hashed = new ArrayList<>();
        PromptHashesAhead ahead = new PromptHashesAhead(null, (size, prompt) -> hashed.add(new Hashed(size, prompt)));
        EngineConfig grouped = EngineConfig.DEFAULTS.withGroups(List.of(KvCacheGroup.full(16), KvCacheGroup.slidingWindow(8, 64)));
        feed(ahead,
                new RequestRegistered("before-config", 2, List.of(1, 2)),
                EngineConfigured.of(grouped),
                new RequestRegistered("a", 3, List.of(3, 4, 5)),
                new TokensAppended("a", 4, List.of(6)),
                EngineConfigured.of(EngineConfig.DEFAULTS), // the fold ignores a second configuration
                new RequestRegistered("b", 1, List.of(7)));
        assertEquals(List.of(new Hashed(8, List.of(3, 4, 5)), new Hashed(8, List.of(7))), hashed);
    }

    @Test
    void aLogAfterABaseHashesByTheBasesConfiguration() {
        List<Hashed> hashed = new ArrayList<>();
        EngineState base = EngineState.initial(new EngineConfig(4, 2, 1, 64, EngineConfig.DEFAULTS.releasePolicy(), null, false));
        PromptHashesAhead ahead = new PromptHashesAhead(base, (size, prompt) -> hashed.add(new Hashed(size, prompt)));
        feed(ahead, new RequestRegistered("c", 2, List.of(8, 9)));
        assertEquals(List.of(new Hashed(4, List.of(8, 9))), hashed);
    }

    @Test
    void aPromptThatCannotBeHashedIsLeftToTheFold() {
        List<Hashed> hashed = new ArrayList<>();
        PromptHashesAhead ahead = new PromptHashesAhead(null, (size, prompt) -> {
            if (prompt.contains(0)) {
                throw new IllegalArgumentException("no token 0 here");
            }
            hashed.add(new Hashed(size, prompt));
        });
        feed(ahead, EngineConfigured.of(EngineConfig.DEFAULTS), new RequestRegistered("d", 1, List.of(0)),
                new RequestRegistered("e", 1, List.of(5)));
        assertEquals(List.of(new Hashed(16, List.of(5))), hashed);
    }

    private static void feed(PromptHashesAhead ahead, EngineEvent... events) {
        long seq = 0;
        for (EngineEvent event : events) {
            seq++;
            ahead.accept(new LogEntry(seq, seq, event.getClass().getSimpleName(), event, null,
                    com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()));
        }
    }
}

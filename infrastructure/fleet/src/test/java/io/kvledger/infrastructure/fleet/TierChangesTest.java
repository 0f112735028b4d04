package io.kvledger.infrastructure.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RequestAborted;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class TierChangesTest {

    /** The tier as the old view kept it: each event applied to the rows on its own. */
    static void applyOneByOne(Set<String> rows, EngineEvent event) {
        if (event instanceof ChunksStored stored) {
            rows.addAll(stored.keys());
        } else if (event instanceof ChunksEvicted evicted) {
            evicted.keys().forEach(rows::remove);
        } else if (event instanceof CacheReset || event instanceof EngineConfigured) {
            rows.clear();
        }
    }

    /** What the batch writes do to the rows: clear, delete, insert. */
    static void write(Set<String> rows, TierChanges changes) {
        if (changes.cleared()) {
            rows.clear();
        }
        changes.removed().forEach(rows::remove);
        rows.addAll(changes.added());
    }

    /** Stores, evictions, resets of few keys, so one batch often touches a key several times. */
    static List<EngineEvent> randomEvents(Random random, int count) {
        List<EngineEvent> events = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int kind = random.nextInt(20);
            if (kind == 0) {
                events.add(new CacheReset(random.nextInt(100)));
            } else if (kind == 1) {
                events.add(EngineConfigured.of(EngineConfig.DEFAULTS));
            } else if (kind == 2) {
                events.add(new RequestAborted("r" + random.nextInt(5)));
            } else {
                List<String> keys = new ArrayList<>();
                for (int k = random.nextInt(4); k >= 0; k--) {
                    keys.add("k" + random.nextInt(8));
                }
                events.add(kind < 12 ? new ChunksStored(keys) : new ChunksEvicted(keys));
            }
        }
        return events;
    }

    @Test
    void aBatchWrittenAtOnceLeavesTheRowsThatEventByEventApplicationLeaves() {
        for (long seed = 0; seed < 2_000; seed++) {
            Random random = new Random(seed);
            Set<String> before = new TreeSet<>();
            for (int k = 0; k < 8; k++) {
                if (random.nextBoolean()) {
                    before.add("k" + k);
                }
            }
            List<EngineEvent> events = randomEvents(random, 1 + random.nextInt(40));
            Set<String> oneByOne = new TreeSet<>(before);
            TierChanges changes = new TierChanges();
            for (EngineEvent event : events) {
                applyOneByOne(oneByOne, event);
                changes.apply(event);
            }
            Set<String> batched = new TreeSet<>(before);
            write(batched, changes);
            assertEquals(oneByOne, batched, "seed " + seed + ": " + events);
        }
    }

    @Test
    void givenAStoreAResetAndAnEvictionOfOneKeyWhenBatchedThenTheLastWordStands() {
        TierChanges changes = new TierChanges();
        changes.apply(new ChunksStored(List.of("a", "b")));
        changes.apply(new CacheReset(1));
        changes.apply(new ChunksStored(List.of("a", "c")));
        changes.apply(new ChunksEvicted(List.of("c")));

        assertTrue(changes.cleared());
        assertEquals(List.of("a"), changes.added());
        assertEquals(List.of(), changes.removed(), "the clear removed everything already");
    }

    @Test
    void givenNoTierEventWhenBatchedThenNothingIsWritten() {
        TierChanges changes = new TierChanges();
        changes.apply(new RequestAborted("r"));
        assertTrue(changes.isEmpty());
    }
}

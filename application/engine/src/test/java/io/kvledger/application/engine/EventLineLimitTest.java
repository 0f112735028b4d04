package io.kvledger.application.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RequestFinished;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensAppended;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.domain.event.TokensRejected;
import io.kvledger.domain.event.TransferAcknowledged;
import io.kvledger.domain.group.PerGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The events whose line bound is read field by field directly (not through method handles) get the bound the
 * accessors' walk gives, to the byte: for short and long ids, lists and keys, and under limits small enough that the
 * walk stops early. A field left out, or read in another order, changes some of these sums.
 */
class EventLineLimitTest {

    @Test
    void givenTheCommonEventsOfAStepWhenBoundedDirectlyThenTheBoundIsTheAccessorsWalk() {
        Random random = new Random(11);
        int compared = 0;
        for (int round = 0; round < 200; round++) {
            String id = "req-" + "x".repeat(random.nextInt(round % 10 == 0 ? 400 : 12)) + "\"" + round;
            List<Integer> ints = ints(random, random.nextInt(round % 7 == 0 ? 3000 : 20));
            List<String> keys = keys(random, random.nextInt(round % 5 == 0 ? 200 : 6));
            PerGroup<Integer> perGroup = round % 2 == 0 ? PerGroup.single(ints) : PerGroup.of(ints, ints(random, 3));
            PerGroup<String> perGroupKeys = round % 2 == 0 ? PerGroup.single(keys) : PerGroup.of(keys, keys(random, 2));
            List<EngineEvent> events = List.of(
                    new BlocksAllocated(id, perGroup, random.nextInt(64)),
                    new StoreJobScheduled(round, id, perGroup, perGroupKeys, perGroup),
                    new StoreJobCompleted(round, id, random.nextBoolean()),
                    new TransferAcknowledged(round, id, random.nextBoolean()),
                    new TokensRejected(id, random.nextInt(100)),
                    new ChunksStored(keys),
                    new ChunksEvicted(keys),
                    new PrefixMatched(id, 16, 8, perGroup),
                    new BlocksReleased(id, perGroup),
                    new RequestRegistered(id, ints.size(), ints, round % 3 == 0 ? 64 : null, null, round % 4 == 0 ? true : null),
                    new RequestFinished(id, FinishReason.LENGTH),
                    new TokensAppended(id, 9, ints),
                    new TokensComputed(id, 9));
            for (long limit : new long[] {40, 300, 5_000, EventLineLimit.DEFAULT}) {
                EventLineLimit lineLimit = EventLineLimit.of(limit);
                for (EngineEvent event : events) {
                    assertEquals(lineLimit.boundByAccessors(event), lineLimit.bound(event),
                            event.getClass().getSimpleName() + " under " + limit + " bytes, round " + round);
                    compared++;
                }
            }
        }
        assertTrue(compared > 10_000, "compared " + compared);
    }

    private static List<Integer> ints(Random random, int count) {
        List<Integer> ints = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ints.add(random.nextInt(1 << 20));
        }
        return ints;
    }

    private static List<String> keys(Random random, int count) {
        List<String> keys = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            keys.add(Long.toHexString(random.nextLong()) + Long.toHexString(random.nextLong()));
        }
        return keys;
    }
}

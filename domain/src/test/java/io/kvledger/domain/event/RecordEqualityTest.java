package io.kvledger.domain.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.state.HashedPrompt;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The events whose {@code equals} is written out keep the record's equality. (C1, the log tools' compiler, runs a
 * record's generated equality as a chain of method handles called one by one, and the audit compares every derived
 * event with its logged one: about 4 % of the audit's thread for the five commonest events alone.) Each is equal
 * to a copy, and unequal to a copy that differs in any one component, null included. Every component of each record
 * must have a change here, so a component added to the record fails this test until its equality is held too.
 */
class RecordEqualityTest {

    static Stream<Arguments> writtenOut() {
        return Stream.of(
                events(RequestRegistered.class, List.of("r", 4, List.of(1, 2, 3, 4), 8, 4, true),
                        changes("requestId", "s", "promptLength", 5, "promptTokens", List.of(1, 2, 3, 5),
                                "maxOffloadTokens", 16, "maxLoadTokens", 2, "skipReadingPrefixCache", false)),
                events(TokensAppended.class, List.of("r", 5, List.of(9)),
                        changes("requestId", "s", "numTokens", 6, "tokens", List.of(8))),
                events(TokensComputed.class, List.of("r", 5),
                        changes("requestId", "s", "numComputedTokens", 6)),
                events(BlocksReleased.class, List.of("r", PerGroup.single(List.of(1, 2))),
                        changes("requestId", "s", "blockIds", PerGroup.single(List.of(2, 1)))),
                events(BlocksAllocated.class, List.of("r", PerGroup.single(List.of(1, 2)), 0),
                        changes("requestId", "s", "blockIds", PerGroup.single(List.of(1, 3)), "externalTokens", 16)),
                events(PrefixMatched.class, List.of("r", 16, 8, PerGroup.single(List.of(0, 1))),
                        changes("requestId", "s", "gpuHitTokens", 8, "externalTokens", 0,
                                "hitChunks", PerGroup.of(List.of(0, 1), List.of(1)))),
                events(TransferAcknowledged.class, List.of(7L, "r", true),
                        changes("jobId", 8L, "requestId", "s", "success", false)),
                events(TokensRejected.class, List.of("r", 5), changes("requestId", "s", "numComputedTokens", 4)),
                events(ChunksEvicted.class, List.of(List.of("a", "b")), changes("keys", List.of("b", "a"))),
                events(ChunksStored.class, List.of(List.of("a", "b")), changes("keys", List.of("a"))),
                events(StoreJobCompleted.class, List.of(7L, "r", true),
                        changes("jobId", 8L, "requestId", "s", "success", false)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("writtenOut")
    void givenAnEventWhenAnyOneComponentDiffersThenItIsNotEqualAndACopyIsEqual(
            Class<? extends Record> type, List<Object> base, Map<String, Object> changes) throws Exception {
        assertTrue(Arrays.stream(type.getDeclaredMethods()).anyMatch(m -> m.getName().equals("equals")),
                type.getSimpleName() + " writes its equals out; if it no longer does, drop it from this test");
        RecordComponent[] components = type.getRecordComponents();
        Constructor<? extends Record> canonical = type.getDeclaredConstructor(
                Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
        Record event = canonical.newInstance(base.toArray());
        assertEquals(event, canonical.newInstance(base.toArray()));
        assertEquals(event.hashCode(), canonical.newInstance(base.toArray()).hashCode());
        for (int i = 0; i < components.length; i++) {
            String name = components[i].getName();
            assertTrue(changes.containsKey(name), type.getSimpleName() + "." + name + " has no change in this test");
            for (Object changed : changedValues(components[i], changes.get(name))) {
                List<Object> args = new ArrayList<>(base);
                args.set(i, changed);
                Record other = canonical.newInstance(args.toArray());
                assertNotEquals(event, other, type.getSimpleName() + " with " + name + " = " + changed);
                assertNotEquals(other, event, type.getSimpleName() + " with " + name + " = " + changed + ", turned round");
            }
        }
        // A prompt hashed ahead equals its plain tokens, as the record's own equality had it.
        if (type == RequestRegistered.class) {
            List<Object> args = new ArrayList<>(base);
            args.set(2, HashedPrompt.of(List.of(1, 2, 3, 4), 2));
            assertEquals(event, canonical.newInstance(args.toArray()));
        }
    }

    /** The change, and null too where the component may be null (a reference other than a list or an id). */
    private static List<Object> changedValues(RecordComponent component, Object change) {
        List<Object> values = new ArrayList<>();
        values.add(change);
        Class<?> type = component.getType();
        if (!type.isPrimitive() && type != List.class && type != PerGroup.class && type != String.class) {
            values.add(null);
        }
        return values;
    }

    private static Arguments events(Class<? extends Record> type, List<Object> base, Map<String, Object> changes) {
        return Arguments.of(type, base, changes);
    }

    private static Map<String, Object> changes(Object... pairs) {
        Map<String, Object> changes = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            changes.put((String) pairs[i], pairs[i + 1]);
        }
        return changes;
    }
}

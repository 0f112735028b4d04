package io.kvledger.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.StoreDeferred;
import io.kvledger.domain.event.WindowBlocksFreed;
import io.kvledger.domain.state.EngineState;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Every event type has its branch in {@link EngineFold#evolve}: given the logs of the seeded programs
 * of {@link RecordedLogsTest}, each type of the sealed {@link EngineEvent} occurs, and each changes the
 * state somewhere, except the ones that record an answer rather than a change. A new event type fails
 * this test until the fold (and a program) knows it: a type the fold does not know leaves every state
 * as it is, which is exactly what this tells apart.
 */
class FoldCoverageTest {

    /** The types that record an answer (EngineFold's documentation names them): they never change state. */
    private static final Set<Class<?>> ANSWERS = Set.of(FlushRequired.class, StoreDeferred.class, CommandRejected.class);

    /** Types only an engine with KV cache groups writes (contract section 7); the grouped tests fold them. */
    private static final Set<Class<?>> GROUPED_ONLY = Set.of(WindowBlocksFreed.class);

    @Test
    void everyEventTypeIsFoldedAndChangesStateUnlessItRecordsAnAnswer() {
        Set<Class<?>> seen = new HashSet<>();
        Set<Class<?>> changed = new HashSet<>();
        for (long seed = 1; seed <= 300; seed++) {
            EngineState state = null;
            for (EngineEvent event : RecordedLogsTest.run(seed)) {
                // The fold changes the state in place: the state before is read from a copy.
                EngineState before = state == null ? null : state.copy();
                EngineState next = EngineFold.evolve(state, event);
                seen.add(event.getClass());
                if (ANSWERS.contains(event.getClass())) {
                    assertTrue(next == state && next.equals(before), event + " records an answer yet changed the state");
                } else if (before == null || !next.equals(before)) {
                    changed.add(event.getClass());
                }
                state = next;
            }
        }
        Set<Class<?>> types = concreteTypes(EngineEvent.class);
        types.removeAll(GROUPED_ONLY);
        assertEquals(names(types), names(seen), "event types the seeded programs produce");
        Set<Class<?>> changing = new HashSet<>(types);
        changing.removeAll(ANSWERS);
        assertEquals(names(changing), names(changed), "event types whose fold changed a state");
        assertTrue(changed.contains(EngineConfigured.class));
    }

    private static Set<Class<?>> concreteTypes(Class<?> sealed) {
        Set<Class<?>> found = new HashSet<>();
        Deque<Class<?>> open = new ArrayDeque<>(Set.of(sealed));
        while (!open.isEmpty()) {
            Class<?> type = open.pop();
            if (type.isSealed()) {
                open.addAll(Set.of(type.getPermittedSubclasses()));
            } else {
                found.add(type);
            }
        }
        return found;
    }

    private static Set<String> names(Set<Class<?>> types) {
        Set<String> names = new TreeSet<>();
        types.forEach(type -> names.add(type.getSimpleName()));
        return names;
    }
}

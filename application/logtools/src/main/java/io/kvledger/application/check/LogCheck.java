package io.kvledger.application.check;

import io.kvledger.application.finding.Finding;
import io.kvledger.domain.event.EngineEvent;
import java.util.List;

/**
 * A check of an event log, fed one event at a time in log order from {@code EngineConfigured}. The
 * simulator, the shrinker's oracle and the property tests take any {@code LogCheck}; the audit plugs in
 * as one:
 *
 * <pre>{@code
 * LogCheck audit = new EventLogRules(); // the audit's rules and three of its own
 * }</pre>
 */
@FunctionalInterface
public interface LogCheck {

    /** Checks one event (its {@code seq} is its 1-based position in the log) and remembers it; empty when it breaks nothing. */
    List<Finding> check(long seq, EngineEvent event);

    /** Adapts a checker whose findings have another type. */
    static <V> LogCheck of(java.util.function.BiFunction<Long, EngineEvent, List<V>> checker,
                           java.util.function.Function<V, Finding> finding) {
        return (seq, event) -> checker.apply(seq, event).stream().map(finding).toList();
    }

    /** What the last events broke that only shows once the log ends (the audit judges a command when the next starts). */
    default List<Finding> finish() {
        return List.of();
    }

    /** Both checks, this one's findings first, at each event and at {@link #finish()}. */
    default LogCheck and(LogCheck other) {
        LogCheck first = this;
        return new LogCheck() {
            @Override
            public List<Finding> check(long seq, EngineEvent event) {
                return concat(first.check(seq, event), other.check(seq, event));
            }

            @Override
            public List<Finding> finish() {
                // Dropping either side's finish() would leave the last command of a step unjudged.
                return concat(first.finish(), other.finish());
            }
        };
    }

    private static List<Finding> concat(List<Finding> mine, List<Finding> theirs) {
        if (theirs.isEmpty()) {
            return mine;
        }
        if (mine.isEmpty()) {
            return theirs;
        }
        List<Finding> both = new java.util.ArrayList<>(mine);
        both.addAll(theirs);
        return both;
    }
}

package io.kvledger.application.check;

import io.kvledger.domain.event.EngineEvent;
import java.util.List;

/**
 * A check of an event log, fed one event at a time in log order from {@code EngineConfigured}. The
 * simulator, the shrinker's oracle and the property tests take any {@code LogCheck}; the audit plugs in
 * as one:
 *
 * <pre>{@code
 * LogCheck audit = LogCheck.of(new Auditor()::check, v -> new LogFinding(v.seq(), v.code().name(), v.requestId(), v.reason()));
 * }</pre>
 */
@FunctionalInterface
public interface LogCheck {

    /** Checks one event (its {@code seq} is its 1-based position in the log) and remembers it; empty when it breaks nothing. */
    List<LogFinding> check(long seq, EngineEvent event);

    /** Adapts a checker whose findings have another type. */
    static <V> LogCheck of(java.util.function.BiFunction<Long, EngineEvent, List<V>> checker,
                           java.util.function.Function<V, LogFinding> finding) {
        return (seq, event) -> checker.apply(seq, event).stream().map(finding).toList();
    }

    /** Both checks, this one's findings first. */
    default LogCheck and(LogCheck other) {
        return (seq, event) -> {
            List<LogFinding> mine = check(seq, event);
            List<LogFinding> theirs = other.check(seq, event);
            if (theirs.isEmpty()) {
                return mine;
            }
            if (mine.isEmpty()) {
                return theirs;
            }
            List<LogFinding> both = new java.util.ArrayList<>(mine);
            both.addAll(theirs);
            return both;
        };
    }
}

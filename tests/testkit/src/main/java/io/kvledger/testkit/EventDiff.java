package io.kvledger.testkit;

import io.kvledger.domain.event.EngineEvent;
import java.util.List;

/**
 * The failure text of an expectation: expected and actual events side by side, one row per position,
 * the differing rows marked, so the first wrong event is found without counting.
 */
final class EventDiff {

    private static final String NONE = "-";

    private EventDiff() {
    }

    /** Whether every position matches and the lists have the same length. */
    static boolean same(List<?> expected, List<? extends EngineEvent> actual) {
        if (expected.size() != actual.size()) {
            return false;
        }
        for (int i = 0; i < expected.size(); i++) {
            if (!EventMatcher.matches(expected.get(i), actual.get(i))) {
                return false;
            }
        }
        return true;
    }

    static String describe(String what, List<?> expected, List<? extends EngineEvent> actual) {
        int rows = Math.max(expected.size(), actual.size());
        int width = "expected".length();
        for (Object e : expected) {
            width = Math.max(width, String.valueOf(e).length());
        }
        int first = -1;
        StringBuilder table = new StringBuilder();
        table.append(String.format("     #  %-" + width + "s | %s%n", "expected", "actual"));
        for (int i = 0; i < rows; i++) {
            Object e = i < expected.size() ? expected.get(i) : null;
            EngineEvent a = i < actual.size() ? actual.get(i) : null;
            boolean same = e != null && a != null && EventMatcher.matches(e, a);
            if (!same && first < 0) {
                first = i + 1;
            }
            table.append(String.format("  %s %2d  %-" + width + "s | %s%n", same ? " " : ">", i + 1,
                    e == null ? NONE : e, a == null ? NONE : a));
        }
        return what + " differ (" + expected.size() + " expected, " + actual.size() + " actual; first difference at #"
                + first + ", rows marked >):\n" + table;
    }
}

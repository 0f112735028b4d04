package io.kvledger.domain.decision;

import io.kvledger.domain.state.HashedPrompt;
import java.util.List;

/** Range checks of command fields. */
final class Arguments {

    private Arguments() {
    }

    static void requireNonNegative(String field, List<Integer> values) {
        if (values instanceof HashedPrompt prompt && prompt.nonNegative()) {
            return; // checked where it was hashed (a log tool's parse thread, the simulator's host)
        }
        for (int i = 0; i < values.size(); i++) {
            Integer value = values.get(i);
            if (value == null || value < 0) {
                throw Rejection.invalidArgument(field + "[" + i + "] must be a non-negative integer, was " + value);
            }
        }
    }

    /** An optional count: {@code null} (not given) or an integer >= 0. */
    static void requireNonNegative(String field, Integer value) {
        if (value != null && value < 0) {
            throw Rejection.invalidArgument(field + " must be an integer >= 0, was " + value);
        }
    }

    static void requirePositive(String field, int value) {
        if (value <= 0) {
            throw Rejection.invalidArgument(field + " must be > 0, was " + value);
        }
    }

    static int addWithoutOverflow(String field, int base, int delta) {
        long sum = (long) base + delta;
        if (sum > Integer.MAX_VALUE) {
            throw Rejection.invalidArgument(field + " would take the count past " + Integer.MAX_VALUE);
        }
        return (int) sum;
    }
}

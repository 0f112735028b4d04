package io.kvledger.testkit;

import java.util.List;
import org.opentest4j.AssertionFailedError;

/**
 * A then check that failed. The message shows expected and actual side by side; the expected and actual
 * values are also attached one event a line, so an IDE's diff view shows them too.
 */
public final class ExpectationFailure extends AssertionFailedError {

    private static final long serialVersionUID = 1L;

    ExpectationFailure(String message, List<?> expected, List<?> actual) {
        super(message, lines(expected), lines(actual));
    }

    private static String lines(List<?> items) {
        StringBuilder text = new StringBuilder();
        for (Object item : items) {
            text.append(item).append('\n');
        }
        return text.toString();
    }
}

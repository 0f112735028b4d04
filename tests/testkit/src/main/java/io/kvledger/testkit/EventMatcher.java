package io.kvledger.testkit;

import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RejectionCode;
import java.util.Objects;

/**
 * An expected event that is not compared whole: a {@link CommandRejected}, whose message is free prose,
 * matched by every other field. Its {@code toString} is what a failure shows in the expected column.
 */
public interface EventMatcher {

    boolean matches(EngineEvent actual);

    /** A rejection of the command at {@code line}, matched by command name, code and request id, with any non-blank message. */
    static EventMatcher rejected(long line, String cmd, RejectionCode code, Object requestId) {
        return new Rejection(line, cmd, code, requestId, null);
    }

    /** A rejection of a {@code CompleteTransfer} at {@code line}, matched by code and job id. */
    static EventMatcher rejectedJob(long line, RejectionCode code, Object jobId) {
        return new Rejection(line, "CompleteTransfer", code, null, jobId);
    }

    /** A rejection matched by every field but the message. */
    static EventMatcher rejected(long line, String cmd, RejectionCode code, Object requestId, Object jobId) {
        return new Rejection(line, cmd, code, requestId, jobId);
    }

    /** Whether {@code expected} (an {@link EngineEvent}, compared whole, or an {@link EventMatcher}) matches {@code actual}. */
    static boolean matches(Object expected, EngineEvent actual) {
        if (expected instanceof EventMatcher matcher) {
            return matcher.matches(actual);
        }
        return Objects.equals(expected, actual);
    }

    /** The rejection matcher; integer ids compare by value whatever their boxed type. */
    record Rejection(long line, String cmd, RejectionCode code, Object requestId, Object jobId) implements EventMatcher {

        public Rejection {
            Objects.requireNonNull(cmd, "cmd");
            Objects.requireNonNull(code, "code");
        }

        @Override
        public boolean matches(EngineEvent actual) {
            return actual instanceof CommandRejected r
                    && r.line() == line
                    && cmd.equals(r.cmd())
                    && r.code() == code
                    && sameId(requestId, r.requestId())
                    && sameId(jobId, r.jobId())
                    && r.message() != null && !r.message().isBlank();
        }

        private static boolean sameId(Object expected, Object actual) {
            if (expected instanceof Number e && actual instanceof Number a) {
                return e.longValue() == a.longValue();
            }
            return Objects.equals(expected, actual);
        }

        @Override
        public String toString() {
            return "CommandRejected[line=" + line + ", cmd=" + cmd + ", code=" + code + ", requestId=" + requestId
                    + ", jobId=" + jobId + ", a non-blank message]";
        }
    }
}

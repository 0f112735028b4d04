package io.kvledger.domain.event;

/**
 * A command that was refused; it changes no state.
 *
 * @param line      the scenario line of the command (0 when the host gives none)
 * @param cmd       the command's name
 * @param code      the stable rejection code
 * @param message   one sentence saying why
 * @param requestId the request id as given (a String, or a Long when given as an integer), or {@code null}
 * @param jobId     the job id as given (a Long, or a String when given as one), or {@code null}
 */
public record CommandRejected(long line, String cmd, RejectionCode code, String message,
                              Object requestId, Object jobId) implements EngineEvent {

    public CommandRejected {
        requestId = widen(requestId);
        jobId = widen(jobId);
    }

    /** An integer id is kept as a Long however it was read, so equal rejections are equal. */
    private static Object widen(Object id) {
        return id instanceof Integer || id instanceof Short || id instanceof Byte ? ((Number) id).longValue() : id;
    }
}

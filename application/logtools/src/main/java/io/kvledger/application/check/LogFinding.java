package io.kvledger.application.check;

/**
 * One broken rule, at the event (or host step) that broke it.
 *
 * @param seq       the event's position in the log (for a host check: the last event of the step)
 * @param code      a stable code: one of contract section 5's audit codes where it applies
 * @param requestId the request concerned, or {@code null}
 * @param reason    one sentence
 */
public record LogFinding(long seq, String code, String requestId, String reason) {

    /** The audit line format: {@code seq <N> <CODE> request <ID>: <reason>}. */
    public String line() {
        return "seq " + seq + " " + code + " request " + (requestId == null ? "-" : requestId) + ": " + reason;
    }
}

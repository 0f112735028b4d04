package io.kvledger.application.audit;

/**
 * One broken rule, at the event that broke it.
 *
 * @param requestId the request it concerns, or {@code null} when none
 * @param reason    one sentence
 */
public record Violation(long seq, AuditCode code, String requestId, String reason) {

    /** The audit output line: {@code seq <N> <CODE> request <ID>: <reason>} (contract section 5). */
    public String line() {
        return "seq " + seq + " " + code + " request " + (requestId == null ? "-" : requestId) + ": " + reason;
    }
}

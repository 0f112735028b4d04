package io.kvledger.application.finding;

/**
 * One broken rule, at the event (or host step) that broke it: what {@code kvledger audit} prints, what
 * the simulator fails on, what the shrinker shrinks for and what the fleet audit stores.
 *
 * @param seq       the event's position in the log (for a host check: the last event of the step)
 * @param code      the typed code
 * @param requestId the request concerned, or {@code null}
 * @param reason    one sentence: what the rules give and what the log shows
 */
public record Finding(long seq, FindingCode code, String requestId, String reason) {

    /** The class of this finding (contract 9.2): its code's, or for a code with cases of both, its reason's case. */
    public RuleClass ruleClass() {
        return code.ruleClass(reason);
    }

    /** Whether this finding is of the safety class: what {@code audit --rules safety} prints. */
    public boolean isSafety() {
        return ruleClass() == RuleClass.SAFETY;
    }

    /** The audit line format (contract section 5): {@code seq <N> <CODE> request <ID>: <reason>}. */
    public String line() {
        return "seq " + seq + " " + code.name() + " request " + (requestId == null ? "-" : requestId) + ": " + reason;
    }
}

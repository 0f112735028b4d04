package io.kvledger.application.finding;

import io.kvledger.domain.event.RejectionCode;

/**
 * The typed code of a {@link Finding}: an audit code (contract section 5 and the audit's own,
 * {@code AuditCode}), a code of the simulator's and the log checks' own ({@code CheckCode}), or a
 * rejection code a command was refused with ({@link Rejected}). One vocabulary, so the shrinker's
 * {@code --until}, the simulator, the audit and the fleet name the same thing the same way. The
 * registry of every code, {@code FindingCodes}, lives apart (in the log checks), so this interface
 * depends on no code's package.
 */
public interface FindingCode {

    /** The stable name printed in a finding's line. */
    String name();

    /**
     * The class of a finding of this code whose reason names no case (contract 9.2). The audit's codes
     * follow the contract's table; every other code (a check of the simulator or the log checks, a
     * rejection) shows a broken rule of the engine, so it is safety.
     */
    default RuleClass ruleClass() {
        return RuleClass.SAFETY;
    }

    /**
     * The class of one finding of this code with this reason: for the codes that have a case of each
     * class, the reason names the case; for every other code, {@link #ruleClass()}.
     */
    default RuleClass ruleClass(String reason) {
        return ruleClass();
    }

    /** A rejection code as a finding code. */
    record Rejected(RejectionCode rejection) implements FindingCode {
        @Override
        public String name() {
            return rejection.name();
        }
    }

    /** Whether a finding or rejection of {@code other} shows this code (same name). */
    default boolean matches(FindingCode other) {
        return name().equals(other.name());
    }
}

package io.kvledger.application.check;

import io.kvledger.application.audit.AuditCode;
import io.kvledger.domain.event.RejectionCode;
import java.util.ArrayList;
import java.util.List;

/**
 * The typed code of a {@link Finding}: an audit code (contract section 5 and the audit's own), a code
 * of the simulator's and the log checks' own ({@link CheckCode}), or a rejection code a command was
 * refused with ({@link Rejected}). One vocabulary, so the shrinker's {@code --until}, the simulator and
 * the audit name the same thing the same way.
 */
public interface FindingCode {

    /** The stable name printed in a finding's line. */
    String name();

    /** A rejection code as a finding code. */
    record Rejected(RejectionCode rejection) implements FindingCode {
        @Override
        public String name() {
            return rejection.name();
        }
    }

    /** Every code, audit codes first. */
    static List<FindingCode> all() {
        List<FindingCode> all = new ArrayList<>(List.of(AuditCode.values()));
        for (CheckCode code : CheckCode.values()) {
            all.add(code);
        }
        for (RejectionCode code : RejectionCode.values()) {
            if (all.stream().noneMatch(known -> known.name().equals(code.name()))) {
                all.add(new Rejected(code));
            }
        }
        return all;
    }

    /**
     * The code of this name. A name that is both an audit code and a rejection code ({@code UNKNOWN_JOB},
     * {@code UNKNOWN_REQUEST}, {@code DUPLICATE_REQUEST}) is the audit code; {@link #matches} accepts both.
     *
     * @throws IllegalArgumentException naming the known codes when there is none of that name
     */
    static FindingCode parse(String name) {
        for (FindingCode code : all()) {
            if (code.name().equals(name)) {
                return code;
            }
        }
        throw new IllegalArgumentException("unknown code " + name + "; known codes: "
                + String.join(", ", all().stream().map(FindingCode::name).toList()));
    }

    /** Whether a finding or rejection of {@code other} shows this code (same name). */
    default boolean matches(FindingCode other) {
        return name().equals(other.name());
    }
}

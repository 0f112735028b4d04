package io.kvledger.application.check;

import io.kvledger.application.audit.AuditCode;
import io.kvledger.application.finding.FindingCode;
import io.kvledger.domain.event.RejectionCode;
import java.util.ArrayList;
import java.util.List;

/** The registry of every finding code: the audit's, the checks' own and the rejection codes. */
public final class FindingCodes {

    private FindingCodes() {
    }

    /** Every code, audit codes first. */
    public static List<FindingCode> all() {
        List<FindingCode> all = new ArrayList<>(List.of(AuditCode.values()));
        for (CheckCode code : CheckCode.values()) {
            all.add(code);
        }
        for (RejectionCode code : RejectionCode.values()) {
            if (all.stream().noneMatch(known -> known.name().equals(code.name()))) {
                all.add(new FindingCode.Rejected(code));
            }
        }
        return all;
    }

    /**
     * The code of this name. A name that is both an audit code and a rejection code ({@code UNKNOWN_JOB},
     * {@code UNKNOWN_REQUEST}, {@code DUPLICATE_REQUEST}) is the audit code; {@link FindingCode#matches}
     * accepts both.
     *
     * @throws IllegalArgumentException naming the known codes when there is none of that name
     */
    public static FindingCode parse(String name) {
        for (FindingCode code : all()) {
            if (code.name().equals(name)) {
                return code;
            }
        }
        throw new IllegalArgumentException("unknown code " + name + "; known codes: "
                + String.join(", ", all().stream().map(FindingCode::name).toList()));
    }
}

package io.kvledger.application.audit;

import io.kvledger.application.finding.Finding;
import io.kvledger.application.finding.RuleClass;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which findings an audit reports (contract 9.2, {@code audit --rules}): {@link #ALL}, the default, or only
 * those of the {@link RuleClass#SAFETY safety} class. The audit judges every rule either way, so its state
 * and the findings it keeps are the same; only what it reports differs.
 */
public enum AuditRules {
    /** Every finding, of both classes: the same as an audit without {@code --rules}. */
    ALL,
    /** Only the findings of the safety class (a line whose reasons include a safety case among them). */
    SAFETY;

    /** The value {@code --rules} takes for this selection. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The selection {@code --rules VALUE} names.
     *
     * @throws IllegalArgumentException naming the value and the ones allowed
     */
    public static AuditRules of(String value) {
        for (AuditRules rules : values()) {
            if (rules.label().equals(value)) {
                return rules;
            }
        }
        throw new IllegalArgumentException("--rules takes all or safety, not '" + value + "'");
    }

    /** Whether this selection reports {@code finding}. */
    public boolean keeps(Finding finding) {
        return this == ALL || finding.isSafety();
    }

    /** The findings this selection reports, in their order: the same list for {@link #ALL}. */
    public List<Finding> kept(List<Finding> findings) {
        if (this == ALL || findings.isEmpty()) {
            return findings;
        }
        List<Finding> kept = new ArrayList<>(findings.size());
        for (Finding finding : findings) {
            if (keeps(finding)) {
                kept.add(finding);
            }
        }
        return kept;
    }
}

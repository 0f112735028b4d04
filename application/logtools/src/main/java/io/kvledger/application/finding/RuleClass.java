package io.kvledger.application.finding;

/**
 * The two classes of audit findings (contract section 9.2). A safety finding shows the KV data or the
 * engine's accounting broken, a bug whatever the engine's policies are; a policy finding shows a decision
 * other than the contract's where another one would also be safe (on another engine's log, a difference of
 * policy, not necessarily a bug).
 */
public enum RuleClass {
    SAFETY,
    POLICY;

    /** The lower-case name the command line and the docs use ({@code safety}, {@code policy}). */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}

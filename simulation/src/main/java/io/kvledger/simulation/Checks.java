package io.kvledger.simulation;

/**
 * What a simulation checks after every step. {@code ALL} (the default) is the full check; {@code HOST}
 * leaves out the audit's rules and the second fold they need (about as costly as the engine's own step),
 * for runs that use the simulator as a load generator and measure the engine.
 */
public enum Checks {
    /** The host's rules, every rule of {@code kvledger audit} and the log's fold against the engine's state. */
    ALL,
    /** The host's rules only (blocks written during transfers, unheld releases, the tier, progress). */
    HOST
}

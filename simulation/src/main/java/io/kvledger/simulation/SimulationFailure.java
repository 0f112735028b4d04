package io.kvledger.simulation;

import io.kvledger.application.finding.Finding;
import java.util.List;
import java.util.stream.Collectors;

/** A broken check or an exception during a simulation; the message names the seed and step to reproduce it. */
public final class SimulationFailure extends RuntimeException {

    private final long seed;
    private final long step;
    private final transient List<Finding> findings;

    SimulationFailure(long seed, long step, List<Finding> findings) {
        super("seed " + seed + " step " + step + ": " + findings.stream().map(Finding::line)
                .collect(Collectors.joining("; ")));
        this.seed = seed;
        this.step = step;
        this.findings = List.copyOf(findings);
    }

    SimulationFailure(long seed, long step, Throwable cause) {
        super("seed " + seed + " step " + step + ": EXCEPTION " + cause, cause);
        this.seed = seed;
        this.step = step;
        this.findings = List.of();
    }

    public long seed() {
        return seed;
    }

    public long step() {
        return step;
    }

    /** The broken checks; empty when the engine threw. */
    public List<Finding> findings() {
        return findings;
    }
}

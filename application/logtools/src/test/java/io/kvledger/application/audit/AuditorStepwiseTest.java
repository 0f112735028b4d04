package io.kvledger.application.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kvledger.application.finding.Finding;
import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.decision.Decider;
import io.kvledger.domain.decision.Decision;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Auditor#finish()} may be called wherever a command is complete (a host calls it at the end of
 * each scheduler step): two allocations in a row that each hand out a fenced block, each answered by its
 * own FlushRequired, audit clean whether the auditor is told where the commands end or not.
 */
class AuditorStepwiseTest {

    private static final EngineConfig CONFIG = new EngineConfig(1, 2, 1, 1, ReleasePolicy.FENCE, null, false);
    private static final List<EngineCommand> COMMANDS = List.of(
            new RegisterRequest("r0", List.of(0)),
            new RegisterRequest("r1", List.of(0, 1)),
            new AllocateBlocks("r1", List.of(2, 3), 0),
            new ComputeTokens("r1", 2),
            new AbortRequest("r1"),
            new AllocateBlocks("r0", List.of(11, 0, 1, 2), 0),
            new AllocateBlocks("r0", List.of(1, 2), 0));

    @Test
    void flushesOfConsecutiveAllocationsAuditCleanWithAndWithoutCommandEnds() {
        for (boolean stepwise : List.of(true, false)) {
            Auditor auditor = new Auditor();
            List<Finding> findings = new ArrayList<>();
            EngineState state = null;
            long seq = 0;
            EngineEvent configured = Decider.configure(CONFIG);
            findings.addAll(auditor.check(++seq, configured));
            state = io.kvledger.domain.EngineFold.evolve(state, configured);
            int flushes = 0;
            for (EngineCommand command : COMMANDS) {
                Decision.Accepted accepted = (Decision.Accepted) Decider.decide(state, command);
                for (EngineEvent event : accepted.events()) {
                    flushes += event instanceof io.kvledger.domain.event.FlushRequired ? 1 : 0;
                    findings.addAll(auditor.check(++seq, event));
                    state = io.kvledger.domain.EngineFold.evolve(state, event);
                }
                if (stepwise) {
                    findings.addAll(auditor.finish());
                }
            }
            findings.addAll(auditor.finish());
            assertEquals(2, flushes, "both allocations hand out fenced block 2");
            assertEquals(List.of(), findings, stepwise ? "finish() after every command" : "finish() at the end");
        }
    }
}

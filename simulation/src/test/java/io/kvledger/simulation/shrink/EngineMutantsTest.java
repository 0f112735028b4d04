package io.kvledger.simulation.shrink;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.audit.AuditCode;
import io.kvledger.application.audit.Auditor;
import io.kvledger.application.finding.Finding;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.simulation.SimulationOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The audit flags the log of an engine with one rule changed: a simulated workload (the commands a
 * seeded host sent the real engine) run through each mutant, over a few seeds, must show the mutant's code.
 */
class EngineMutantsTest {

    private static final int REQUESTS = 80;

    @ParameterizedTest
    @EnumSource(EngineMutant.class)
    void theAuditFlagsTheLogOfAnEngineWithOneRuleChanged(EngineMutant mutant) throws Exception {
        Set<String> codes = new TreeSet<>();
        for (long seed = 1; seed <= 3 && !codes.contains(mutant.code.name()); seed++) {
            List<EngineEvent> log = DecisionExecution.of(mutant).run(scenario(seed));
            audit(log).forEach(finding -> codes.add(finding.code().name()));
        }
        assertTrue(codes.contains(mutant.code.name()), mutant + " shows " + codes);
    }

    @org.junit.jupiter.api.Test
    void thePreFixAbortRuleWithTheTableClampStoresPastTheBound() throws Exception {
        List<EngineEvent> log = DecisionExecution.of(PreFixAbortRule.withTableClamp()).run(scenario(1));
        assertTrue(audit(log).stream().anyMatch(f -> f.code() == AuditCode.STORE_BEYOND_BOUND));
    }

    @org.junit.jupiter.api.Test
    void theRealEngineOnTheSameWorkloadsAuditsClean() throws Exception {
        for (long seed = 1; seed <= 3; seed++) {
            List<Finding> findings = audit(DecisionExecution.of(io.kvledger.domain.decision.Decider::decide).run(scenario(seed)));
            assertTrue(findings.isEmpty(), "seed " + seed + ": " + findings.stream().limit(3).map(Finding::line).toList());
        }
    }

    @org.junit.jupiter.api.Test
    void aMutantsLogShrinksToAMinimalScenarioThatStillShowsItsCode() throws Exception {
        ViolationOracle oracle = new ViolationOracle(DecisionExecution.of(EngineMutant.PREEMPTION_WITHOUT_FLUSH),
                io.kvledger.application.check.EventLogRules::new, AuditCode.FLUSH_MISSING);
        Scenario simulated = scenario(1);
        assertTrue(oracle.shows(simulated));

        Shrinker.Result result = new Shrinker(oracle).shrink(simulated);

        assertTrue(oracle.shows(result.scenario()));
        assertTrue(result.scenario().size() <= 6, result.scenario().text());
    }

    private static List<Finding> audit(List<EngineEvent> log) {
        Auditor auditor = new Auditor();
        List<Finding> findings = new ArrayList<>();
        for (int i = 0; i < log.size(); i++) {
            findings.addAll(auditor.check(i + 1, log.get(i)));
        }
        findings.addAll(auditor.finish());
        return findings;
    }

    /** Two workers, failures, preemption and resets, so every mutated rule is reached. */
    private static Scenario scenario(long seed) throws Exception {
        SimulationOptions options = new SimulationOptions(REQUESTS, seed, 0.15, 0.05, 0.08, 2,
                seed % 2 == 0 ? ReleasePolicy.DELAY_FREE : ReleasePolicy.FENCE, 0.01);
        return ShrinkerTest.simulatedScenario(options);
    }
}

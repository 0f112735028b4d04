package io.kvledger.simulation.shrink;

import io.kvledger.application.check.CheckCode;
import io.kvledger.application.finding.FindingCode;
import io.kvledger.application.check.LogCheck;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineEvent;
import java.util.List;
import java.util.function.Supplier;

/**
 * Whether running a scenario shows a code: {@code EXCEPTION} when the engine throws, a check's code
 * when the log breaks that rule, or a rejection code when a command is refused with it.
 */
public final class ViolationOracle implements ScenarioOracle {

    public static final FindingCode EXCEPTION = CheckCode.EXCEPTION;

    private final ScenarioExecution execution;
    private final Supplier<LogCheck> checks;
    private final FindingCode code;

    public ViolationOracle(ScenarioExecution execution, Supplier<LogCheck> checks, FindingCode code) {
        this.execution = execution;
        this.checks = checks;
        this.code = code;
    }

    @Override
    public boolean shows(Scenario scenario) {
        List<EngineEvent> events;
        try {
            events = execution.run(scenario);
        } catch (RuntimeException | AssertionError e) {
            return code == CheckCode.EXCEPTION;
        }
        LogCheck check = checks.get();
        long seq = 0;
        for (EngineEvent event : events) {
            if (event instanceof CommandRejected rejected && code.name().equals(rejected.code().name())) {
                return true;
            }
            if (check.check(++seq, event).stream().anyMatch(finding -> code.matches(finding.code()))) {
                return true;
            }
        }
        return check.finish().stream().anyMatch(finding -> code.matches(finding.code()));
    }
}

package io.kvledger.simulation.audit;

import io.kvledger.application.audit.AuditRules;
import io.kvledger.application.audit.Auditor;
import io.kvledger.application.finding.Finding;
import io.kvledger.application.engine.StepEntry;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.simulation.SimulationOptions;
import io.kvledger.simulation.Simulator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A simulated run (deterministic per seed): its config, the commands the host sent and the log. */
record SimulatedRun(EngineConfig config, List<EngineCommand> commands, List<EngineEvent> events) {

    private static final Map<String, SimulatedRun> RUNS = new ConcurrentHashMap<>();

    static SimulatedRun of(SimulationOptions options) {
        return RUNS.computeIfAbsent(options.toString(), key -> run(options));
    }

    private static SimulatedRun run(SimulationOptions options) {
        List<EngineCommand> commands = new ArrayList<>();
        List<EngineEvent> events = new ArrayList<>();
        EngineConfig[] config = new EngineConfig[1];
        new Simulator(options).run(new Simulator.Listener() {
            @Override
            public void configured(EngineConfigured configured) {
                config[0] = configured.config();
                events.add(configured);
            }

            @Override
            public void step(List<StepEntry> entries, List<EngineEvent> stepEvents) {
                entries.forEach(entry -> commands.add(entry.command()));
                events.addAll(stepEvents);
            }
        });
        return new SimulatedRun(config[0], List.copyOf(commands), List.copyOf(events));
    }

    /** What {@code kvledger audit} finds in a log whose event {@code i} has seq {@code i + 1}. */
    static List<Finding> audit(List<EngineEvent> log) {
        return audit(log, AuditRules.ALL);
    }

    /** The same, reporting only what {@code rules} keeps ({@code kvledger audit --rules}). */
    static List<Finding> audit(List<EngineEvent> log, AuditRules rules) {
        Auditor auditor = new Auditor(null, null, rules);
        List<Finding> findings = new ArrayList<>();
        for (int i = 0; i < log.size(); i++) {
            findings.addAll(auditor.check(i + 1, log.get(i)));
        }
        findings.addAll(auditor.finish());
        return findings;
    }
}

package io.kvledger.infrastructure.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.engine.StepEntry;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.cli.KvLedgerCli;
import io.kvledger.simulation.SimulationModel;
import io.kvledger.simulation.SimulationOptions;
import io.kvledger.simulation.SimulationSummary;
import io.kvledger.simulation.Simulator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Long simulations, outside the default build (the name does not end in Test): run them with
 * {@code mvn -B -o -Psoak -pl infrastructure/cli -am verify}. The request count of the long
 * run is {@code -Dsoak.requests} (default a million); every check of the simulator runs on every step,
 * and any violation or exception fails with the seed and step.
 */
class SimulationSoak {

    @Test
    void twentyThousandRequestsThroughTheCommandLine() throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "soak"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8),
                "simulate", "--requests", "20000", "--seed", "1", "-o", dir.resolve("20000.jsonl").toString());
        System.out.print(out.toString(StandardCharsets.UTF_8));
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("simulated 20000 requests"));
    }

    /** The log is not written (it would take gigabytes); the checks see every event all the same. */
    @Test
    void manyRequestsRunWithoutAViolation() {
        manyRequests(SimulationOptions.DEFAULTS);
    }

    /** The same with a grouped model, {@code -Dsoak.model} (default gpt-oss: a full and a sliding-window group). */
    @Test
    void manyRequestsOfAGroupedModelRunWithoutAViolation() {
        SimulationModel model = SimulationModel.named(System.getProperty("soak.model", "gpt-oss"));
        manyRequests(SimulationOptions.DEFAULTS.withModel(model).withRequestTokens(model.requestTokens()));
    }

    private static void manyRequests(SimulationOptions base) {
        int requests = Integer.getInteger("soak.requests", 1_000_000);
        long seed = Long.getLong("soak.seed", 1);
        SimulationOptions options = base.withRequests(requests).withSeed(seed);
        SimulationSummary summary = new Simulator(options).run(new Simulator.Listener() {
            @Override
            public void configured(EngineConfigured configured) {
            }

            @Override
            public void step(List<StepEntry> entries, List<EngineEvent> events) {
            }
        });
        System.out.print(options.model().name() + ": " + summary.text(seed));
        assertEquals(requests, summary.requests());
        assertEquals(requests, summary.finished() + summary.aborted());
    }
}

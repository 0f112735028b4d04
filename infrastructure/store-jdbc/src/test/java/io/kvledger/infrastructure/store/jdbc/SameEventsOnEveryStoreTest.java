package io.kvledger.infrastructure.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.kvledger.application.KvLedger;
import io.kvledger.application.engine.StepEntry;
import io.kvledger.application.engine.StepEvents;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.simulation.host.ScenarioRunner;
import io.kvledger.infrastructure.log.EventLogWriter;
import io.kvledger.simulation.SimulationOptions;
import io.kvledger.simulation.Simulator;
import io.kvledger.infrastructure.store.FileStores;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.JsonlEventStorageEngine;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The shared examples and seeded simulations give the same contract events on every store: in memory,
 * a JSON Lines file and PostgreSQL (all engines in one database, each under its own id). What the
 * PostgreSQL engine stored is read back through the serializer and must equal what it produced.
 */
@ExtendWith(TestPostgres.class)
class SameEventsOnEveryStoreTest {

    private static PostgresStore postgres;

    @TempDir
    Path dir;

    @BeforeAll
    static void open() {
        postgres = PostgresStore.open(TestPostgres.newDatabase(), 4);
    }

    @AfterAll
    static void close() {
        postgres.close();
    }

    static Stream<String> examples() throws Exception {
        Path examples = Path.of(SameEventsOnEveryStoreTest.class.getResource("/examples").toURI());
        try (Stream<Path> files = Files.list(examples)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jsonl") && !n.contains(".expect"))
                    .sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("examples")
    void anExampleGivesTheSameLogOnEveryStore(String example) throws Exception {
        String engineId = "example-" + example;
        String inMemory = run(example, config -> builder(config, KvLedger.builder()));
        String file = run(example, config -> builder(config,
                FileStores.builder(JsonlEventStorageEngine.open(dir.resolve("store.jsonl"), FsyncPolicy.NEVER))));
        String jdbc = run(example, config -> builder(config, postgres.ledger(engineId)));

        assertEquals(inMemory, file, example + ": file store");
        assertEquals(inMemory, jdbc, example + ": PostgreSQL");
        assertFalse(inMemory.isEmpty());
        assertEquals(linesOf(inMemory), storedLines(engineId), example + ": stored in PostgreSQL and read back");
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 42, 1234})
    void aSeededSimulationGivesTheSameEventsOnEveryStore(long seed) {
        SimulationOptions options = SimulationOptions.DEFAULTS.withRequests(40).withSeed(seed);
        String engineId = "simulation-" + seed;
        List<EngineEvent> inMemory = simulate(options, (config, unused) -> KvLedger.builder().config(config).build());
        List<EngineEvent> file = simulate(options, (config, unused) -> FileStores.builder(
                JsonlEventStorageEngine.open(dir.resolve("sim-" + seed + ".jsonl"), FsyncPolicy.NEVER)).config(config).build());
        List<EngineEvent> jdbc = simulate(options, (config, unused) -> postgres.ledger(engineId).config(config).build());

        assertEquals(inMemory, file, "file store, seed " + seed);
        assertEquals(inMemory, jdbc, "PostgreSQL, seed " + seed);
        assertEquals(inMemory, storedEvents(engineId), "stored in PostgreSQL and read back, seed " + seed);
    }

    @Test
    void engineIdsSeparateLedgersWhoseRequestIdsRepeat() {
        List<String> logs = new ArrayList<>();
        for (String id : List.of("twin-a", "twin-b")) {
            try (KvLedger ledger = postgres.ledger(id).config(EngineConfig.DEFAULTS.withCpuCapacityChunks(id.endsWith("a") ? 4 : 8)).build()) {
                ledger.step(List.of(new io.kvledger.domain.command.RegisterRequest("r1", List.of(1, 2, 3))));
            }
            logs.add(storedLines(id).toString());
        }
        try (KvLedger again = postgres.ledger("twin-a").build()) {
            assertEquals(4, again.state().config().cpuCapacityChunks());
            assertEquals(1, again.state().requests().size());
        }
        assertFalse(logs.get(0).equals(logs.get(1)));
        assertEquals(true, postgres.engineIds().containsAll(List.of("twin-a", "twin-b")));
    }

    private static KvLedger builder(Optional<EngineConfig> config, KvLedger.Builder builder) {
        config.ifPresent(builder::config);
        return builder.build();
    }

    private static String run(String example, java.util.function.Function<Optional<EngineConfig>, KvLedger> ledgers)
            throws Exception {
        StringWriter out = new StringWriter();
        EventLogWriter log = new EventLogWriter(out);
        try (InputStream in = SameEventsOnEveryStoreTest.class.getResourceAsStream("/examples/" + example)) {
            new ScenarioRunner(ledgers).run(in, log);
        }
        log.flush();
        return out.toString();
    }

    private static List<EngineEvent> simulate(SimulationOptions options, BiFunction<EngineConfig, Void, KvLedger> ledgers) {
        return new Simulator(options, () -> (seq, event) -> List.of(), config -> ledgers.apply(config, null)).events();
    }


    private static List<EngineEvent> storedEvents(String engineId) {
        List<EngineEvent> events = new ArrayList<>();
        postgres.engine().readEvents(engineId).asStream().forEach(message -> {
            Object payload = message.getPayload();
            if (payload instanceof StepEvents step) {
                events.addAll(step.events());
            } else {
                events.add((EngineEvent) payload);
            }
        });
        return events;
    }

    private static List<String> storedLines(String engineId) {
        StringWriter out = new StringWriter();
        EventLogWriter log = new EventLogWriter(out);
        log.writeAll(storedEvents(engineId));
        return linesOf(out.toString());
    }

    private static List<String> linesOf(String log) {
        return log.lines().toList();
    }
}

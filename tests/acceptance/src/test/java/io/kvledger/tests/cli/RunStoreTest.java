package io.kvledger.tests.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.infrastructure.json.EventJson;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code kvledger run --store}: the events kept in a store file, which a later run continues. */
class RunStoreTest {

    private static final String FIRST = """
            {"config": {"gpuBlockSize": 4}}
            {"cmd": "RegisterRequest", "requestId": "a", "promptTokens": [1, 2, 3, 4, 5, 6, 7, 8]}
            {"cmd": "AllocateBlocks", "requestId": "a", "blockIds": [1, 2]}
            {"cmd": "ComputeTokens", "requestId": "a", "tokens": 8}
            """;
    private static final String SECOND = """
            {"cmd": "RegisterRequest", "requestId": "a", "promptTokens": [9]}
            {"cmd": "CompleteTransfer", "jobId": 0}
            {"cmd": "FinishRequest", "requestId": "a", "reason": "STOPPED"}
            """;

    @TempDir
    Path dir;

    static Stream<Path> scenarios() throws IOException, URISyntaxException {
        Path examples = Path.of(RunStoreTest.class.getResource("/examples").toURI());
        return Files.list(examples).filter(p -> p.toString().endsWith(".jsonl") && !p.toString().endsWith(".expect.jsonl")).sorted();
    }

    /**
     * Stored and captured cannot diverge: a fresh store is the output line for line, plus an envelope
     * on the first line of each step's message (only there).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void aFreshStoreHoldsExactlyTheOutputPlusEnvelopes(Path scenario) throws IOException {
        Path store = dir.resolve("store.jsonl");

        CliRun run = CliRun.of("run", scenario.toString(), "--store", store.toString(), "--fsync", "never");

        List<String> stored = Files.readAllLines(store, StandardCharsets.UTF_8);
        assertEquals(run.stdout().size(), stored.size(), run.stderr());
        int envelopes = 0;
        for (int i = 0; i < stored.size(); i++) {
            ObjectNode line = (ObjectNode) EventJson.mapper().readTree(stored.get(i));
            JsonNode envelope = line.remove("envelope");
            line.remove("stepCrc32c"); // a step's checksum (store format 3), on its last line
            assertTrue(envelope == null || envelope.isObject(), "line " + (i + 1));
            envelopes += envelope == null ? 0 : 1;
            assertEquals(EventJson.mapper().readTree(run.stdout().get(i)), line, "line " + (i + 1));
        }
        assertTrue(EventJson.mapper().readTree(stored.get(0)).has("envelope"), "the first line begins a message");
        assertTrue(envelopes < stored.size() || stored.size() <= 2, "steps of several events carry one envelope");
    }

    @Test
    void aRunOnAnExistingStoreContinuesIt() throws IOException {
        Path store = dir.resolve("store.jsonl");
        assertEquals(0, CliRun.of("run", scenario("first", FIRST), "--store", store.toString()).exit());
        int firstRun = Files.readAllLines(store).size();

        CliRun second = CliRun.of("run", scenario("second", SECOND), "--store", store.toString(), "--fsync", "interval:50");

        assertEquals(0, second.exit(), second.stderr());
        String output = String.join("\n", second.stdout());
        assertTrue(second.stdout().get(0).contains("\"EngineConfigured\", \"gpuBlockSize\": 4"), "the stored config: " + second.stdout().get(0));
        assertTrue(output.contains("\"code\": \"DUPLICATE_REQUEST\""), "request a is known: " + output);
        assertTrue(output.contains("\"StoreJobCompleted\", \"jobId\": 0"), "job 0 of the first run is known: " + output);
        assertTrue(output.contains("\"RequestFinished\", \"requestId\": \"a\""), output);

        List<String> stored = Files.readAllLines(store);
        assertTrue(stored.size() > firstRun, "the second run's events follow the first's");
        assertEquals(stored.size(), second.stdout().size(), "the output is the whole log: the stored events, then the run's");
        for (int i = 0; i < stored.size(); i++) {
            assertTrue(stored.get(i).startsWith("{\"seq\": " + (i + 1) + ", "), "seq continues: " + stored.get(i));
            ObjectNode line = (ObjectNode) EventJson.mapper().readTree(stored.get(i));
            line.remove("envelope");
            line.remove("stepCrc32c");
            assertEquals(line, EventJson.mapper().readTree(second.stdout().get(i)), "line " + (i + 1));
        }
        assertEquals(1, stored.stream().filter(l -> l.contains("\"EngineConfigured\"")).count());
        CliRun third = CliRun.of("run", scenario("third", "{\"cmd\": \"ResetCache\"}\n"), "--store", store.toString());
        assertEquals(0, third.exit(), third.stderr());
    }

    @Test
    void aConfigLineThatDiffersFromTheStoredConfigIsRefused() throws IOException {
        Path store = dir.resolve("store.jsonl");
        CliRun.of("run", scenario("first", FIRST), "--store", store.toString());
        byte[] before = Files.readAllBytes(store);

        CliRun run = CliRun.of("run", scenario("other", "{\"config\": {\"gpuBlockSize\": 8}}\n{\"cmd\": \"ResetCache\"}\n"),
                "--store", store.toString());

        assertEquals(2, run.exit());
        assertTrue(run.stderr().contains("is configured with gpuBlockSize 4, the config given has gpuBlockSize 8"), run.stderr());
        assertArrayEquals(before, Files.readAllBytes(store));
    }

    @Test
    void aCorruptStoreIsRefusedNamingTheLine() throws IOException {
        Path store = dir.resolve("store.jsonl");
        CliRun.of("run", scenario("first", FIRST), "--store", store.toString());
        List<String> lines = new ArrayList<>(Files.readAllLines(store));
        lines.set(1, "{\"seq\": 2, \"oops\": true}");
        Files.write(store, lines);

        CliRun run = CliRun.of("run", scenario("second", SECOND), "--store", store.toString());

        assertEquals(2, run.exit());
        assertTrue(run.stderr().contains(store + ": line 2: type is missing"), run.stderr());
    }

    @Test
    void aTornEndIsCutAndTheRunGoesOn() throws IOException {
        Path store = dir.resolve("store.jsonl");
        CliRun.of("run", scenario("first", FIRST), "--store", store.toString());
        int whole = Files.readAllLines(store).size();
        Files.writeString(store, "{\"seq\": " + (whole + 1) + ", \"type\": \"Tok", StandardOpenOption.APPEND);

        CliRun run = CliRun.of("run", scenario("second", SECOND), "--store", store.toString());

        assertEquals(0, run.exit(), run.stderr());
        List<String> stored = Files.readAllLines(store);
        assertEquals(stored.size(), run.stdout().size(), "the whole log, the torn line cut");
        assertTrue(run.stderr().contains("kvledger: store " + store + ": recovered from a torn end"), run.stderr());
        assertTrue(stored.get(whole).startsWith("{\"seq\": " + (whole + 1) + ", \"type\": \"CommandRejected\""), stored.get(whole));
    }

    @Test
    void anUnknownFsyncPolicyIsAUsageError() throws IOException {
        CliRun run = CliRun.of("run", scenario("first", FIRST), "--store", dir.resolve("s.jsonl").toString(), "--fsync", "sometimes");

        assertEquals(2, run.exit());
        assertTrue(run.stderr().contains("always, never or interval:MS"), run.stderr());
    }

    private String scenario(String name, String text) throws IOException {
        Path file = dir.resolve(name + ".jsonl");
        Files.writeString(file, text);
        return file.toString();
    }
}

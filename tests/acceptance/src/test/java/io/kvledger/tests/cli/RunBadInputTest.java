package io.kvledger.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kvledger run} on bad input: a clear message naming the line, exit 2, and the events before it kept. */
class RunBadInputTest {

    private static final String DEFAULT_CONFIGURED = "{\"seq\": 1, \"type\": \"EngineConfigured\", \"gpuBlockSize\": 16, "
            + "\"blocksPerChunk\": 1, \"workers\": 1, \"cpuCapacityChunks\": 1024, \"releasePolicy\": \"FENCE\", "
            + "\"maxOffloadTokens\": null, \"offloadPromptOnly\": false}";

    @TempDir
    Path dir;

    @Test
    void anEmptyScenarioWritesTheDefaultConfigurationLiterally() throws IOException {
        CliRun run = CliRun.of("run", scenario(""));

        assertEquals(0, run.exit());
        assertEquals(java.util.List.of(DEFAULT_CONFIGURED), run.stdout());
    }

    @Test
    void aMalformedLineStopsTheRunNamingItAndKeepsTheEventsBeforeIt() throws IOException {
        CliRun run = CliRun.of("run", scenario("""
                {"cmd": "RegisterRequest", "requestId": "r", "promptTokens": [1, 2]}

                {"cmd": "AbortRequest", "requestId": "r"}
                {"cmd": "AbortRequest", "requestId": "r"
                {"cmd": "RegisterRequest", "requestId": "s", "promptTokens": [1]}
                """));

        assertEquals(2, run.exit());
        assertTrue(run.stderr().contains("line 4:"), run.stderr());
        assertEquals(3, run.stdout().size(), "EngineConfigured, RequestRegistered, RequestAborted: " + run.stdout());
        assertTrue(run.stdout().get(2).contains("\"RequestAborted\""));
    }

    @Test
    void aFirstLineThatIsMalformedStillWritesEngineConfigured() throws IOException {
        CliRun run = CliRun.of("run", scenario("[1, 2]\n"));

        assertEquals(2, run.exit());
        assertTrue(run.stderr().contains("line 1: not a JSON object"), run.stderr());
        assertEquals(java.util.List.of(DEFAULT_CONFIGURED), run.stdout());
    }

    @Test
    void aMalformedConfigLineWritesNothing() throws IOException {
        CliRun run = CliRun.of("run", scenario("{\"config\": {\"gpuBlockSize\": 4, \"colour\": \"red\"}}\n"));

        assertEquals(2, run.exit());
        assertTrue(run.stderr().contains("line 1: unknown config field colour"), run.stderr());
        assertEquals(0, run.stdout().size());
    }

    @Test
    void aConfigValueOutOfRangeIsMalformed() throws IOException {
        assertEquals(2, CliRun.of("run", scenario("{\"config\": {\"gpuBlockSize\": 0}}\n")).exit());
        assertEquals(2, CliRun.of("run", scenario("{\"config\": {\"workers\": 2.0}}\n")).exit());
        assertEquals(2, CliRun.of("run", scenario("{\"config\": {\"releasePolicy\": \"LATER\"}}\n")).exit());
        assertEquals(2, CliRun.of("run", scenario("{\"config\": {\"maxOffloadTokens\": -1}}\n")).exit());
    }

    @Test
    void aConfigLineAfterTheFirstNonBlankLineIsMalformed() throws IOException {
        CliRun run = CliRun.of("run", scenario("\n{\"cmd\": \"ResetCache\"}\n{\"config\": {}}\n"));

        assertEquals(2, run.exit());
        assertTrue(run.stderr().contains("line 3: a config line must be the first non-blank line"), run.stderr());
        assertEquals(2, run.stdout().size(), "EngineConfigured and CacheReset are kept");
    }

    @Test
    void aMissingOrUnknownCmdIsMalformed() throws IOException {
        CliRun missing = CliRun.of("run", scenario("{\"requestId\": \"r\"}\n"));
        CliRun unknown = CliRun.of("run", scenario("{\"cmd\": \"Teleport\"}\n"));

        assertEquals(2, missing.exit());
        assertTrue(missing.stderr().contains("line 1: cmd is missing"), missing.stderr());
        assertEquals(2, unknown.exit());
        assertTrue(unknown.stderr().contains("line 1: unknown cmd \"Teleport\""), unknown.stderr());
    }

    @Test
    void invalidUtf8IsMalformedAndNamesTheLine() throws IOException {
        Path file = dir.resolve("bad.jsonl");
        byte[] good = "{\"cmd\": \"ResetCache\"}\n".getBytes(StandardCharsets.UTF_8);
        byte[] bad = {'{', '"', 'c', 'm', 'd', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}', '\n'};
        Files.write(file, concat(good, bad));

        CliRun run = CliRun.of("run", file.toString());

        assertEquals(2, run.exit());
        assertTrue(run.stderr().contains("line 2: not valid UTF-8"), run.stderr());
    }

    @Test
    void aMissingScenarioFileExitsWithTwo() {
        CliRun run = CliRun.of("run", dir.resolve("absent.jsonl").toString());

        assertEquals(2, run.exit());
        assertTrue(run.stderr().contains("no such file"), run.stderr());
    }

    @Test
    void eventsGoToTheOutputFileWhenOneIsGiven() throws IOException {
        Path out = dir.resolve("events.jsonl");

        CliRun run = CliRun.of("run", scenario("{\"cmd\": \"ResetCache\"}\n"), "-o", out.toString());

        assertEquals(0, run.exit());
        assertEquals(0, run.stdout().size());
        assertEquals(2, Files.readAllLines(out).size());
    }

    private String scenario(String text) throws IOException {
        Path file = Files.createTempFile(dir, "scenario", ".jsonl");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file.toString();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}

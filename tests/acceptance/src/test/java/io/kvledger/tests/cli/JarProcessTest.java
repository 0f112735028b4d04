package io.kvledger.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged command line as a real child process ({@code java -jar kvledger.jar}), as the
 * {@code kvledger} launcher runs it. The jar is built by the infrastructure module's package phase,
 * which runs before this module's tests in {@code mvn verify}.
 */
class JarProcessTest {

    @TempDir
    Path dir;

    @Test
    void runsAnExampleAndWritesTheLogToStdout() throws Exception {
        Path scenario = Path.of(getClass().getResource("/examples/01_prefill_decode.jsonl").toURI());

        CliRun result = kvledger("run", scenario.toString());

        assertEquals(0, result.exit(), result.stderr());
        assertTrue(result.stdout().get(0).startsWith("{\"seq\": 1, \"type\": \"EngineConfigured\""), result.stdout().get(0));
        assertTrue(result.stdout().stream().anyMatch(l -> l.contains("\"StoreJobScheduled\"")));
        assertEquals("", result.stderr().strip(), "nothing but the log: no banner, no framework logging");
    }

    @Test
    void exitsWithTwoAndKeepsTheEventsBeforeAMalformedLine() throws Exception {
        Path scenario = dir.resolve("bad.jsonl");
        Files.writeString(scenario, "{\"cmd\": \"ResetCache\"}\nnot json\n");
        Path out = dir.resolve("events.jsonl");

        CliRun result = kvledger("run", scenario.toString(), "-o", out.toString());

        assertEquals(2, result.exit());
        assertTrue(result.stderr().contains("line 2"), result.stderr());
        assertEquals(2, Files.readAllLines(out).size());
    }

    @Test
    void auditsAForeignLogAndReplaysTheLogOfARun() throws Exception {
        Path crash = Path.of(getClass().getResource("/foreign-logs/vllm_abort_mid_prefill_crash_state.jsonl").toURI());
        Path scenario = Path.of(getClass().getResource("/examples/05_abort_mid_prefill.jsonl").toURI());
        Path log = dir.resolve("events.jsonl");

        CliRun audit = kvledger("audit", crash.toString());
        CliRun run = kvledger("run", scenario.toString(), "-o", log.toString());
        CliRun replay = kvledger("replay", log.toString(), "--at", "6", "--request", "r");
        CliRun clean = kvledger("audit", log.toString(), "--progress");

        assertEquals(1, audit.exit(), audit.stderr());
        assertEquals(3, audit.stdout().size(), String.join("\n", audit.stdout()));
        assertTrue(audit.stdout().get(0).startsWith("seq 8 STORE_SLICE_MISMATCH request cmpl-7f3a9c1e-0: "), audit.stdout().get(0));
        assertEquals("", audit.stderr().strip(), "no banner, no framework logging, no progress off a terminal");
        assertEquals(0, run.exit(), run.stderr());
        assertEquals(0, replay.exit(), replay.stderr());
        assertEquals("request r after seq 6 (StoreJobScheduled)", replay.stdout().get(0));
        assertTrue(replay.stdout().contains("cursor    s=2"), String.join("\n", replay.stdout()));
        assertEquals(0, clean.exit(), clean.stderr());
        assertTrue(clean.stderr().startsWith("audit: 100%"), clean.stderr());
    }

    @Test
    void printsTheVersionTheBuildGaveIt() throws Exception {
        String built = System.getProperty("kvledger.version");
        assertTrue(built != null && !built.isBlank(), "the build passes kvledger.version");

        CliRun result = kvledger("--version");

        assertEquals(0, result.exit(), result.stderr());
        assertEquals(List.of("kvledger " + built), result.stdout());
    }

    @Test
    void printsHelp() throws Exception {
        CliRun result = kvledger("--help");

        assertEquals(0, result.exit());
        assertTrue(String.join("\n", result.stdout()).contains("run"));
    }

    private CliRun kvledger(String... args) throws IOException, InterruptedException {
        return CliRun.ofJar(dir, args);
    }
}

package io.kvledger.tests.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 10, item 8: every long command reports progress with --progress (on a terminal without it). */
class ProgressTest {

    @TempDir
    Path dir;

    @Test
    void runWithAndWithoutAStoreReportsProgress() {
        Path store = dir.resolve("store.jsonl");
        Kvledger.Result run = Kvledger.inProcess("run", Examples.prefillDecode(), "--progress");
        Kvledger.Result stored = Kvledger.inProcess("run", Examples.prefillDecode(), "--store", store.toString(), "--progress");
        Kvledger.Result quiet = Kvledger.inProcess("run", Examples.prefillDecode());

        assertEquals(0, run.exit(), run.toString());
        assertTrue(run.stderr().startsWith("run: 100% "), run.stderr());
        assertTrue(run.stderr().contains(" events in "), run.stderr());
        assertTrue(stored.stderr().startsWith("run: 100% "), stored.stderr());
        assertEquals("", quiet.stderr(), "no progress off a terminal unless asked for");
    }

    @Test
    void simulateAndShrinkReportProgress() throws Exception {
        Kvledger.Result simulate = Kvledger.inProcess("simulate", "--requests", "30", "-o", dir.resolve("x.jsonl").toString(),
                "--progress");
        Path scenario = Files.writeString(dir.resolve("s.jsonl"),
                "{\"cmd\": \"ResetCache\"}\n{\"cmd\": \"ResetCache\"}\n{\"cmd\": \"AbortRequest\", \"requestId\": \"x\"}\n");
        Kvledger.Result shrink = Kvledger.inProcess("shrink", scenario.toString(), "--until", "UNKNOWN_REQUEST", "--progress");

        assertEquals(0, simulate.exit(), simulate.toString());
        assertTrue(simulate.stderr().contains("simulate: 100% 30 requests / 30 requests"), simulate.stderr());
        assertEquals(0, shrink.exit(), shrink.toString());
        assertTrue(shrink.stderr().startsWith("shrink: "), shrink.stderr());
        assertTrue(shrink.stderr().contains(" runs/s") && shrink.stderr().contains(" runs in "), shrink.stderr());
    }
}

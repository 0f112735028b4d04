package io.kvledger.tests.store;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.infrastructure.cli.KvLedgerCli;
import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23: {@code kill -9} of {@code run -o OUT} left {@code .OUT.<n>.tmp} that nothing removed. A run
 * holds a lock on its temporary while it writes; the next run to the same output removes a temporary
 * nobody holds, and never one a live run is writing.
 */
class KilledRunTemporaryTest {

    @TempDir
    Path dir;

    @Test
    void theNextRunRemovesWhatAKilledRunLeftButNotWhatALiveOneWrites() throws Exception {
        Path out = dir.resolve("OUT.jsonl");
        Path scenario = dir.resolve("scenario.fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", scenario.toString()).inheritIO().start().waitFor());
        Process killed = new ProcessBuilder(KillDuringAppendTest.javaCommand(KvLedgerCli.class.getName(), "run",
                scenario.toString(), "-o", out.toString())).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        Process live = null;
        try (OutputStream feed = new FileOutputStream(scenario.toFile())) {
            feed.write(Workload.lines(0, 60, true).getBytes(StandardCharsets.UTF_8));
            feed.flush();
            await().atMost(Duration.ofSeconds(60)).until(() -> temporaries().size() == 1 && Files.size(temporaries().get(0)) > 0);
            killed.destroyForcibly().waitFor(); // SIGKILL: no shutdown hook runs
            Path left = temporaries().get(0);
            assertTrue(Files.exists(left), "the killed run left its temporary");

            // A live run to the same output, held on its scenario: its temporary must survive the next run.
            Path liveScenario = dir.resolve("live.fifo");
            assertEquals(0, new ProcessBuilder("mkfifo", liveScenario.toString()).inheritIO().start().waitFor());
            live = new ProcessBuilder(KillDuringAppendTest.javaCommand(KvLedgerCli.class.getName(), "run",
                    liveScenario.toString(), "-o", out.toString())).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            try (OutputStream liveFeed = new FileOutputStream(liveScenario.toFile())) {
                liveFeed.write(Workload.lines(0, 60, true).getBytes(StandardCharsets.UTF_8));
                liveFeed.flush();
                await().atMost(Duration.ofSeconds(60)).until(() -> temporaries().stream().anyMatch(t -> !t.equals(left)));
                Path liveTemporary = temporaries().stream().filter(t -> !t.equals(left)).findFirst().orElseThrow();
                // The live run removed the dead one's temporary when it began.
                assertTrue(!Files.exists(left), "the next run removed the killed run's temporary");

                Path other = Files.writeString(dir.resolve("other.jsonl"), Workload.lines(0, 2, true));
                assertEquals(0, cli("run", other.toString(), "-o", out.toString()));
                assertTrue(Files.exists(liveTemporary), "a live run's temporary is never removed");
            }
            assertEquals(0, live.waitFor());
        } finally {
            killed.destroyForcibly();
            if (live != null) {
                live.destroyForcibly();
            }
        }
        assertEquals(List.of(), temporaries(), "nothing is left once the runs are done");
    }

    private List<Path> temporaries() throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().matches("\\.OUT\\.jsonl\\.\\d+\\.tmp")).sorted().toList();
        }
    }

    private static int cli(String... args) {
        return KvLedgerCli.execute(new ByteArrayOutputStream(), new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), args);
    }
}

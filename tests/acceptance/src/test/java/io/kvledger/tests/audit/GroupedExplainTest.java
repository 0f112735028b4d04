package io.kvledger.tests.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.infrastructure.cli.KvLedgerCli;
import io.kvledger.infrastructure.log.LogEntry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code kvledger explain LOG --job N} on the grouped examples (11-16): every job of kvledger's own log
 * follows the grouped rules of contract 7.4 and 7.6 (the offer and the loads of every group), where the
 * single-group explanation compared them with group 0's alone.
 */
class GroupedExplainTest {

    @TempDir
    Path dir;

    static Stream<Path> groupedExamples() throws Exception {
        return LogRun.scenarios().filter(p -> p.getFileName().toString().matches("1[1-6]_.*"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("groupedExamples")
    void everyJobOfAGroupedExampleFollowsTheRules(Path scenario) throws Exception {
        Path log = LogRun.run(scenario, dir);
        int jobs = 0;
        for (LogEntry entry : LogRun.read(log)) {
            long jobId;
            if (entry.event() instanceof StoreJobScheduled e) {
                jobId = e.jobId();
            } else if (entry.event() instanceof LoadJobScheduled e) {
                jobId = e.jobId();
            } else {
                continue;
            }
            jobs++;
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8), "explain", log.toString(),
                    "--job", Long.toString(jobId));
            String text = out.toString(StandardCharsets.UTF_8);
            assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
            assertTrue(text.contains("verdict      follows the rules"), "job " + jobId + " of " + scenario + ":\n" + text);
        }
        assertTrue(jobs > 0 || scenario.getFileName().toString().startsWith("16_"), "the example schedules jobs");
    }
}

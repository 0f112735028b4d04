package io.kvledger.infrastructure.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.replay.FoldStep;
import io.kvledger.application.replay.LogFold;
import io.kvledger.infrastructure.cli.KvLedgerCli;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The trace's tier counters, kept from the chunks each event names, equal a full walk of the tier after every event. */
class TraceCountersTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "seed {0}, {1} workers, release {2}")
    @CsvSource({"1, 1, FENCE", "2, 2, DELAY_FREE", "3, 1, DELAY_FREE", "4, 3, FENCE"})
    void incrementalTierCountsEqualAFullCountAtEveryEvent(long seed, int workers, String release) throws Exception {
        Path log = dir.resolve("sim-" + seed + ".jsonl");
        int exit = KvLedgerCli.execute(new ByteArrayOutputStream(), new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), "simulate", "--requests", "80", "--seed", Long.toString(seed),
                "--workers", Integer.toString(workers), "--release", release, "--fail-rate", "0.05", "--reset-rate", "0.01", "-o", log.toString());
        assertEquals(0, exit);
        TraceCounters counters = new TraceCounters(null);
        LogFold fold = new LogFold();
        long tierEvents = 0;
        try (InputStream in = Files.newInputStream(log)) {
            EventLogReader reader = new EventLogReader(in);
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                // As the trace does: the state before the event is read before it is folded, the one after from the fold.
                FoldStep pending = fold.prepare(entry.seq(), entry.event());
                counters.before(pending);
                FoldStep step = fold.complete(pending);
                counters.changed(step, 0, 0);
                TierCounts full = TierCounts.of(step.after().tier());
                assertEquals(full, counters.tier(), "after seq " + entry.seq() + " " + entry.type());
                tierEvents += full.ready() + full.writing() > 0 ? 1 : 0;
            }
        }
        assertTrue(tierEvents > 100, "the simulation must fill the tier for the comparison to mean anything");
    }
}

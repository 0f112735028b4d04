package io.kvledger.tests.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kvledger.infrastructure.cli.KvLedgerCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No false violations: the log of {@code kvledger simulate} audits clean over many seeds and settings,
 * as kvledger writes it and as another producer writes it (other keys and job ids, fields of its own,
 * an unknown event type).
 */
class SimulatedLogAuditTest {

    private static final int SEEDS = 30;
    private static final int REQUESTS = 150;

    @TempDir
    Path dir;

    @Test
    void simulatedLogsOfManySeedsAuditCleanNativeAndRewritten() throws Exception {
        List<String> dirty = new ArrayList<>();
        for (int seed = 1; seed <= SEEDS; seed++) {
            Path log = dir.resolve("sim-" + seed + ".jsonl");
            String[] simulate = {"simulate", "--requests", String.valueOf(REQUESTS), "--seed", String.valueOf(seed),
                    "--workers", String.valueOf(1 + seed % 3), "--release", seed % 2 == 0 ? "DELAY_FREE" : "FENCE",
                    "--abort-rate", "0.2", "--preempt-rate", "0.05", "--fail-rate", "0.05", "-o", log.toString()};
            assertEquals(0, cli(simulate).exit, "simulate seed " + seed);
            Path foreign = dir.resolve("foreign-" + seed + ".jsonl");
            Files.writeString(foreign, ForeignRewrite.rewriteAsProducer(LogRun.read(log), 2));
            for (Path audited : List.of(log, foreign)) {
                Run audit = cli("audit", audited.toString());
                if (audit.exit != 0) {
                    dirty.add(audited.getFileName() + ": " + audit.out.lines().limit(3).toList() + audit.err);
                }
            }
            Files.delete(log);
            Files.delete(foreign);
        }
        assertEquals(List.of(), dirty);
    }

    private record Run(int exit, String out, String err) {
    }

    private static Run cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8), args);
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}

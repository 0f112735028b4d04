package io.kvledger.infrastructure.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.infrastructure.cli.KvLedgerCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code run --store jdbc:...}, then {@code export}: the exported log is the run's output, and the audit passes. */
@ExtendWith(TestPostgres.class)
class CliOnPostgresTest {

    @TempDir
    Path dir;

    @Test
    void runThenExportGivesTheRunsLogAndTheAuditPassesIt() throws Exception {
        String url = TestPostgres.newDatabase();
        Path scenario = Path.of(getClass().getResource("/examples/07_preemption_flush.jsonl").toURI());
        Path runLog = dir.resolve("run.jsonl");
        Path exported = dir.resolve("export.jsonl");

        assertEquals(0, cli("run", scenario.toString(), "--store", url, "--engine", "gpu-0", "-o", runLog.toString()).exit);
        assertEquals(0, cli("run", scenario.toString(), "--store", url, "--engine", "gpu-1", "-o", dir.resolve("b").toString()).exit);
        assertEquals(0, cli("export", "--store", url, "--engine", "gpu-0", "-o", exported.toString()).exit);

        assertEquals(Files.readString(runLog), Files.readString(exported));
        Result audit = cli("audit", exported.toString());
        assertEquals(0, audit.exit, audit.err);
    }

    @Test
    void aSecondRunContinuesTheEngineAndExportHoldsBoth() throws Exception {
        String url = TestPostgres.newDatabase();
        Path scenario = Path.of(getClass().getResource("/examples/01_prefill_decode.jsonl").toURI());
        assertEquals(0, cli("run", scenario.toString(), "--store", url, "-o", dir.resolve("1").toString()).exit);
        Result second = cli("run", scenario.toString(), "--store", url, "-o", dir.resolve("2").toString());
        assertEquals(0, second.exit, second.err);
        Result exported = cli("export", "--store", url);
        assertEquals(0, exported.exit, exported.err);
        long lines = exported.out.lines().count();
        assertTrue(lines > Files.readAllLines(dir.resolve("1")).size(), "the export holds both runs: " + lines);
        assertEquals(0, cli("audit", write("both.jsonl", exported.out).toString()).exit);
    }

    @Test
    void anUnknownEngineAndAnUnreachableDatabaseAreNamed() {
        String url = TestPostgres.newDatabase();
        Result unknown = cli("export", "--store", url, "--engine", "nobody");
        assertEquals(2, unknown.exit);
        assertTrue(unknown.err.contains("holds no events of engine nobody"), unknown.err);
        Result unreachable = cli("export", "--store", "jdbc:postgresql://127.0.0.1:1/none?user=postgres&connectTimeout=2");
        assertEquals(2, unreachable.exit);
        assertTrue(unreachable.err.contains("cannot open the store"), unreachable.err);
    }

    @Test
    void aNodeWithoutRoomInItsBatchIsRefusedBeforeTheStoreIsOpened() {
        Result refused = cli("fleet", "node", "--store", "jdbc:postgresql://127.0.0.1:1/none", "--node", "n", "--batch-size", "0");
        assertEquals(2, refused.exit, refused.err);
        assertTrue(refused.err.contains("--batch-size must be at least 1, was 0"), refused.err);
    }

    private Path write(String name, String text) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    private record Result(int exit, String out, String err) {
    }

    private static Result cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8), args);
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}

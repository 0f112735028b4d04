package io.kvledger.tests.audit;

import io.kvledger.infrastructure.cli.KvLedgerCli;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Logs as {@code kvledger run} writes them, for the audit tests. */
final class LogRun {

    private LogRun() {
    }

    /** Every example scenario, and the scenarios written for the log tools. */
    static Stream<Path> scenarios() throws IOException, URISyntaxException {
        return Stream.concat(list("/examples"), list("/log-tools"));
    }

    static Path run(Path scenario, Path dir) {
        Path log = dir.resolve(scenario.getFileName() + ".events.jsonl");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(new ByteArrayOutputStream(), new PrintStream(err, true, StandardCharsets.UTF_8),
                "run", scenario.toString(), "-o", log.toString());
        if (exit != 0) {
            throw new IllegalStateException("kvledger run " + scenario + " exited " + exit + ": " + err);
        }
        return log;
    }

    static List<LogEntry> read(Path log) throws Exception {
        List<LogEntry> entries = new ArrayList<>();
        try (InputStream in = Files.newInputStream(log)) {
            EventLogReader reader = new EventLogReader(in);
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                entries.add(entry);
            }
        }
        return entries;
    }

    private static Stream<Path> list(String resource) throws IOException, URISyntaxException {
        Path dir = Path.of(LogRun.class.getResource(resource).toURI());
        return Files.list(dir)
                .filter(p -> p.toString().endsWith(".jsonl") && !p.toString().endsWith(".expect.jsonl"))
                .sorted();
    }
}

package io.kvledger.tests.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kvledger.application.audit.Auditor;
import io.kvledger.application.finding.Finding;
import io.kvledger.infrastructure.cli.KvLedgerCli;
import io.kvledger.infrastructure.log.LogEntry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A log written by kvledger audits clean: every example scenario's log, through the command line. */
class CleanLogAuditTest {

    @TempDir
    Path dir;

    static java.util.stream.Stream<Path> scenarios() throws Exception {
        return LogRun.scenarios();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void theLogOfKvledgerRunAuditsClean(Path scenario) {
        Path log = LogRun.run(scenario, dir);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8), "audit", log.toString());

        assertEquals("", out.toString(StandardCharsets.UTF_8));
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void theAuditorInProcessAgrees(Path scenario) throws Exception {
        Auditor auditor = new Auditor();
        List<Finding> violations = new ArrayList<>();
        for (LogEntry entry : LogRun.read(LogRun.run(scenario, dir))) {
            violations.addAll(auditor.check(entry.seq(), entry.event()));
        }
        violations.addAll(auditor.finish());

        assertEquals(List.of(), violations);
    }
}

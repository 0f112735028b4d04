package io.kvledger.tests.bench;

import io.kvledger.application.audit.Auditor;
import io.kvledger.application.replay.LogFold;
import io.kvledger.domain.EngineFold;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The log tools' cost past the parse: a log read into memory once, then its bare fold
 * ({@code EngineFold.evolve}), replay's fold ({@code LogFold}) and the audit ({@code Auditor}), warm, as this
 * thread's CPU per million events, round after round (docs/performance.md).
 *
 * <pre>java -Xmx3g -cp infrastructure/cli/target/kvledger.jar:tests/acceptance/target/test-classes \
 *     io.kvledger.tests.bench.FoldCpuTime LOG [ROUNDS]</pre>
 */
public final class FoldCpuTime {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private FoldCpuTime() {
    }

    public static void main(String[] args) throws Exception {
        List<LogEntry> entries = new ArrayList<>();
        try (InputStream in = Files.newInputStream(Path.of(args[0]))) {
            EventLogReader reader = new EventLogReader(in);
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                entries.add(entry);
            }
        }
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        double perMillion = 1e6 / entries.size();
        for (int round = 1; round <= rounds; round++) {
            long fold = cpu(() -> fold(entries));
            long replay = cpu(() -> replay(entries));
            long audit = cpu(() -> audit(entries));
            System.out.printf(Locale.ROOT, "round %d: %d events; CPU per million events: fold %.3f s, replay %.3f s, audit %.3f s%n",
                    round, entries.size(), fold / 1e9 * perMillion, replay / 1e9 * perMillion, audit / 1e9 * perMillion);
        }
    }

    private static long cpu(Runnable work) {
        long started = THREADS.getCurrentThreadCpuTime();
        work.run();
        return THREADS.getCurrentThreadCpuTime() - started;
    }

    private static void fold(List<LogEntry> entries) {
        EngineState state = null;
        for (LogEntry entry : entries) {
            EngineEvent event = entry.event();
            if (event != null) {
                state = EngineFold.evolve(state, event);
            }
        }
        if (state == null) {
            throw new IllegalStateException("empty log");
        }
    }

    private static void replay(List<LogEntry> entries) {
        LogFold fold = new LogFold();
        for (LogEntry entry : entries) {
            fold.fold(entry.seq(), entry.event());
        }
    }

    private static void audit(List<LogEntry> entries) {
        Auditor auditor = new Auditor();
        int findings = 0;
        for (LogEntry entry : entries) {
            findings += auditor.check(entry.seq(), entry.event()).size();
        }
        findings += auditor.finish().size();
        if (findings != 0) {
            throw new IllegalStateException(findings + " findings");
        }
    }
}

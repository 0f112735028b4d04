package io.kvledger.tests.bench;

import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The parse thread's own work, alone: a log read through {@link EventLogReader} (what the log tools' parse-ahead
 * thread runs, nothing folded), round after round in one process, as this thread's CPU per million events. Round
 * 1 is what a whole process pays with its compilation under way; the later rounds are the compiled code's cost.
 * Run it with {@code -XX:TieredStopAtLevel=1} for C1, as the launcher runs a 1 M-event log, or without for C2
 * (docs/performance.md).
 *
 * <pre>java -Xmx256m -XX:+UseSerialGC [-XX:TieredStopAtLevel=1] \
 *     -cp infrastructure/cli/target/kvledger.jar:tests/acceptance/target/test-classes \
 *     io.kvledger.tests.bench.ParseCpuTime LOG [ROUNDS]</pre>
 */
public final class ParseCpuTime {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private ParseCpuTime() {
    }

    public static void main(String[] args) throws Exception {
        Path log = Path.of(args[0]);
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        for (int round = 1; round <= rounds; round++) {
            long cpuBefore = THREADS.getCurrentThreadCpuTime();
            long wallBefore = System.nanoTime();
            long events = 0;
            long check = 0; // uses what was read, cheaply (the reader's own work cannot be left out: it changes its state)
            try (InputStream in = Files.newInputStream(log)) {
                EventLogReader reader = new EventLogReader(in);
                for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                    events++;
                    check += entry.seq() + (entry.event() == null ? 0 : 1);
                }
            }
            long cpu = THREADS.getCurrentThreadCpuTime() - cpuBefore;
            long wall = System.nanoTime() - wallBefore;
            double perMillion = 1e6 / events;
            System.out.printf(Locale.ROOT, "round %d: %d events (check %x); per million events: CPU %.3f s, wall %.3f s%n",
                    round, events, check, cpu / 1e9 * perMillion, wall / 1e9 * perMillion);
        }
    }
}

package io.kvledger.tests.bench;

import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.log.LogLineEncoder;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * The writing of a simulation's log alone: a log's events, read into memory first, encoded by {@link LogLineEncoder}
 * (what {@code simulate -o} writes with) round after round in one process, as this thread's CPU per million events.
 * Round 1 is what a whole process pays with its compilation under way. The bytes' CRC32C is printed so that two
 * versions can be seen to write the same bytes. Run it with {@code -XX:TieredStopAtLevel=1}, as the launcher runs
 * {@code simulate} (docs/performance.md).
 *
 * <pre>java -Xmx2g -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
 *     -cp infrastructure/cli/target/kvledger.jar:tests/acceptance/target/test-classes \
 *     io.kvledger.tests.bench.EncodeCpuTime LOG [ROUNDS]</pre>
 */
public final class EncodeCpuTime {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private EncodeCpuTime() {
    }

    public static void main(String[] args) throws Exception {
        Path log = Path.of(args[0]);
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        List<EngineEvent> events = new ArrayList<>();
        try (InputStream in = Files.newInputStream(log)) {
            EventLogReader reader = new EventLogReader(in);
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                events.add(entry.event());
            }
        }
        for (int round = 1; round <= rounds; round++) {
            Crc out = new Crc();
            long cpuBefore = THREADS.getCurrentThreadCpuTime();
            LogLineEncoder encoder = new LogLineEncoder(out);
            for (EngineEvent event : events) {
                encoder.write(event);
            }
            encoder.flush();
            long cpu = THREADS.getCurrentThreadCpuTime() - cpuBefore;
            System.out.printf(Locale.ROOT, "round %d: %d events, %d bytes (crc32c %08x); CPU per million events %.3f s%n",
                    round, events.size(), out.bytes, out.crc.getValue(), cpu / 1e9 * 1e6 / events.size());
        }
    }

    /** Takes the bytes as a file would, keeping only their count and checksum. */
    private static final class Crc extends OutputStream {
        final CRC32C crc = new CRC32C();
        long bytes;

        @Override
        public void write(int b) {
            crc.update(b);
            bytes++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            crc.update(b, off, len);
            bytes += len;
        }
    }
}

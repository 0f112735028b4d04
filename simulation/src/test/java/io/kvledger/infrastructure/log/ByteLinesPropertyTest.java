package io.kvledger.infrastructure.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.simulation.SimulationModel;
import io.kvledger.simulation.SimulationOptions;
import io.kvledger.simulation.Simulator;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The byte decoder against Jackson, over every line of logs the simulator writes (many seeds, every model, grouped
 * ones included) and of the foreign-log corpus, and over those lines mutated (bytes changed, cut, fields reordered,
 * escapes, huge and negative numbers, {@code null}s, duplicate fields, whitespace): whatever line it takes, the tree
 * path alone reads into an equal entry; a log read with it ends exactly as today's readers end it, with the same
 * entries and the same message at the same line. And it takes every line the writer writes but a configuration and a
 * rejection naming its ids, so it is the reader of a simulated log.
 */
class ByteLinesPropertyTest {

    private static final int SEEDS = 8;
    private static final int MUTATIONS_PER_SIMULATED_LOG = 120;
    /** The foreign logs are a few dozen lines each. */
    private static final int MUTATIONS_PER_FOREIGN_LOG = 30;
    private static final Path FOREIGN_LOGS = Path.of("..", "tests", "acceptance", "src", "test", "resources", "foreign-logs");

    private int taken;
    private int declined;

    @Test
    void everySimulatedLineOfEveryModelIsTakenAndReadAsJacksonReadsIt() throws Exception {
        int lines = 0;
        for (SimulationModel model : SimulationModel.all()) {
            for (long seed = 1; seed <= SEEDS; seed++) {
                byte[] log = simulated(model, seed);
                List<String> text = lines(log);
                assertSameOutcome(log, "model " + model.name() + " seed " + seed);
                List<LogEntry> byTree = entries(EventLogReader.treeOnly(in(log)));
                assertEquals(text.size(), byTree.size());
                ByteLines decoder = Context.of(text.get(0)).decoder();
                long lastSeq = 1;
                for (int i = 1; i < text.size(); i++) {
                    LogEntry entry = read(decoder, text.get(i), lastSeq, i + 1);
                    EngineEvent tree = byTree.get(i).event();
                    if (entry != null) {
                        assertEquals(byTree.get(i), entry, text.get(i));
                    }
                    boolean namesIds = tree instanceof CommandRejected rejected
                            && (rejected.requestId() != null || rejected.jobId() != null);
                    if (!namesIds) {
                        assertNotNull(entry, model.name() + " seed " + seed + ": the byte decoder takes " + text.get(i));
                    }
                    lastSeq = seqOf(text.get(i));
                    lines++;
                }
            }
        }
        assertTrue(lines > 50_000, "lines read: " + lines);
    }

    @Test
    void mutatedSimulatedLinesAreReadAsJacksonReadsThemOrLeftToIt() throws Exception {
        for (SimulationModel model : SimulationModel.all()) {
            for (long seed = 1; seed <= SEEDS / 2; seed++) {
                List<String> text = lines(simulated(model, seed));
                mutateAndCompare(text, new Random(seed * 31 + model.name().hashCode()), MUTATIONS_PER_SIMULATED_LOG,
                        model.name() + " seed " + seed);
            }
        }
        assertTrue(taken > 200 && declined > 1000, "mutated lines taken " + taken + ", left " + declined);
    }

    @Test
    void everyForeignLogAndItsMutationsAreReadAsJacksonReadsThem() throws Exception {
        List<Path> logs;
        try (Stream<Path> files = Files.list(FOREIGN_LOGS)) {
            logs = files.filter(file -> file.toString().endsWith(".jsonl")).sorted().toList();
        }
        assertTrue(logs.size() >= 50, "the foreign-log corpus of the acceptance tests: " + logs.size());
        int linesTaken = 0;
        for (Path file : logs) {
            byte[] log = Files.readAllBytes(file);
            assertSameOutcome(log, file.getFileName().toString());
            List<String> text = lines(log);
            Context context;
            try {
                context = Context.of(text.get(0));
            } catch (MalformedLogException e) {
                continue; // a log whose first line is refused: its whole outcome was compared above
            }
            ByteLines decoder = context.decoder();
            long lastSeq = 1;
            for (int i = 1; i < text.size(); i++) {
                if (text.get(i).isBlank()) {
                    continue;
                }
                LogEntry entry = read(decoder, text.get(i), lastSeq, i + 1);
                assertReadAsTheTreePathReadsIt(context, text.get(i), i + 1, lastSeq, entry);
                linesTaken += entry == null ? 0 : 1;
                try {
                    lastSeq = seqOf(text.get(i));
                } catch (RuntimeException e) {
                    break; // a line the log is refused at: what follows is never read
                }
            }
            mutateAndCompare(text, new Random(file.getFileName().toString().hashCode()), MUTATIONS_PER_FOREIGN_LOG,
                    file.getFileName().toString());
        }
        assertTrue(linesTaken > 500, "foreign lines taken by the byte decoder: " + linesTaken);
    }

    /** Mutates random lines of a log one at a time and compares both readers on each line and on the lines around it. */
    private void mutateAndCompare(List<String> text, Random random, int mutations, String what) throws Exception {
        Context context = Context.of(text.get(0));
        ByteLines decoder = context.decoder();
        for (int m = 0; m < mutations && text.size() > 4; m++) {
            int at = 2 + random.nextInt(text.size() - 2);
            int from = Math.max(1, at - 2);
            Long before = seqOrNull(text.get(at - 1));
            Long windowBefore = seqOrNull(text.get(from - 1));
            if (before == null || windowBefore == null) {
                continue; // a blank or refused line of a foreign log: no seq to go on from
            }
            String mutated = mutate(text.get(at), random);
            long lastSeq = before;
            LogEntry entry = read(decoder, mutated, lastSeq, at + 1);
            assertReadAsTheTreePathReadsIt(context, mutated, at + 1, lastSeq, entry);
            if (entry == null) {
                declined++;
            } else {
                taken++;
            }
            // The lines around it, read from the middle of the log: the same entries and the same message as today.
            int to = Math.min(text.size(), at + 3);
            StringBuilder window = new StringBuilder();
            for (int i = from; i < to; i++) {
                window.append(i == at ? mutated : text.get(i)).append('\n');
            }
            byte[] bytes = window.toString().getBytes(StandardCharsets.UTF_8);
            long seqBefore = windowBefore;
            String withBytes = outcome(EventLogReader.continuing(in(bytes), from, seqBefore, context.config()));
            assertEquals(outcome(EventLogReader.continuing(in(bytes), from, seqBefore, context.config()).onlyTree()), withBytes,
                    what + ": " + mutated);
            assertEquals(outcome(EventLogReader.continuing(in(bytes), from, seqBefore, context.config()).withoutByteLines()),
                    withBytes, what + ": " + mutated);
        }
    }

    /**
     * When the decoder took the line, the tree path alone reads the same line (after the same seq) into an equal entry;
     * returns the tree path's event, or {@code null} when it refused the line or has none.
     */
    private static EngineEvent assertReadAsTheTreePathReadsIt(Context context, String line, long number, long lastSeq,
            LogEntry entry) throws IOException {
        LogEntry tree;
        try {
            byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
            tree = EventLogReader.continuing(in(bytes), number - 1, lastSeq, context.config()).onlyTree().next();
        } catch (MalformedLogException e) {
            assertEquals(null, entry, "the byte decoder took a line the tree path refuses (" + e.getMessage() + "): " + line);
            return null;
        }
        if (entry != null) {
            assertEquals(tree, entry, line);
        }
        return tree == null ? null : tree.event();
    }

    /** Reads {@code line} with the decoder, from the middle of a larger buffer, as the reader hands lines over. */
    private static LogEntry read(ByteLines decoder, String line, long lastSeq, long number) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        byte[] buffer = new byte[bytes.length + 16];
        java.util.Arrays.fill(buffer, (byte) ']');
        System.arraycopy(bytes, 0, buffer, 8, bytes.length);
        LogEntry entry = decoder.read(number, buffer, 8, bytes.length, lastSeq);
        // The reader leaves a WindowBlocksFreed of a log without groups to the tree path, whoever decoded it.
        return entry != null && entry.event() instanceof io.kvledger.domain.event.WindowBlocksFreed && !decoder.grouped()
                ? null : entry;
    }

    private static List<LogEntry> entries(EventLogReader reader) throws IOException, MalformedLogException {
        List<LogEntry> entries = new ArrayList<>();
        for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
            entries.add(entry);
        }
        return entries;
    }

    /** The whole log read with the byte decoder, as today's readers read it, and by the tree path alone: the same. */
    private static void assertSameOutcome(byte[] log, String what) {
        String withBytes = outcome(new EventLogReader(in(log)));
        assertEquals(outcome(EventLogReader.treeOnly(in(log))), withBytes, what);
        assertEquals(outcome(new EventLogReader(in(log)).withoutByteLines()), withBytes, what);
    }

    private static String outcome(EventLogReader reader) {
        StringBuilder out = new StringBuilder();
        try {
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                out.append(entry).append('\n');
            }
            return out.toString();
        } catch (Exception e) {
            return out + e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    /** One mutation of a line: what a foreign writer, a damaged file or a hand edit could leave. */
    static String mutate(String line, Random random) {
        List<int[]> fields = WriterLayoutFields.fieldSpans(line);
        if (fields.size() < 3) {
            return line.isEmpty() ? "{}" : line.substring(0, random.nextInt(line.length()));
        }
        int[] field = fields.get(2 + random.nextInt(fields.size() - 2)); // past seq and type, mostly
        if (random.nextInt(8) == 0) {
            field = fields.get(random.nextInt(2));
        }
        String text = line.substring(field[0], field[2]);
        String value = line.substring(field[1], field[2]);
        int numberAt = firstDigit(line, field[1], field[2]);
        return switch (random.nextInt(18)) {
            case 0 -> { // a byte changed
                int at = random.nextInt(line.length());
                String bytes = "\"{}[],: -0123456789eE.\\\tnulx\u00e9";
                yield line.substring(0, at) + bytes.charAt(random.nextInt(bytes.length())) + line.substring(at + 1);
            }
            case 1 -> line.substring(0, random.nextInt(line.length())); // cut
            case 2 -> { // two adjacent fields swapped
                int i = random.nextInt(fields.size() - 1);
                int[] a = fields.get(i);
                int[] b = fields.get(i + 1);
                yield line.substring(0, a[0]) + line.substring(b[0], b[2]) + ", " + line.substring(a[0], a[2]) + line.substring(b[2]);
            }
            case 3 -> WriterLayoutFields.escapeALetter(line, random);
            case 4 -> numberAt < 0 ? line : line.substring(0, numberAt) + "9".repeat(10 + random.nextInt(12)) + line.substring(numberAt);
            case 5 -> numberAt < 0 ? line : line.substring(0, numberAt) + "-" + line.substring(numberAt);
            case 6 -> line.substring(0, field[1]) + "null" + line.substring(field[2]);
            case 7 -> line.substring(0, line.length() - 1) + ", " + text + "}"; // a duplicate at the end
            case 8 -> line.substring(0, field[2]) + ", " + text + line.substring(field[2]); // a duplicate right after
            case 9 -> line.substring(0, field[1]) + " " + line.substring(field[1]); // whitespace
            case 10 -> line.replace(", ", ",");
            case 11 -> line.substring(0, field[1]) + value.replaceFirst("\\d", "0$0") + line.substring(field[2]); // a leading zero
            case 12 -> line.substring(0, field[1]) + value.replaceFirst("(\\d)", "$1.0") + line.substring(field[2]);
            case 13 -> line.substring(0, field[1]) + value.replaceFirst("\"", "\"\\u00e9") + line.substring(field[2]);
            case 14 -> line.substring(0, line.length() - 1) + ", \"ts\": 1.5}"; // an extra field
            case 15 -> line.substring(0, field[1]) + value.replaceFirst("(\\d+)", "2147483648") + line.substring(field[2]);
            case 16 -> line + new String[] {" ", "\r", "x", "}", " {}"}[random.nextInt(5)];
            default -> line.substring(0, field[0]) + line.substring(Math.min(line.length() - 1, field[2] + 2)); // a field dropped
        };
    }

    private static int firstDigit(String line, int from, int to) {
        for (int i = from; i < to; i++) {
            if (Character.isDigit(line.charAt(i)) && (i == 0 || line.charAt(i - 1) != '-')) {
                return i;
            }
        }
        return -1;
    }

    /** The simulated logs, made once for the tests of this class. */
    private static final java.util.Map<String, byte[]> SIMULATED = new java.util.concurrent.ConcurrentHashMap<>();

    private static byte[] simulated(SimulationModel model, long seed) {
        return SIMULATED.computeIfAbsent(model.name() + " " + seed, key -> simulate(model, seed));
    }

    /** A simulated log as {@code kvledger simulate -o} writes it. */
    private static byte[] simulate(SimulationModel model, long seed) {
        int requests = model.name().equals("gemma3") ? 6 : 40;
        SimulationOptions options = SimulationOptions.DEFAULTS.withModel(model).withRequestTokens(model.requestTokens())
                .withSeed(seed).withRequests(requests).withPreemptRate(seed % 3 == 0 ? 0.3 : 0.05)
                .withReleasePolicy(seed % 2 == 0 ? ReleasePolicy.DELAY_FREE : ReleasePolicy.FENCE)
                .withRequestControls(seed % 4 == 1 ? 0.5 : 0);
        List<EngineEvent> events = new Simulator(options).events();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        LogLineEncoder encoder = new LogLineEncoder(out);
        encoder.writeAll(events);
        encoder.flush();
        return out.toByteArray();
    }

    private static List<String> lines(byte[] log) {
        return new String(log, StandardCharsets.UTF_8).lines().toList();
    }

    private static long seqOf(String line) throws IOException {
        return io.kvledger.infrastructure.json.EventJson.mapper().readTree(line).get("seq").longValue();
    }

    private static Long seqOrNull(String line) {
        try {
            return io.kvledger.infrastructure.json.EventJson.mapper().readTree(line).get("seq").longValue();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static ByteArrayInputStream in(byte[] bytes) {
        return new ByteArrayInputStream(bytes);
    }

    /** A log's configuration, from its first line as the tree path reads it. */
    private record Context(EngineConfig config) {
        static Context of(String firstLine) throws IOException, MalformedLogException {
            LogEntry first = EventLogReader.treeOnly(in((firstLine + "\n").getBytes(StandardCharsets.UTF_8))).next();
            return new Context(((EngineConfigured) first.event()).config());
        }

        ByteLines decoder() {
            ByteLines decoder = new ByteLines(new RecentStrings());
            decoder.configure(config.groups());
            return decoder;
        }
    }
}

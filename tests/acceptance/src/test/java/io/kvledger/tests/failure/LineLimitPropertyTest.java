package io.kvledger.tests.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One limit for every writer and reader (issue 23): a scenario line under the line limit may make a
 * longer event line ({@code [1,2]} is written {@code [1, 2]}, {@code promptLength}, the envelope and
 * the checksum are added, a store job lists a key per chunk). Such a command is refused with a
 * {@code CommandRejected} naming {@code kvledger.maxLineBytes} before anything is written, so every
 * line a writer acknowledges is one its readers take.
 *
 * <p>Property, over seeded sizes at, around and past the limit (here 64 KiB, the same code as the
 * default 8 MiB): for every writer ({@code run -o}, {@code run --store}) no line written is over the
 * limit; the run exits 0, or 2 for a scenario line itself over the limit (named); every reader
 * ({@code audit} and {@code replay} of the log, {@code audit} of the store, the store reopened by a
 * resumed run) reads back all that was written; a refusal names the limit and how to raise it.
 */
class LineLimitPropertyTest {

    private static final int LIMIT = 64 * 1024;
    private String before;

    @TempDir
    Path dir;

    @BeforeEach
    void smallLimit() {
        before = System.getProperty("kvledger.maxLineBytes");
        System.setProperty("kvledger.maxLineBytes", Integer.toString(LIMIT));
    }

    @AfterEach
    void restore() {
        if (before == null) {
            System.clearProperty("kvledger.maxLineBytes");
        } else {
            System.setProperty("kvledger.maxLineBytes", before);
        }
    }

    @Test
    void everyWriterWritesOnlyLinesItsReadersTakeAtAndPastTheLimit() throws Exception {
        Random random = new Random(23);
        List<Integer> lineBytes = new ArrayList<>(List.of(LIMIT - 1, LIMIT, LIMIT + 1, LIMIT / 2, LIMIT / 3, LIMIT / 8));
        for (int i = 0; i < 14; i++) {
            lineBytes.add(LIMIT / 16 + random.nextInt(LIMIT));
        }
        int refusedForTheLimit = 0;
        int acceptedLarge = 0;
        for (int c = 0; c < lineBytes.size(); c++) {
            int digits = 1 + random.nextInt(5);
            Case result = run(c, lineBytes.get(c), digits);
            refusedForTheLimit += result.refused();
            acceptedLarge += result.acceptedLarge();
        }
        assertTrue(refusedForTheLimit > 0, "some commands were refused for the limit");
        assertTrue(acceptedLarge > 0, "some large commands were taken and read back");
    }

    /**
     * A decoded token's own event is bounded too: an AppendTokens line under the limit whose
     * {@code TokensAppended} could be over it (each one-digit token {@code 1,} is written {@code 1, }) is
     * refused naming the limit; a smaller one is taken.
     */
    @Test
    void anAppendWhoseEventCouldBeOverTheLimitIsRefused() throws Exception {
        int over = LIMIT / 3 + 64;
        int under = LIMIT / 6;
        String scenario = "{\"config\": {\"gpuBlockSize\": 16}}\n"
                + "{\"cmd\": \"RegisterRequest\", \"requestId\": \"r\", \"promptTokens\": [1, 2, 3]}\n"
                + "{\"cmd\": \"AppendTokens\", \"requestId\": \"r\", \"tokens\": " + tokens(over) + "}\n"
                + "{\"cmd\": \"AppendTokens\", \"requestId\": \"r\", \"tokens\": " + tokens(under) + "}\n";
        Path file = Files.writeString(dir.resolve("append.jsonl"), scenario, StandardCharsets.UTF_8);
        Path log = dir.resolve("append-log.jsonl");
        Kvledger.Result result = Kvledger.inProcess("run", file.toString(), "-o", log.toString());
        assertEquals(0, result.exit(), result.toString());
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        assertTrue(lines.stream().anyMatch(line -> line.contains("\"type\": \"CommandRejected\"")
                && line.contains("\"cmd\": \"AppendTokens\"") && line.contains("kvledger.maxLineBytes")),
                "the long append is refused for the limit");
        assertEquals(List.of(3 + under), lines.stream().filter(line -> line.contains("\"type\": \"TokensAppended\""))
                .map(line -> Integer.parseInt(line.replaceAll(".*\"numTokens\": (\\d+).*", "$1"))).toList(),
                "only the short one is taken");
        for (String line : lines) {
            assertTrue(line.getBytes(StandardCharsets.UTF_8).length < LIMIT, "a line of " + line.length() + " bytes");
        }
    }

    /**
     * A per-group field is bounded by its entries: with one-token blocks and chunks a store job lists a
     * 32-character key per token, so a prompt whose line is well under the limit can make a
     * {@code StoreJobScheduled} over it. Its ComputeTokens is refused naming the limit, and every line
     * written reads back.
     */
    @Test
    void aStoreWhoseKeysCouldBeOverTheLimitIsRefused() throws Exception {
        int tokens = LIMIT / 32;
        StringBuilder ids = new StringBuilder("[");
        for (int b = 0; b < tokens; b++) {
            ids.append(b == 0 ? "" : ",").append(b);
        }
        String scenario = "{\"config\": {\"gpuBlockSize\": 1, \"cpuCapacityChunks\": " + 2 * tokens + "}}\n"
                + "{\"cmd\": \"RegisterRequest\", \"requestId\": \"r\", \"promptTokens\": " + tokens(tokens) + "}\n"
                + "{\"cmd\": \"MatchPrefix\", \"requestId\": \"r\"}\n"
                + "{\"cmd\": \"AllocateBlocks\", \"requestId\": \"r\", \"blockIds\": " + ids.append(']') + "}\n"
                + "{\"cmd\": \"ComputeTokens\", \"requestId\": \"r\", \"tokens\": " + tokens + "}\n";
        Path file = Files.writeString(dir.resolve("store.jsonl"), scenario, StandardCharsets.UTF_8);
        Path log = dir.resolve("store-log.jsonl");
        Kvledger.Result result = Kvledger.inProcess("run", file.toString(), "-o", log.toString());
        assertEquals(0, result.exit(), result.stderr());
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        for (String line : lines) {
            assertTrue(line.getBytes(StandardCharsets.UTF_8).length < LIMIT, "a line of " + line.length() + " bytes");
        }
        assertTrue(lines.stream().anyMatch(line -> line.contains("\"type\": \"CommandRejected\"")
                && line.contains("\"cmd\": \"ComputeTokens\"") && line.contains("kvledger.maxLineBytes")),
                "the ComputeTokens is refused for the limit");
        assertEquals(0, Kvledger.inProcess("audit", log.toString()).exit(), "the log reads back");
    }

    private static String tokens(int count) {
        StringBuilder list = new StringBuilder("[");
        for (int t = 0; t < count; t++) {
            list.append(t == 0 ? "" : ",").append(t % 10);
        }
        return list.append(']').toString();
    }

    /**
     * The issue's reproducer at the default limit: a RegisterRequest of 1.25 M five-digit tokens (a
     * 7.5 MB line, under 8 MiB) was stored as an 8.75 MB line that no reader could read back, though
     * {@code run --store} exited 0. Now it is refused with the limit named, and the store reads back.
     */
    @Test
    void theIssuesReproducerAtTheDefaultLimit() throws Exception {
        System.clearProperty("kvledger.maxLineBytes");
        StringBuilder line = new StringBuilder("{\"config\": {\"gpuBlockSize\": 16}}\n{\"cmd\": \"RegisterRequest\", \"requestId\": \"big\", \"promptTokens\": [");
        for (int t = 0; t < 1_250_000; t++) {
            line.append(t == 0 ? "" : ",").append(10_000 + t % 90_000);
        }
        line.append("]}\n{\"cmd\": \"RegisterRequest\", \"requestId\": \"small\", \"promptTokens\": [1, 2, 3]}\n");
        Path scenario = Files.writeString(dir.resolve("big.jsonl"), line);
        assertTrue(Files.size(scenario) < 8 << 20 && Files.size(scenario) > 7_000_000);
        Path store = dir.resolve("S.jsonl");

        Kvledger.Result run = Kvledger.inProcess("run", scenario.toString(), "--store", store.toString(), "-o",
                dir.resolve("out.jsonl").toString());

        assertEquals(0, run.exit(), run.toString());
        String out = Files.readString(dir.resolve("out.jsonl"));
        assertTrue(out.contains("raise the limit with -Dkvledger.maxLineBytes=N"), "the refusal names the limit");
        assertTrue(out.contains("\"requestId\": \"small\""), "the commands after it run");
        assertEquals(0, Kvledger.inProcess("audit", store.toString()).exit(), "the store reads back");
        assertEquals(0, Kvledger.inProcess("audit", dir.resolve("out.jsonl").toString()).exit(), "the log reads back");
    }

    /** One case: a request whose RegisterRequest line is about {@code bytes} long, computed in one step. */
    private Case run(int c, int bytes, int digits) throws Exception {
        Path scenario = dir.resolve("s" + c + ".jsonl");
        String register = register("r" + c, bytes, digits);
        int tokens = register.split(",").length;
        int blocks = (tokens + 15) / 16;
        StringBuilder lines = new StringBuilder("{\"config\": {\"gpuBlockSize\": 16}}\n").append(register).append('\n');
        lines.append("{\"cmd\": \"MatchPrefix\", \"requestId\": \"r").append(c).append("\"}\n");
        StringBuilder ids = new StringBuilder();
        for (int b = 0; b < blocks; b++) {
            ids.append(b == 0 ? "" : ",").append(b);
        }
        lines.append("{\"cmd\": \"AllocateBlocks\", \"requestId\": \"r").append(c).append("\", \"blockIds\": [").append(ids).append("]}\n");
        lines.append("{\"cmd\": \"ComputeTokens\", \"requestId\": \"r").append(c).append("\", \"tokens\": ").append(tokens).append("}\n");
        Files.writeString(scenario, lines, StandardCharsets.UTF_8);
        boolean scenarioTooLong = register.getBytes(StandardCharsets.UTF_8).length > LIMIT;

        Path log = dir.resolve("log" + c + ".jsonl");
        Path store = dir.resolve("store" + c + ".jsonl");
        Kvledger.Result toLog = Kvledger.inProcess("run", scenario.toString(), "-o", log.toString());
        Kvledger.Result toStore = Kvledger.inProcess("run", scenario.toString(), "--store", store.toString(), "-o",
                dir.resolve("out" + c + ".jsonl").toString());
        String what = "case " + c + " (" + bytes + " bytes, " + digits + " digits)";
        for (Kvledger.Result result : List.of(toLog, toStore)) {
            if (scenarioTooLong) {
                assertEquals(2, result.exit(), what + ": " + result);
                assertTrue(result.stderr().contains("line 2: longer than " + LIMIT + " bytes"), what + ": " + result.stderr());
            } else {
                assertEquals(0, result.exit(), what + ": " + result);
            }
            assertTrue(result.quiet(), what + ": " + result.stderr());
        }
        for (Path written : List.of(log, store)) {
            for (String line : Files.readAllLines(written, StandardCharsets.UTF_8)) {
                assertTrue(line.getBytes(StandardCharsets.UTF_8).length < LIMIT, what + ": " + written + " has a line of "
                        + line.length() + " bytes");
            }
        }
        for (String[] reader : new String[][] {{"audit", log.toString()}, {"replay", log.toString()}, {"audit", store.toString()}}) {
            Kvledger.Result read = Kvledger.inProcess(reader);
            assertEquals(0, read.exit(), what + ": " + String.join(" ", reader) + ": " + read);
        }
        Path empty = Files.writeString(dir.resolve("empty.jsonl"), "");
        Kvledger.Result reopened = Kvledger.inProcess("run", empty.toString(), "--store", store.toString());
        assertEquals(0, reopened.exit(), what + ": the store reopens: " + reopened);
        assertEquals(Files.readAllLines(store).size(), reopened.lines().size(), what + ": a resumed run prints every stored event");

        String logText = Files.readString(log);
        int refused = logText.contains("kvledger.maxLineBytes") ? 1 : 0;
        if (refused == 1) {
            assertTrue(logText.contains("\"code\": \"INVALID_ARGUMENT\"") && logText.contains("bytes every reader of a log or store accepts"),
                    what + ": the refusal names the limit");
        }
        int acceptedLarge = !scenarioTooLong && bytes > LIMIT / 4 && logText.contains("\"type\": \"RequestRegistered\"") ? 1 : 0;
        return new Case(refused, acceptedLarge);
    }

    private record Case(int refused, int acceptedLarge) {
    }

    /** A RegisterRequest line of about {@code bytes} bytes, tokens of {@code digits} digits, written without spaces. */
    private static String register(String id, int bytes, int digits) {
        StringBuilder line = new StringBuilder("{\"cmd\":\"RegisterRequest\",\"requestId\":\"" + id + "\",\"promptTokens\":[");
        int token = (int) Math.pow(10, digits - 1);
        boolean first = true;
        while (line.length() + digits + 3 <= bytes) {
            line.append(first ? "" : ",").append(token++);
            first = false;
        }
        return line.append("]}").toString();
    }
}

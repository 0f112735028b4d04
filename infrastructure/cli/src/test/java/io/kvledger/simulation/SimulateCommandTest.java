package io.kvledger.simulation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.infrastructure.cli.KvLedgerCli;
import io.kvledger.infrastructure.json.EventJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kvledger simulate}: deterministic by seed, reproducible with {@code run}, and its summary agrees with its log. */
class SimulateCommandTest {

    @TempDir
    Path dir;

    @Test
    void theSameSeedGivesTheSameLogAndAnotherSeedAnotherOne() throws IOException {
        Path first = dir.resolve("first.jsonl");
        Path second = dir.resolve("second.jsonl");
        Path other = dir.resolve("other.jsonl");
        assertEquals(0, simulate("--requests", "300", "--seed", "7", "-o", first.toString()).exit);
        assertEquals(0, simulate("--requests", "300", "--seed", "7", "-o", second.toString()).exit);
        assertEquals(0, simulate("--requests", "300", "--seed", "8", "-o", other.toString()).exit);
        assertArrayEquals(Files.readAllBytes(first), Files.readAllBytes(second));
        assertFalse(Files.readString(first).equals(Files.readString(other)));
    }

    @Test
    void hostChecksOnlyWriteTheSameLogAndSaySo() throws IOException {
        Path all = dir.resolve("all.jsonl");
        Path host = dir.resolve("host.jsonl");
        Result checked = simulate("--requests", "300", "--seed", "4", "--workers", "1", "-o", all.toString());
        Result fast = simulate("--requests", "300", "--seed", "4", "--workers", "1", "--checks", "HOST", "-o", host.toString());
        assertEquals(0, checked.exit, checked.err);
        assertEquals(0, fast.exit, fast.err);
        assertArrayEquals(Files.readAllBytes(all), Files.readAllBytes(host));
        assertTrue(checked.out.contains("violations 0\n"), checked.out);
        assertTrue(fast.out.contains("violations 0 (host checks only: the audit's rules were not run)\n"), fast.out);
    }

    @Test
    void theLogHoldsNothingTimeBased() throws IOException {
        Path log = dir.resolve("log.jsonl");
        simulate("--requests", "50", "-o", log.toString());
        for (String line : Files.readAllLines(log)) {
            JsonNode node = EventJson.mapper().readTree(line);
            node.fieldNames().forEachRemaining(field -> assertFalse(
                    field.toLowerCase().contains("time") || field.toLowerCase().contains("stamp"), line));
        }
    }

    @Test
    void runOfTheRecordedCommandsGivesTheSameLog() throws IOException {
        Path log = dir.resolve("sim.jsonl");
        Path scenario = dir.resolve("sim.scenario.jsonl");
        Path rerun = dir.resolve("rerun.jsonl");
        assertEquals(0, simulate("--requests", "200", "--seed", "3", "--workers", "3", "--release", "DELAY_FREE",
                "-o", log.toString(), "--scenario", scenario.toString()).exit);
        assertEquals(0, run(scenario.toString(), "-o", rerun.toString()).exit);
        assertArrayEquals(Files.readAllBytes(log), Files.readAllBytes(rerun));
    }

    @Test
    void twoThousandRequestsRunCleanAndTheSummaryAgreesWithTheLog() throws IOException {
        Path log = dir.resolve("2000.jsonl");
        Result result = simulate("--requests", "2000", "--seed", "1", "-o", log.toString());
        assertEquals(0, result.exit, result.err);
        Map<String, Long> summary = numbers(result.out);
        Map<String, Long> counted = recount(log);
        assertEquals(2000, summary.get("requests"));
        for (String name : List.of("requests", "finished", "aborted", "preemptions", "events", "jobs", "stores",
                "loads", "chunks stored", "chunks loaded", "flushes", "stores deferred", "chunks evicted", "rejections")) {
            assertEquals(counted.get(name), summary.get(name), name + " in\n" + result.out);
        }
        assertEquals(counted.get("requests"), counted.get("finished") + counted.get("aborted"), "every request ended");
        assertTrue(result.out.contains("violations 0"), result.out);
        // The workload reaches the races it is for.
        for (String name : List.of("aborted", "preemptions", "loads", "flushes", "chunks evicted", "chunks loaded")) {
            assertTrue(summary.get(name) > 0, name + " in\n" + result.out);
        }
    }

    @Test
    void badOptionsAreRefused() {
        Result result = simulate("--abort-rate", "1.5");
        assertEquals(2, result.exit);
        assertTrue(result.err.contains("abort-rate"), result.err);
    }

    /** The summary's counts, by name. */
    private static Map<String, Long> numbers(String summary) {
        Map<String, Long> numbers = new TreeMap<>();
        Matcher m = Pattern.compile("(\\d+) (requests|finished|aborted|preemptions)").matcher(summary);
        while (m.find()) {
            numbers.put(m.group(2), Long.parseLong(m.group(1)));
        }
        m = Pattern.compile("(events|jobs|chunks stored|chunks loaded|flushes|stores deferred|chunks evicted|rejections) (\\d+)")
                .matcher(summary);
        while (m.find()) {
            numbers.put(m.group(1), Long.parseLong(m.group(2)));
        }
        m = Pattern.compile("(\\d+) (stores|loads)\\b").matcher(summary);
        while (m.find()) {
            numbers.put(m.group(2), Long.parseLong(m.group(1)));
        }
        return numbers;
    }

    /** The same counts, from the log alone. */
    private static Map<String, Long> recount(Path log) throws IOException {
        Map<String, Long> counts = new TreeMap<>();
        Map<Long, Integer> loadSizes = new TreeMap<>();
        for (String line : Files.readAllLines(log)) {
            JsonNode e = EventJson.mapper().readTree(line);
            String type = e.get("type").textValue();
            counts.merge("events", 1L, Long::sum);
            switch (type) {
                case "RequestRegistered" -> counts.merge("requests", 1L, Long::sum);
                case "RequestFinished" -> counts.merge("finished", 1L, Long::sum);
                case "RequestAborted" -> counts.merge("aborted", 1L, Long::sum);
                case "RequestPreempted" -> counts.merge("preemptions", 1L, Long::sum);
                case "StoreJobScheduled" -> counts.merge("stores", 1L, Long::sum);
                case "LoadJobScheduled" -> {
                    counts.merge("loads", 1L, Long::sum);
                    loadSizes.put(e.get("jobId").longValue(), e.get("chunkIndices").size());
                }
                case "LoadJobCompleted" -> {
                    Integer size = loadSizes.remove(e.get("jobId").longValue());
                    if (e.get("success").booleanValue() && size != null) {
                        counts.merge("chunks loaded", (long) size, Long::sum);
                    }
                }
                case "ChunksStored" -> counts.merge("chunks stored", (long) e.get("keys").size(), Long::sum);
                case "ChunksEvicted" -> counts.merge("chunks evicted", (long) e.get("keys").size(), Long::sum);
                case "FlushRequired" -> counts.merge("flushes", 1L, Long::sum);
                case "StoreDeferred" -> counts.merge("stores deferred", 1L, Long::sum);
                case "CommandRejected" -> counts.merge("rejections", 1L, Long::sum);
                default -> { }
            }
        }
        counts.put("jobs", counts.getOrDefault("stores", 0L) + counts.getOrDefault("loads", 0L));
        for (String name : List.of("finished", "aborted", "preemptions", "chunks loaded", "flushes", "stores deferred",
                "chunks evicted", "rejections", "chunks stored", "loads", "stores")) {
            counts.putIfAbsent(name, 0L);
        }
        return counts;
    }

    record Result(int exit, String out, String err) {
    }

    static Result simulate(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "simulate";
        System.arraycopy(args, 0, all, 1, args.length);
        return cli(all);
    }

    static Result run(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "run";
        System.arraycopy(args, 0, all, 1, args.length);
        return cli(all);
    }

    static Result cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8), args);
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}

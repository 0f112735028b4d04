package io.kvledger.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.WindowBlocksFreed;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A grouped engine's store directory through the command line: a simulated workload of each model run
 * into a directory whose segments roll (so every segment but the first begins after a base, and the
 * current one after a snapshot), stopped, reopened by a second run that continues it, then read by the
 * tools. The directory, each segment on its own, and the resumed store read as the plain log of the same
 * commands: the segments' per-group fields in the engine's shape, none of their {@code WindowBlocksFreed}
 * dropped.
 */
class GroupedStoreDirectoryToolsTest {

    private static final String SMALL_SEGMENTS = "/?segmentBytes=16384&snapshotEvery=100";

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"--model gpt-oss", "--model mixed-blocks", "--model eagle",
            "--groups [{\"kind\":\"SLIDING_WINDOW\",\"blockSize\":16,\"slidingWindow\":64}]"})
    void aGroupedDirectoryReopenedAndEachOfItsSegmentsReadAsThePlainLog(String model) throws Exception {
        Path scenario = dir.resolve("scenario.jsonl");
        String[] choice = model.split(" ", 2);
        CliRun simulate = CliRun.of("simulate", choice[0], choice[1], "--requests", "40", "--seed", "5",
                "-o", dir.resolve("simulated.jsonl").toString(), "--scenario", scenario.toString());
        assertEquals(0, simulate.exit(), simulate.stderr());
        Path plain = dir.resolve("plain.jsonl");
        assertEquals(0, CliRun.of("run", scenario.toString(), "-o", plain.toString()).exit());
        List<String> commands = Files.readAllLines(scenario, StandardCharsets.UTF_8);
        int half = commands.size() / 2;
        Path first = write("first.jsonl", commands.subList(0, half));
        Path second = write("second.jsonl", commands.subList(half, commands.size())); // no config line: the store's

        Path store = dir.resolve("store");
        CliRun firstRun = CliRun.of("run", first.toString(), "--store", "file:" + store + SMALL_SEGMENTS, "-o",
                dir.resolve("first.out").toString());
        assertEquals(0, firstRun.exit(), firstRun.stderr());
        assertTrue(segments(store).size() >= 3, "rolled: " + segments(store));
        // Reopened: the current segment opens from its base or snapshot, the aggregate loads across closed segments.
        CliRun secondRun = CliRun.of("run", second.toString(), "--store", "file:" + store + SMALL_SEGMENTS);
        assertEquals(0, secondRun.exit(), secondRun.stderr());
        assertEquals(withoutScenarioLines(Files.readAllLines(plain, StandardCharsets.UTF_8)), withoutScenarioLines(secondRun.stdout()),
                "the resumed run's output is the whole log, as one run of every command writes it");
        Path log = write("resumed.jsonl", secondRun.stdout()); // its rejections name the second scenario's lines
        List<EngineEvent> expected = LogFixtures.events(log);
        assertEquals(expected, SegmentedStoreToolsTest.read(store), "the directory holds the plain log's events");
        assertTrue(model.contains("eagle") || expected.stream().anyMatch(WindowBlocksFreed.class::isInstance),
                "the workload frees window blocks");
        long job = SegmentedStoreToolsTest.lastJob(expected);
        String late = String.valueOf(expected.size() * 2 / 3);
        for (String[] command : new String[][] {{"replay"}, {"replay", "--json"}, {"replay", "--request", "req-3", "--timeline"},
                {"audit"}, {"audit", "--explain", late}, {"explain", "--job", String.valueOf(job)},
                {"replay", "--at", late}}) {
            assertSame(command, log, store);
        }
        // A store's trace times its events by their steps' timestamps, a plain log's by their position (and says so).
        assertEquals(untimed(CliRun.of("trace", log.toString())), untimed(CliRun.of("trace", store.toString())), "trace");

        List<Path> segments = segments(store);
        assertTrue(segments.size() >= 5, "rolled again after the reopen: " + segments);
        List<EngineEvent> concatenated = new ArrayList<>();
        for (Path segment : segments) {
            CliRun audit = CliRun.of("audit", segment.toString());
            assertEquals(0, audit.exit(), segment + ": " + audit.stdout() + audit.stderr());
            concatenated.addAll(SegmentedStoreToolsTest.read(segment));
        }
        assertEquals(expected, concatenated, "the segments, each read from its base, are the log's stretches in order");
        Path last = segments.stream().filter(s -> s.toFile().length() > 0).reduce((a, b) -> b).orElseThrow();
        for (String request : new String[] {"req-39", "req-38"}) { // the segment replays from its base to the log's state
            assertSame(new String[] {"replay", "--request", request}, log, last);
        }
    }

    private static List<String> untimed(CliRun trace) {
        assertEquals(0, trace.exit(), trace.stderr());
        return trace.stdout().stream().map(line -> line.replaceAll("\"ts\":\\d+", "\"ts\":_")
                .replaceAll("\"otherData\":\\{.*", "")).toList();
    }

    /** The lines, a rejection's scenario line number left out (the two runs number their scenarios' lines each from 1). */
    private static List<String> withoutScenarioLines(List<String> lines) {
        return lines.stream().map(line -> line.replaceFirst("(\"type\": \"CommandRejected\", \"line\": )\\d+", "$1_")).toList();
    }

    private Path write(String name, List<String> lines) throws Exception {
        Path file = dir.resolve(name);
        Files.write(file, lines, StandardCharsets.UTF_8);
        return file;
    }

    private static void assertSame(String[] command, Path expected, Path actual) {
        CliRun want = CliRun.of(SegmentedStoreToolsTest.with(command, expected));
        CliRun got = CliRun.of(SegmentedStoreToolsTest.with(command, actual));
        assertEquals(0, want.exit(), want.stderr());
        assertEquals(want.exit(), got.exit(), String.join(" ", command) + " of " + actual + ": " + got.stderr());
        assertEquals(want.stdout(), got.stdout(), String.join(" ", command) + " of " + actual);
    }

    private static List<Path> segments(Path store) throws Exception {
        try (Stream<Path> files = Files.list(store)) {
            return files.filter(f -> f.getFileName().toString().matches("segment-\\d+\\.jsonl(\\.gz)?")).sorted().toList();
        }
    }
}

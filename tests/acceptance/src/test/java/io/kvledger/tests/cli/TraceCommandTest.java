package io.kvledger.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code kvledger trace}: every example and many seeded simulations give traces that Perfetto opens and that tell the truth. */
class TraceCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"01_prefill_decode", "02_prefix_hit_load", "03_chunked_prefill_f2", "04_abort_queued",
            "05_abort_mid_prefill", "06_finish_store_in_flight_delay_free", "07_preemption_flush",
            "08_rejected_commands", "09_speculative_reject", "10_two_workers"})
    void everyExampleGivesAValidTraceWithASlicePerJob(String example) throws Exception {
        Path log = LogFixtures.runExample(example, dir);
        checkWholeLog(log);
    }

    @ParameterizedTest(name = "seed {0}: workers {1}, {2}, fail {3}, reset {4}")
    @CsvSource({"1, 1, FENCE, 0.0, 0.0", "2, 2, DELAY_FREE, 0.05, 0.0", "3, 1, FENCE, 0.05, 0.02",
            "4, 3, DELAY_FREE, 0.0, 0.02", "5, 1, FENCE, 0.1, 0.05"})
    void seededSimulationsGiveValidTracesWithASlicePerJob(long seed, int workers, String release, double failRate,
                                                           double resetRate) throws Exception {
        Path log = dir.resolve("sim.jsonl");
        CliRun sim = CliRun.of("simulate", "--requests", "120", "--seed", Long.toString(seed), "--workers",
                Integer.toString(workers), "--release", release, "--fail-rate", Double.toString(failRate),
                "--reset-rate", Double.toString(resetRate), "-o", log.toString());
        assertEquals(0, sim.exit(), sim.stderr());
        TraceChecks.Seen seen = checkWholeLog(log);
        assertTrue(seen.jobSlicesByKind().getOrDefault("store", 0) > 20, "the simulation stores: " + seen.jobSlicesByKind());
        assertTrue(seen.instants() > 0);
    }

    @Test
    void theTraceOfExample07IsTheGoldenOne() throws Exception {
        Path log = LogFixtures.runExample("07_preemption_flush", dir);
        Path trace = trace(log, dir.resolve("07.trace.json"));
        ObjectNode actual = (ObjectNode) JSON.readTree(trace.toFile());
        ((ObjectNode) actual.get("otherData")).put("log", "07_preemption_flush.events.jsonl");
        JsonNode golden = JSON.readTree(LogFixtures.resource("/trace/07_preemption_flush.trace.json").toFile());
        assertEquals(golden, actual, "regenerate with: kvledger trace <log of example 07> -o ... if the change is meant");
    }

    @Test
    void aWindowShowsOnlyItsEventsOpensOnTheLiveStateAndClosesWhatIsStillInFlight() throws Exception {
        Path log = dir.resolve("sim.jsonl");
        assertEquals(0, CliRun.of("simulate", "--requests", "80", "--seed", "11", "-o", log.toString()).exit());
        long from = 400;
        long to = 900;
        CliRun run = CliRun.of("trace", log.toString(), "-o", dir.resolve("w.json").toString(),
                "--from", Long.toString(from), "--to", Long.toString(to));
        assertEquals(0, run.exit(), run.stderr());
        TraceChecks.Seen seen = TraceChecks.check(dir.resolve("w.json"));
        int openedAtStart = 0;
        for (JsonNode event : seen.trace().get("traceEvents")) {
            if (!event.get("ph").asText().equals("M")) {
                long ts = event.get("ts").asLong();
                assertTrue(ts >= from && ts <= to, "outside the window: " + event);
            }
            if (event.get("ph").asText().equals("b")
                    && "window start".equals(event.path("args").path("openedBy").asText(null))) {
                openedAtStart++;
            }
        }
        Map<String, Integer> scheduled = TraceChecks.jobsInLog(log, from, to);
        int slices = seen.jobSlicesByKind().values().stream().mapToInt(Integer::intValue).sum();
        assertEquals(scheduled.values().stream().mapToInt(Integer::intValue).sum() + openedAtStart, slices);
        assertTrue(openedAtStart > 0 && seen.unfinished() > 0, "the window cuts through jobs in flight at both ends");
        assertEquals("end of window", seen.trace().get("otherData").get("endedBy").asText());
    }

    @Test
    void oneRequestShowsOnlyItsOwnTracksAndTheEngine() throws Exception {
        Path log = dir.resolve("sim.jsonl");
        assertEquals(0, CliRun.of("simulate", "--requests", "20", "--seed", "3", "-o", log.toString()).exit());
        Path all = trace(log, dir.resolve("all.json"));
        Set<String> everyRequest = requestProcesses(TraceChecks.check(all).trace());
        assertEquals(20, everyRequest.size(), "a process per request: " + everyRequest);
        String one = everyRequest.iterator().next();
        CliRun run = CliRun.of("trace", log.toString(), "-o", dir.resolve("one.json").toString(), "--request",
                one.substring("request ".length()));
        assertEquals(0, run.exit(), run.stderr());
        assertEquals(Set.of(one), requestProcesses(TraceChecks.check(dir.resolve("one.json")).trace()));
    }

    @Test
    void aStoreFileIsTracedOnItsEnvelopeTimestamps() throws Exception {
        Path store = dir.resolve("store.jsonl");
        CliRun run = CliRun.of("run", LogFixtures.resource("/examples/07_preemption_flush.jsonl").toString(),
                "-o", dir.resolve("log.jsonl").toString(), "--store", store.toString(), "--fsync", "never");
        assertEquals(0, run.exit(), run.stderr());
        Path trace = trace(store, dir.resolve("store.trace.json"));
        TraceChecks.Seen seen = TraceChecks.check(trace);
        assertEquals("envelope", seen.trace().get("otherData").get("clock").asText());
        assertEquals(TraceChecks.jobsInLog(store, 1, Long.MAX_VALUE), seen.jobSlicesByKind());
    }

    @Test
    void aMalformedLineExits2AndLeavesAValidTraceOfWhatCameBefore() throws Exception {
        Path log = LogFixtures.runExample("06_finish_store_in_flight_delay_free", dir);
        long lines = Files.readAllLines(log).size();
        Files.writeString(log, "{\"seq\": 1, \"type\": \"TokensComputed\"}\n", StandardOpenOption.APPEND);
        CliRun run = CliRun.of("trace", log.toString(), "-o", dir.resolve("bad.json").toString());
        assertEquals(2, run.exit());
        assertTrue(run.stderr().contains("line " + (lines + 1)), run.stderr());
        TraceChecks.Seen seen = TraceChecks.check(dir.resolve("bad.json"));
        assertEquals("malformed line " + (lines + 1), seen.trace().get("otherData").get("endedBy").asText());
    }

    @Test
    void badOptionsAndAMissingLogExit2() {
        assertEquals(2, CliRun.of("trace", "no-such-log.jsonl").exit());
        assertEquals(2, CliRun.of("trace", "x.jsonl", "--from", "10", "--to", "5").exit());
        assertEquals(2, CliRun.of("trace", "x.jsonl", "--from", "0").exit());
    }

    /** Valid, a slice per job, and as many unfinished slices as jobs still in flight at the end (from replay). */
    private TraceChecks.Seen checkWholeLog(Path log) throws Exception {
        Path trace = trace(log, dir.resolve(log.getFileName() + ".trace.json"));
        TraceChecks.Seen seen = TraceChecks.check(trace);
        assertEquals(TraceChecks.jobsInLog(log, 1, Long.MAX_VALUE), seen.jobSlicesByKind());
        CliRun replay = CliRun.of("replay", log.toString(), "--json");
        assertEquals(0, replay.exit(), replay.stderr());
        int inFlight = JSON.readTree(String.join("\n", replay.stdout())).get("jobs").size();
        assertEquals(inFlight, seen.unfinished(), "jobs in flight at the end are closed there, marked unfinished");
        assertEquals("position", seen.trace().get("otherData").get("clock").asText());
        return seen;
    }

    private static Path trace(Path log, Path out) {
        CliRun run = CliRun.of("trace", log.toString(), "-o", out.toString());
        assertEquals(0, run.exit(), run.stderr());
        return out;
    }

    private static Set<String> requestProcesses(JsonNode trace) {
        Set<String> names = new HashSet<>();
        for (JsonNode event : trace.get("traceEvents")) {
            if (event.get("ph").asText().equals("M") && event.get("name").asText().equals("process_name")) {
                String name = event.get("args").get("name").asText();
                if (name.startsWith("request ")) {
                    names.add(name);
                }
            }
        }
        return names;
    }
}

package io.kvledger.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.domain.EngineFold;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.WindowBlocksFreed;
import io.kvledger.domain.group.GroupKeys;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.Job;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.TierChunk;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code kvledger trace} of grouped logs: valid traces whose counters by KV cache group end on what the
 * domain fold of the whole log holds (blocks per group, tier chunks per group, jobs in flight per group,
 * window blocks freed), and no such counter without groups.
 */
class GroupedTraceTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"11_full_and_sliding_window", "12_window_free_fence", "13_eagle_group", "14_block_sizes",
            "15_alignment_skip", "16_group_rejections"})
    void theCountersByGroupEndOnTheFoldOfTheWholeLog(String example) throws Exception {
        Path log = LogFixtures.runExample(example, dir);
        List<EngineEvent> events = LogFixtures.events(log);
        EngineState end = EngineFold.fold(events);
        int groups = end.config().groupCount();

        TraceChecks.Seen seen = TraceChecks.check(trace(log));

        Map<String, JsonNode> last = lastCounters(seen.trace());
        long[] held = new long[groups];
        for (RequestState request : end.requests().values()) {
            for (int g = 0; g < groups; g++) {
                for (Integer block : request.table(g)) {
                    held[g] += block == null ? 0 : 1;
                }
            }
        }
        long[] ready = new long[groups];
        long[] writing = new long[groups];
        for (TierChunk chunk : end.tier().chunks().values()) {
            (chunk.ready() ? ready : writing)[GroupKeys.groupOf(chunk.key(), groups)]++;
        }
        long[] stores = new long[groups];
        long[] loads = new long[groups];
        for (Job job : end.jobs().values()) {
            boolean[] touched = new boolean[groups];
            job.keys().forEach(key -> touched[GroupKeys.groupOf(key, groups)] = true);
            for (int g = 0; g < groups; g++) {
                (job.isStore() ? stores : loads)[g] += touched[g] ? 1 : 0;
            }
        }
        long[] freed = new long[groups];
        for (EngineEvent event : events) {
            if (event instanceof WindowBlocksFreed e) {
                for (int g = 0; g < groups; g++) {
                    freed[g] += e.blockIds().group(g).size();
                }
            }
        }
        assertSeries(held, last.get("blocks held by group"), example);
        assertSeries(ready, last.get("tier ready by group"), example);
        assertSeries(writing, last.get("tier writing by group"), example);
        assertSeries(stores, last.get("stores in flight by group"), example);
        assertSeries(loads, last.get("loads in flight by group"), example);
        assertSeries(freed, last.get("window blocks freed by group"), example);
        JsonNode tier = last.get("tier chunks");
        assertEquals(tier.get("ready").asLong() + tier.get("writing").asLong(),
                sum(ready) + sum(writing), example + ": the groups' chunks are the tier's");
    }

    @Test
    void aWindowFreeIsAnInstantOnItsRequestAndCountedInItsGroup() throws Exception {
        Path log = LogFixtures.runExample("12_window_free_fence", dir);

        TraceChecks.Seen seen = TraceChecks.check(trace(log));

        List<JsonNode> frees = new ArrayList<>();
        List<List<Long>> freedSeries = new ArrayList<>();
        for (JsonNode event : seen.trace().get("traceEvents")) {
            if (event.get("ph").asText().equals("i") && event.get("name").asText().equals("WindowBlocksFreed")) {
                frees.add(event);
            }
            if (event.get("ph").asText().equals("C") && event.get("name").asText().equals("window blocks freed by group")) {
                freedSeries.add(List.of(event.get("args").get("g0").asLong(), event.get("args").get("g1").asLong()));
            }
        }
        assertEquals(1, frees.size(), "one free was accepted, one rejected");
        assertEquals("[[],[11,12]]", frees.get(0).get("args").get("blockIds").toString());
        assertTrue(frees.get(0).get("pid").asInt() > 1, "on the request's process, not the engine's");
        assertEquals(List.of(List.of(0L, 0L), List.of(0L, 2L)), freedSeries);
    }

    @Test
    void withoutGroupsNoCounterIsByGroup() throws Exception {
        Path log = LogFixtures.runExample("07_preemption_flush", dir);

        TraceChecks.Seen seen = TraceChecks.check(trace(log));

        for (JsonNode event : seen.trace().get("traceEvents")) {
            assertFalse(event.path("name").asText("").endsWith("by group"), event.toString());
        }
    }

    private static void assertSeries(long[] expected, JsonNode counter, String example) {
        assertTrue(counter != null, example + ": no such counter");
        for (int g = 0; g < expected.length; g++) {
            assertEquals(expected[g], counter.get("g" + g).asLong(), example + " g" + g + " of " + counter);
        }
    }

    private static long sum(long[] values) {
        long sum = 0;
        for (long value : values) {
            sum += value;
        }
        return sum;
    }

    private static Map<String, JsonNode> lastCounters(JsonNode trace) {
        Map<String, JsonNode> last = new HashMap<>();
        for (JsonNode event : trace.get("traceEvents")) {
            if (event.get("ph").asText().equals("C")) {
                last.put(event.get("name").asText(), event.get("args"));
            }
        }
        return last;
    }

    private Path trace(Path log) {
        Path out = dir.resolve(log.getFileName() + ".trace.json");
        CliRun run = CliRun.of("trace", log.toString(), "-o", out.toString());
        assertEquals(0, run.exit(), run.stderr());
        return out;
    }
}

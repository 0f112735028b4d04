package io.kvledger.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What every trace must satisfy to open correctly in Perfetto and to say the truth about its log:
 * a JSON object with {@code traceEvents}; every async begin ended exactly once (by category and id);
 * thread slices balanced and nested; time never running backwards; counters never negative and the
 * tier never above its capacity; and one job slice per job the log scheduled.
 */
final class TraceChecks {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What a checked trace holds. */
    record Seen(JsonNode trace, Map<String, Integer> jobSlicesByKind, int unfinished, int instants) {
    }

    private TraceChecks() {
    }

    static Seen check(Path tracePath) throws IOException {
        JsonNode trace = JSON.readTree(tracePath.toFile());
        assertTrue(trace.isObject(), "a trace is a JSON object");
        JsonNode events = trace.get("traceEvents");
        assertNotNull(events, "traceEvents");
        assertTrue(events.isArray());
        assertNotNull(trace.get("otherData"), "otherData says where time comes from");
        Map<String, JsonNode> openAsync = new HashMap<>();
        Map<String, Integer> slicesByKind = new TreeMap<>();
        Map<String, Deque<String>> stacks = new HashMap<>();
        long lastTs = Long.MIN_VALUE;
        long capacity = -1;
        int unfinished = 0;
        int instants = 0;
        for (JsonNode event : events) {
            String ph = event.path("ph").asText();
            assertTrue(event.has("pid"), "every event names its process: " + event);
            if (!ph.equals("M")) {
                assertTrue(event.get("ts").isIntegralNumber(), "ts: " + event);
                long ts = event.get("ts").asLong();
                assertTrue(ts >= lastTs, "time runs backwards at " + event);
                lastTs = ts;
            }
            String thread = event.get("pid").asInt() + "/" + event.path("tid").asInt();
            switch (ph) {
                case "M" -> assertTrue(event.path("args").path("name").isTextual()
                        || event.path("args").has("sort_index"), "metadata: " + event);
                case "B" -> stacks.computeIfAbsent(thread, t -> new ArrayDeque<>()).push(event.get("name").asText());
                case "E" -> {
                    Deque<String> stack = stacks.get(thread);
                    assertTrue(stack != null && !stack.isEmpty(), "an E without its B on " + thread + ": " + event);
                    stack.pop();
                }
                case "b" -> {
                    String key = event.get("cat").asText() + "#" + event.get("id").asText();
                    assertTrue(openAsync.put(key, event) == null, "job slice " + key + " begun twice");
                    slicesByKind.merge(event.get("cat").asText(), 1, Integer::sum);
                }
                case "e" -> {
                    String key = event.get("cat").asText() + "#" + event.get("id").asText();
                    JsonNode begin = openAsync.remove(key);
                    assertNotNull(begin, "job slice " + key + " ended without a begin");
                    assertEquals(begin.get("name"), event.get("name"), "b and e of " + key + " have one name");
                    assertEquals(begin.get("pid"), event.get("pid"), "b and e of " + key + " are on one process");
                    unfinished += event.path("args").path("unfinished").asBoolean(false) ? 1 : 0;
                }
                case "i" -> {
                    instants++;
                    assertTrue(List.of("t", "p", "g").contains(event.path("s").asText()), "instant scope: " + event);
                }
                case "C" -> capacity = counter(event, capacity);
                default -> fail("unexpected phase " + ph + ": " + event);
            }
        }
        assertTrue(openAsync.isEmpty(), "job slices never ended: " + openAsync.keySet());
        stacks.forEach((thread, stack) -> assertTrue(stack.isEmpty(), "slices left open on " + thread + ": " + stack));
        return new Seen(trace, slicesByKind, unfinished, instants);
    }

    private static long counter(JsonNode event, long capacityBefore) {
        JsonNode args = event.get("args");
        args.fields().forEachRemaining(series -> assertTrue(series.getValue().asLong() >= 0,
                "counter " + event.get("name") + " negative: " + event));
        long cap = capacityBefore;
        switch (event.get("name").asText()) {
            case "tier capacity" -> cap = args.get("capacity").asLong();
            case "tier chunks" -> {
                assertTrue(cap >= 0, "the tier's capacity comes before its chunks");
                long held = args.get("ready").asLong() + args.get("writing").asLong();
                assertTrue(held <= cap, "the tier holds " + held + " chunks, above its capacity " + cap + ": " + event);
            }
            case "tier pinned" -> assertTrue(cap < 0 || args.get("pinned").asLong() <= cap, "pinned above capacity: " + event);
            default -> { }
        }
        return cap;
    }

    /** Jobs the log scheduled, by kind ({@code store}, {@code load}), counted straight from its lines. */
    static Map<String, Integer> jobsInLog(Path log, long fromSeq, long toSeq) throws IOException {
        Map<String, Integer> jobs = new TreeMap<>();
        for (String line : Files.readAllLines(log)) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode event = JSON.readTree(line);
            long seq = event.get("seq").asLong();
            if (seq < fromSeq || seq > toSeq) {
                continue;
            }
            String type = event.get("type").asText();
            if (type.equals("StoreJobScheduled")) {
                jobs.merge("store", 1, Integer::sum);
            } else if (type.equals("LoadJobScheduled")) {
                jobs.merge("load", 1, Integer::sum);
            }
        }
        return jobs;
    }
}

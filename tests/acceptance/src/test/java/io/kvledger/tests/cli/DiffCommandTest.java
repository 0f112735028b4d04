package io.kvledger.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.infrastructure.json.EventJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kvledger diff}: the first unit (or captured step) where two logs of the same commands disagree. */
class DiffCommandTest {

    @TempDir
    Path dir;

    private Path run;
    private List<ObjectNode> events;

    @BeforeEach
    void runExample() throws Exception {
        Path scenario = Path.of(DiffCommandTest.class.getResource("/examples/07_preemption_flush.jsonl").toURI());
        run = dir.resolve("run.jsonl");
        assertEquals(0, CliRun.of("run", scenario.toString(), "-o", run.toString()).exit());
        events = new ArrayList<>();
        for (String line : Files.readAllLines(run, StandardCharsets.UTF_8)) {
            events.add((ObjectNode) EventJson.mapper().readTree(line));
        }
        assertTrue(events.stream().anyMatch(e -> e.get("type").textValue().equals("StoreJobScheduled")));
    }

    @Test
    void aLogAgreesWithItselfAndWithOtherKeysForTheSameChunks() throws Exception {
        CliRun same = CliRun.of("diff", run.toString(), run.toString());
        assertEquals(0, same.exit(), same.stderr());
        assertTrue(same.stdout().get(0).startsWith("the logs agree"), same.stdout().toString());
        // Another implementation's strings for the same chunks.
        List<ObjectNode> other = read(run);
        for (ObjectNode event : other) {
            if (event.has("keys")) {
                ArrayNode keys = (ArrayNode) event.get("keys");
                ArrayNode renamed = EventJson.mapper().createArrayNode();
                keys.forEach(k -> renamed.add("other-" + k.textValue()));
                event.set("keys", renamed);
            }
        }
        CliRun renamed = CliRun.of("diff", run.toString(), write("renamed.jsonl", other).toString());
        assertEquals(0, renamed.exit(), renamed.stdout().toString());
    }

    @Test
    void aMissingJobIsTheFirstDisagreement() throws Exception {
        List<ObjectNode> other = read(run);
        int store = indexOf(other, "StoreJobScheduled");
        JsonNode removed = other.remove(store);
        CliRun diff = CliRun.of("diff", run.toString(), write("missing.jsonl", other).toString());
        assertEquals(1, diff.exit(), diff.stderr());
        String text = String.join("\n", diff.stdout());
        assertTrue(text.startsWith("first disagreement at unit"), text);
        assertTrue(text.contains("then seq " + removed.get("seq") + " StoreJobScheduled"), text);
    }

    @Test
    void decisionsOfOneCapturedStepMayComeInAnyOrderButNotInAnotherStep() throws Exception {
        List<ObjectNode> captured = read(run);
        int store = indexOf(captured, "StoreJobScheduled");
        // The whole log as one scheduler step: the store may move to the end of the step.
        captured.forEach(e -> e.put("step", 1));
        ObjectNode moved = captured.remove(store);
        captured.add(moved);
        for (int i = 0; i < captured.size(); i++) {
            captured.get(i).put("seq", i + 1); // a log's seq ascends
        }
        CliRun sameStep = CliRun.of("diff", run.toString(), write("same-step.jsonl", captured).toString());
        assertEquals(0, sameStep.exit(), sameStep.stdout().toString());

        // Every event its own step: the moved store now comes in another step.
        for (int i = 0; i < captured.size(); i++) {
            captured.get(i).put("step", i + 1);
        }
        CliRun otherStep = CliRun.of("diff", run.toString(), write("other-step.jsonl", captured).toString());
        assertEquals(1, otherStep.exit());
        assertTrue(otherStep.stdout().get(0).contains("(scheduler step"), otherStep.stdout().toString());
    }

    @Test
    void groupedKeysAreComparedByTheRequestGroupAndChunkTheyFirstName() throws Exception {
        Path scenario = Path.of(DiffCommandTest.class.getResource("/examples/11_full_and_sliding_window.jsonl").toURI());
        Path grouped = dir.resolve("grouped.jsonl");
        assertEquals(0, CliRun.of("run", scenario.toString(), "-o", grouped.toString()).exit());
        // Another implementation's strings for the same (group, chunk): per-group keys and the flat ChunksStored.
        List<ObjectNode> other = read(grouped);
        for (ObjectNode event : other) {
            if (event.has("keys")) {
                event.set("keys", renamed(event.get("keys")));
            }
        }
        CliRun agree = CliRun.of("diff", grouped.toString(), write("grouped-renamed.jsonl", other).toString());
        assertEquals(0, agree.exit(), agree.stdout().toString());

        // The same strings with group 0's and group 1's keys of the store swapped: other chunks.
        List<ObjectNode> swapped = read(grouped);
        ObjectNode store = swapped.get(indexOf(swapped, "StoreJobScheduled"));
        ArrayNode keys = (ArrayNode) store.get("keys");
        ArrayNode first = (ArrayNode) keys.get(0);
        keys.set(0, keys.get(1));
        keys.set(1, first);
        CliRun differ = CliRun.of("diff", grouped.toString(), write("grouped-swapped.jsonl", swapped).toString());
        assertEquals(1, differ.exit(), differ.stdout().toString());
    }

    private static ArrayNode renamed(JsonNode keys) {
        ArrayNode out = EventJson.mapper().createArrayNode();
        keys.forEach(k -> {
            if (k.isArray()) {
                out.add(renamed(k));
            } else {
                out.add("other-" + k.textValue());
            }
        });
        return out;
    }

    @Test
    void aLogThatEndsEarlyOrCannotBeReadIsReported() throws Exception {
        List<ObjectNode> shorter = read(run).subList(0, events.size() - 2);
        CliRun early = CliRun.of("diff", run.toString(), write("short.jsonl", shorter).toString());
        assertEquals(1, early.exit());
        assertTrue(String.join("\n", early.stdout()).contains("(ends before it)"), early.stdout().toString());

        Path bad = dir.resolve("bad.jsonl");
        Files.writeString(bad, "{\"seq\": 1, \"type\": \"EngineConfigured\"}\nnot json\n");
        CliRun malformed = CliRun.of("diff", run.toString(), bad.toString());
        assertEquals(2, malformed.exit());
        assertTrue(malformed.stderr().contains("bad.jsonl"), malformed.stderr());
        assertEquals(2, CliRun.of("diff", run.toString(), dir.resolve("nope.jsonl").toString()).exit());
    }

    private static int indexOf(List<ObjectNode> log, String type) {
        for (int i = 0; i < log.size(); i++) {
            if (log.get(i).get("type").textValue().equals(type)) {
                return i;
            }
        }
        throw new AssertionError("no " + type);
    }

    private static List<ObjectNode> read(Path log) throws Exception {
        List<ObjectNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            out.add((ObjectNode) EventJson.mapper().readTree(line));
        }
        return out;
    }

    private Path write(String name, List<ObjectNode> log) throws Exception {
        Path file = dir.resolve(name);
        List<String> lines = new ArrayList<>();
        log.forEach(e -> lines.add(EventJson.toLine(e)));
        Files.write(file, lines, StandardCharsets.UTF_8);
        return file;
    }
}

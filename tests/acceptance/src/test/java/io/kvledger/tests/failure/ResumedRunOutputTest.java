package io.kvledger.tests.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.infrastructure.json.EventJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10, item 5: a resumed run's output is the whole log (the stored events, then the run's), so
 * audit reads it as a complete log: no UNKNOWN_JOB for jobs the earlier run scheduled.
 */
class ResumedRunOutputTest {

    @TempDir
    Path dir;

    @Test
    void theOutputOfAResumedRunAuditsCleanAndEqualsTheStore() throws Exception {
        Path store = dir.resolve("store.jsonl");
        Path first = dir.resolve("first.jsonl");
        Path second = dir.resolve("second.jsonl");
        Path scenario = Files.writeString(dir.resolve("completions.jsonl"),
                "{\"cmd\": \"CompleteTransfer\", \"jobId\": 0}\n{\"cmd\": \"CompleteTransfer\", \"jobId\": 1}\n");
        assertEquals(0, Kvledger.inProcess("run", Examples.abortMidPrefill(), "--store", store.toString(), "-o", first.toString()).exit());

        Kvledger.Result resumed = Kvledger.inProcess("run", scenario.toString(), "--store", store.toString(), "-o", second.toString());
        Kvledger.Result audit = Kvledger.inProcess("audit", second.toString());

        assertEquals(0, resumed.exit(), resumed.toString());
        assertEquals(0, audit.exit(), audit.stdout());
        List<String> stored = Files.readAllLines(store);
        List<String> output = Files.readAllLines(second);
        assertEquals(stored.size(), output.size());
        for (int i = 0; i < stored.size(); i++) {
            ObjectNode line = (ObjectNode) EventJson.mapper().readTree(stored.get(i));
            line.remove("envelope");
            line.remove("stepCrc32c");
            assertEquals(line, EventJson.mapper().readTree(output.get(i)), "line " + (i + 1));
        }
        assertEquals(Files.readAllLines(first), output.subList(0, Files.readAllLines(first).size()), "the first run's log, then more");
    }

    /** Found by the long fuzz run (seed 20462403): a stored line of a type this version does not know. */
    @Test
    void aStoredEventOfAnUnknownTypeIsCopiedAsItWas() throws Exception {
        Path store = dir.resolve("store.jsonl");
        assertEquals(0, Kvledger.inProcess("run", Examples.prefillDecode(), "--store", store.toString()).exit());
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(store));
        lines.set(2, lines.get(2).replaceFirst("\"type\": \"[A-Za-z]+\"", "\"type\": \"FutureEvent\""));
        resealStepOf(lines, 2); // as a later version writes it: a whole step, with its checksum
        Files.write(store, lines);
        Path reset = Files.writeString(dir.resolve("reset.jsonl"), "{\"cmd\": \"ResetCache\"}\n");

        Kvledger.Result resumed = Kvledger.inProcess("run", reset.toString(), "--store", store.toString());

        assertEquals(0, resumed.exit(), resumed.toString());
        ObjectNode line = (ObjectNode) EventJson.mapper().readTree(lines.get(2));
        line.remove("envelope");
        line.remove("stepCrc32c");
        assertEquals(line, EventJson.mapper().readTree(resumed.lines().get(2)));
    }

    /** Recomputes the checksum (store format 3, docs/embedded-store.md) of the step that holds line {@code index}. */
    private static void resealStepOf(List<String> lines, int index) {
        String field = ", \"stepCrc32c\": ";
        int first = index;
        while (first > 0 && !lines.get(first - 1).contains(field)) {
            first--;
        }
        int last = index;
        while (!lines.get(last).contains(field)) {
            last++;
        }
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        for (int i = first; i < last; i++) {
            crc.update((lines.get(i) + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        String end = lines.get(last);
        String covered = end.substring(0, end.lastIndexOf(field));
        crc.update(covered.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        lines.set(last, covered + field + crc.getValue() + "}");
    }
}

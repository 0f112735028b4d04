package io.kvledger.tests.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23's third reproducer: one line of a store changed into other valid JSON ({@code req-1432} to
 * {@code reQ-1432}). Before store format 3, {@code run --store} exited 0 and went on from another
 * history; now every reader refuses the store, naming the line and seq of the step that fails its
 * checksum, and leaves it as it was.
 */
class StoreChecksumCliTest {

    @TempDir
    Path dir;

    @Test
    void aChangedLineIsRefusedByRunAndEveryLogTool() throws Exception {
        Path scenario = dir.resolve("s.jsonl");
        StringBuilder lines = new StringBuilder("{\"config\": {\"gpuBlockSize\": 4}}\n");
        for (int i = 1430; i < 1436; i++) {
            lines.append("{\"cmd\": \"RegisterRequest\", \"requestId\": \"req-").append(i).append("\", \"promptTokens\": [1, 2, 3, 4]}\n");
            lines.append("{\"cmd\": \"MatchPrefix\", \"requestId\": \"req-").append(i).append("\"}\n");
        }
        Files.writeString(scenario, lines);
        Path store = dir.resolve("S.jsonl");
        // Steps of one command each, so the changed line is in a step of its own (not the last).
        for (String line : lines.toString().split("\n")) {
            if (line.startsWith("{\"config\"")) {
                continue;
            }
            Path one = Files.writeString(dir.resolve("one.jsonl"), "{\"config\": {\"gpuBlockSize\": 4}}\n" + line + "\n");
            assertEquals(0, CliRun.of("run", one.toString(), "--store", store.toString(), "-o", dir.resolve("o").toString()).exit());
        }
        List<String> stored = new ArrayList<>(Files.readAllLines(store, StandardCharsets.UTF_8));
        int changed = -1;
        for (int i = 0; i < stored.size(); i++) {
            if (stored.get(i).contains("\"req-1432\"")) {
                changed = i;
                break;
            }
        }
        stored.set(changed, stored.get(changed).replace("req-1432", "reQ-1432"));
        Files.write(store, stored, StandardCharsets.UTF_8);
        byte[] before = Files.readAllBytes(store);

        CliRun run = CliRun.of("run", scenario.toString(), "--store", store.toString(), "-o", dir.resolve("out").toString());
        assertEquals(2, run.exit(), run.stderr());
        assertTrue(run.stderr().contains("line " + (changed + 1) + ": seq " + (changed + 1) + ": the step of seq"), run.stderr());
        assertTrue(run.stderr().contains("does not match its checksum"), run.stderr());
        assertArrayEquals(before, Files.readAllBytes(store), "the refused store is left as it was");
        for (String tool : List.of("audit", "replay", "explain")) {
            List<String> args = new ArrayList<>(List.of(tool, store.toString()));
            if (tool.equals("explain")) {
                args.addAll(List.of("--job", "0"));
            }
            CliRun read = CliRun.of(args.toArray(String[]::new));
            assertEquals(2, read.exit(), tool + ": " + read.stderr());
            assertTrue(read.stderr().contains("line " + (changed + 1) + ":"), tool + ": " + read.stderr());
            assertTrue(read.stderr().contains("does not match its checksum"), tool + ": " + read.stderr());
        }
    }
}

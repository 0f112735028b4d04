package io.kvledger.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31, cosmetics of grouped logs (example 11, a full group and a sliding group): a shortened key keeps
 * its group mark, so the keys of the same tokens in two groups stay apart in {@code explain},
 * {@code replay} and {@code audit}'s findings; a grouped {@code --timeline} keeps its columns aligned under their headers.
 */
class GroupedViewsLegibilityTest {

    /** A shortened key of group 1: eight hex digits, the ellipsis, the mark. */
    private static final Pattern GROUP_1_KEY = Pattern.compile("\\[[0-9a-f]{8}\\.\\.\\./g1, [0-9a-f]{8}\\.\\.\\./g1, [0-9a-f]{8}\\.\\.\\./g1]");

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path log;

    @BeforeEach
    void runExample() throws Exception {
        log = LogFixtures.runExample("11_full_and_sliding_window", dir);
    }

    @Test
    void explainShowsTheGroupMarkOfAShortenedKey() {
        CliRun explain = CliRun.of("explain", log.toString(), "--job", "0");

        assertEquals(0, explain.exit(), explain.stderr());
        List<String> groupOne = explain.stdout().stream().filter(line -> line.contains("group 1") || line.contains("lacking")).toList();
        assertTrue(explain.stdout().stream().anyMatch(line -> line.contains("group 1") && GROUP_1_KEY.matcher(line).find()),
                String.join("\n", explain.stdout()));
        assertTrue(groupOne.stream().anyMatch(line -> GROUP_1_KEY.matcher(line).find()), String.join("\n", groupOne));
    }

    @Test
    void replayShowsTheGroupMarkOfAShortenedKey() {
        CliRun replay = CliRun.of("replay", log.toString(), "--at", "5");

        assertEquals(0, replay.exit(), replay.stderr());
        assertTrue(replay.stdout().stream().anyMatch(line -> line.trim().startsWith("g1") && GROUP_1_KEY.matcher(line).find()),
                String.join("\n", replay.stdout()));
    }

    @Test
    void anAuditFindingShowsTheGroupMarkOfAShortenedKey() throws Exception {
        // Job 0 stores three chunks of each group; the edited log's job leaves out group 1's last one.
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            ObjectNode event = (ObjectNode) JSON.readTree(line);
            if (event.get("type").asText().equals("StoreJobScheduled") && event.get("jobId").asInt() == 0) {
                for (String field : List.of("chunkIndices", "keys", "blockIds")) {
                    ((ArrayNode) event.get(field).get(1)).remove(2);
                }
            }
            lines.add(JSON.writeValueAsString(event));
        }
        Path edited = Files.write(dir.resolve("edited.jsonl"), lines);

        CliRun audit = CliRun.of("audit", edited.toString());

        assertEquals(1, audit.exit(), audit.stderr());
        String missing = audit.stdout().stream().filter(line -> line.contains("STORE_MISSING")).findFirst().orElseThrow();
        assertTrue(GROUP_1_KEY.matcher(missing).find(), missing);
        assertTrue(audit.stdout().stream().anyMatch(line -> line.contains("CHUNKS_STORED_MISMATCH") && line.contains(".../g1")),
                String.join("\n", audit.stdout()));
    }

    @Test
    void aGroupedTimelinesColumnsStartUnderTheirHeaders() {
        CliRun timeline = CliRun.of("replay", log.toString(), "--request", "r", "--timeline");

        assertEquals(0, timeline.exit(), timeline.stderr());
        List<String> lines = timeline.stdout();
        String header = lines.get(1);
        int blocks = header.indexOf("BLOCKS");
        int jobs = header.indexOf("JOBS");
        int fields = header.indexOf("FIELDS");
        assertTrue(lines.size() > 4, String.join("\n", lines));
        for (String row : lines.subList(2, lines.size())) {
            assertTrue(row.charAt(blocks - 1) == ' ' && row.charAt(blocks) != ' ', "BLOCKS column of: " + row + "\n" + header);
            assertTrue(row.charAt(jobs - 1) == ' ' && row.charAt(jobs) == '[', "JOBS column of: " + row + "\n" + header);
            assertTrue(row.charAt(fields - 1) == ' ' && row.charAt(fields) != ' ', "FIELDS column of: " + row + "\n" + header);
        }
    }
}

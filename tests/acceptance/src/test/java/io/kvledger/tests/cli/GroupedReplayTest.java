package io.kvledger.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvledger.domain.EngineFold;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kvledger replay} of a grouped log (contract 7.9): example 12, a full group and a sliding group of
 * window 4 whose blocks 11 and 12 are freed while a store still reads them.
 */
class GroupedReplayTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path log;

    @BeforeEach
    void runExample() throws Exception {
        log = LogFixtures.runExample("12_window_free_fence", dir);
    }

    @Test
    void atEverySeqEachGroupsCursorAndTableAreTheDomainFoldsInGroupOrder() throws Exception {
        List<EngineEvent> events = LogFixtures.events(log);
        for (int seq = 1; seq <= events.size(); seq++) {
            EngineState expected = EngineFold.fold(events.subList(0, seq));

            JsonNode state = json("replay", log.toString(), "--at", String.valueOf(seq), "--json");

            for (JsonNode request : state.get("requests")) {
                RequestState r = expected.heldRequest(request.get("requestId").asText());
                assertEquals(2, request.get("cursor").size(), "at " + seq);
                for (int g = 0; g < 2; g++) {
                    assertEquals(r.cursor(g), request.get("cursor").get(g).asInt(), "at " + seq + " g" + g);
                    assertEquals(tableJson(r, g), request.get("blockTable").get(g).toString(), "at " + seq + " g" + g);
                }
                assertEquals(2, request.get("storableChunks").size(), "at " + seq);
                assertEquals(2, request.get("chunkKeys").size(), "at " + seq);
            }
        }
    }

    @Test
    void afterTheFreeTheSlidingTableShowsItsNullEntries() throws Exception {
        long freed = seqOf("WindowBlocksFreed");

        JsonNode r = json("replay", log.toString(), "--at", String.valueOf(freed), "--json").get("requests").get(0);
        CliRun text = CliRun.of("replay", log.toString(), "--at", String.valueOf(freed));
        CliRun one = CliRun.of("replay", log.toString(), "--at", String.valueOf(freed), "--request", "r");

        assertEquals("[[1,2,3],[null,null,13]]", r.get("blockTable").toString());
        assertEquals("[3,3]", r.get("cursor").toString());
        assertEquals("[3,3]", r.get("storableChunks").toString());
        assertEquals(0, text.exit(), text.stderr());
        String all = String.join("\n", text.stdout());
        assertTrue(all.contains("groups=[g0 FULL B=4, g1 SLIDING_WINDOW B=4 w=4]"), all);
        assertTrue(text.stdout().stream().anyMatch(l -> l.matches("r\\s+RUNNING\\s+12\\s+12\\s+12\\s+g0\\s+3\\s+3\\s+3\\s+\\[1, 2, 3\\]\\s+\\[0, 1\\]")), all);
        assertTrue(text.stdout().stream().anyMatch(l -> l.matches("\\s+g1\\s+3\\s+3\\s+3\\s+\\[null, null, 13\\]")), all);
        String request = String.join("\n", one.stdout());
        assertTrue(request.contains("group 1   SLIDING_WINDOW B=4 C=4 w=4\n  storable  S=3"), request);
        assertTrue(request.contains("  table     3 blocks [null, null, 13] (2 null)"), request);
    }

    private long seqOf(String type) throws Exception {
        try (InputStream in = Files.newInputStream(log)) {
            EventLogReader reader = new EventLogReader(in);
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                if (entry.type().equals(type)) {
                    return entry.seq();
                }
            }
        }
        throw new AssertionError("no " + type + " in " + log);
    }

    private static String tableJson(RequestState r, int g) throws Exception {
        return JSON.writeValueAsString(r.table(g).toJavaList());
    }

    private static JsonNode json(String... args) throws Exception {
        CliRun run = CliRun.of(args);
        assertEquals(0, run.exit(), run.stderr());
        return JSON.readTree(String.join("\n", run.stdout()));
    }
}

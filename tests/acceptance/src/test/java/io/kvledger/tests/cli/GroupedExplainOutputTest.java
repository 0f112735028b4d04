package io.kvledger.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvledger.domain.EngineFold;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kvledger explain} and {@code audit --explain} of a grouped log show every group (contract 7.9):
 * a job's part of each group beside what that group's rules give, and the request's cursor, storable
 * chunks and table of each group before a command, null entries as {@code null}. On a simulated gpt-oss
 * log (a full group and a sliding group of window 128, whose window blocks are freed) and on example 12.
 */
class GroupedExplainOutputTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void everyJobShowsEachGroupsPartAsTheLogWroteIt() throws Exception {
        Path log = simulated();
        List<EngineEvent> events = LogFixtures.events(log);
        int jobs = 0;
        int withNulls = 0;
        for (EngineEvent event : events) {
            long jobId;
            PerGroup<Integer> chunks;
            PerGroup<Integer> blocks;
            if (event instanceof StoreJobScheduled e) {
                jobId = e.jobId();
                chunks = e.chunkIndices();
                blocks = e.blockIds();
            } else if (event instanceof LoadJobScheduled e) {
                jobId = e.jobId();
                chunks = e.chunkIndices();
                blocks = e.blockIds();
            } else {
                continue;
            }
            if (jobs++ % 4 != 0) {
                continue; // a quarter of the jobs: each explain reads the whole log
            }
            JsonNode x = json("explain", log.toString(), "--job", String.valueOf(jobId), "--json");
            assertEquals(2, x.get("groups").size(), "job " + jobId);
            assertTrue(x.get("differences").isEmpty(), "job " + jobId + " follows the rules: " + x.get("differences"));
            for (int g = 0; g < 2; g++) {
                JsonNode part = x.get("groups").get(g);
                assertEquals(g, part.get("group").asInt());
                assertEquals(JSON.writeValueAsString(chunks.group(g)), part.get("job").get("chunkIndices").toString(), "job " + jobId);
                assertEquals(JSON.writeValueAsString(blocks.group(g)), part.get("job").get("blockIds").toString(), "job " + jobId);
                assertEquals(part.get("job").get("chunkIndices"), part.get("expected").get("chunkIndices"), "job " + jobId);
                withNulls += part.get("table").toString().contains("null") ? 1 : 0;
            }
            CliRun text = CliRun.of("explain", log.toString(), "--job", String.valueOf(jobId));
            String all = String.join("\n", text.stdout());
            assertTrue(all.contains("holds        group 0  chunks " + chunks.group(0)), all);
            assertTrue(all.contains("\n             group 1  chunks " + chunks.group(1)), all);
            assertTrue(all.contains("\ngroup 1      SLIDING_WINDOW B=16 C=16 w=128\n"), all);
            assertTrue(all.contains("verdict      follows the rules"), all);
        }
        assertTrue(jobs > 20, "jobs: " + jobs);
        assertTrue(withNulls > 0, "some sliding table shows its null entries");
    }

    @Test
    void auditExplainShowsEachGroupOfTheRequestBeforeTheCommand() throws Exception {
        Path log = simulated();
        List<EngineEvent> events = LogFixtures.events(log);
        int shown = 0;
        for (int seq = 40; seq < events.size(); seq += 97) {
            JsonNode view = json("audit", log.toString(), "--explain", String.valueOf(seq), "--json");
            JsonNode request = view.get("request");
            if (request == null || request.isNull()) {
                continue;
            }
            int commandSeq = view.get("commandSeq").asInt();
            EngineState before = EngineFold.fold(events.subList(0, commandSeq - 1));
            RequestState r = before.liveRequest(request.get("requestId").asText());
            assertEquals(2, request.get("groups").size(), "at " + seq);
            CliRun text = CliRun.of("audit", log.toString(), "--explain", String.valueOf(seq));
            String all = String.join("\n", text.stdout());
            for (int g = 0; g < 2; g++) {
                JsonNode part = request.get("groups").get(g);
                assertEquals(r.cursor(g), part.get("cursor").asInt(), "at " + seq + " g" + g);
                assertEquals(JSON.writeValueAsString(r.table(g).toJavaList()), part.get("blockTable").toString(), "at " + seq);
                assertTrue(all.contains("             group " + g + ": s=" + r.cursor(g) + ", S=" + part.get("storableChunks").asInt()
                        + ", table " + r.table(g).toJavaList()), all);
            }
            shown++;
        }
        assertTrue(shown > 5, "commands of a request shown: " + shown);
    }

    @Test
    void replayShowsEachJobAndEachTimelineFigurePerGroup() throws Exception {
        Path log = simulated();
        List<EngineEvent> events = LogFixtures.events(log);
        java.util.Map<Long, EngineEvent> scheduled = new java.util.HashMap<>();
        int jobsShown = 0;
        for (int seq = 1; seq <= events.size(); seq++) {
            EngineEvent event = events.get(seq - 1);
            if (event instanceof StoreJobScheduled e) {
                scheduled.put(e.jobId(), e);
            } else if (event instanceof LoadJobScheduled e) {
                scheduled.put(e.jobId(), e);
            }
            if (seq % 113 != 0) {
                continue;
            }
            JsonNode state = json("replay", log.toString(), "--at", String.valueOf(seq), "--json");
            for (JsonNode job : state.get("jobs")) {
                EngineEvent e = scheduled.get(job.get("jobId").asLong());
                PerGroup<Integer> chunks = e instanceof StoreJobScheduled s ? s.chunkIndices() : ((LoadJobScheduled) e).chunkIndices();
                PerGroup<Integer> blocks = e instanceof StoreJobScheduled s ? s.blockIds() : ((LoadJobScheduled) e).blockIds();
                PerGroup<String> keys = e instanceof StoreJobScheduled s ? s.keys() : ((LoadJobScheduled) e).keys();
                assertEquals(JSON.writeValueAsString(chunks.lists()), job.get("chunkIndices").toString(), "job at " + seq);
                assertEquals(JSON.writeValueAsString(blocks.lists()), job.get("blockIds").toString(), "job at " + seq);
                assertEquals(JSON.writeValueAsString(keys.lists()), job.get("keys").toString(), "job at " + seq);
                jobsShown++;
            }
            if (state.get("jobs").size() > 0) {
                CliRun text = CliRun.of("replay", log.toString(), "--at", String.valueOf(seq));
                assertTrue(text.stdout().stream().anyMatch(line -> line.matches("\\s*JOB\\s+KIND\\s+REQUEST\\s+DONE\\s+GROUP\\s+CHUNKS.*")),
                        String.join("\n", text.stdout()));
                assertTrue(text.stdout().stream().anyMatch(line -> line.matches("\\s+g1\\s+\\[.*")), String.join("\n", text.stdout()));
            }
        }
        assertTrue(jobsShown > 5, "jobs in flight shown: " + jobsShown);

        String requestId = "req-3";
        JsonNode timeline = json("replay", log.toString(), "--request", requestId, "--timeline", "--json");
        int rows = 0;
        for (JsonNode row : timeline.get("events")) {
            JsonNode after = row.get("after");
            if (after == null || after.isNull() || after.get("cursor").isNull()) {
                continue;
            }
            RequestState r = EngineFold.fold(events.subList(0, row.get("seq").asInt())).heldRequest(requestId);
            for (int g = 0; g < 2; g++) {
                assertEquals(r.cursor(g), after.get("cursor").get(g).asInt(), "at " + row.get("seq"));
                assertEquals(r.table(g).size(), after.get("tableSize").get(g).asInt(), "at " + row.get("seq"));
            }
            rows++;
        }
        assertTrue(rows > 5, "timeline rows: " + rows);
        CliRun text = CliRun.of("replay", log.toString(), "--request", requestId, "--timeline");
        assertTrue(text.stdout().stream().anyMatch(line -> line.contains(" [0, 0]->[")), String.join("\n", text.stdout()));
    }

    @Test
    void aSingleGroupExplanationHasNoGroups() throws Exception {
        Path log = LogFixtures.runExample("01_prefill_decode", dir);
        JsonNode x = json("explain", log.toString(), "--job", "0", "--json");
        assertFalse(x.has("groups"), x.toString());
        JsonNode view = json("audit", log.toString(), "--explain", "4", "--json");
        assertTrue(view.get("request") == null || view.get("request").isNull() || !view.get("request").has("groups"), view.toString());
    }

    private Path simulated() {
        Path log = dir.resolve("gpt-oss.jsonl");
        CliRun simulate = CliRun.of("simulate", "--model", "gpt-oss", "--requests", "30", "--seed", "3", "-o", log.toString());
        assertEquals(0, simulate.exit(), simulate.stderr());
        return log;
    }

    private static JsonNode json(String... args) throws Exception {
        CliRun run = CliRun.of(args);
        assertEquals(0, run.exit(), String.join(" ", args) + ": " + run.stderr());
        return JSON.readTree(String.join("\n", run.stdout()));
    }
}

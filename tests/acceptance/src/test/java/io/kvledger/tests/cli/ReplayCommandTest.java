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
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kvledger replay} on a real log of {@code kvledger run}: example 05, abort mid-prefill (B=4, F=2). */
class ReplayCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path log;

    @BeforeEach
    void runExample() throws Exception {
        log = LogFixtures.runExample("05_abort_mid_prefill", dir);
    }

    @Test
    void atEverySeqTheStateIsTheDomainFoldOfTheEventsUpToIt() throws Exception {
        List<EngineEvent> events = events(log);
        for (int seq = 1; seq <= events.size(); seq++) {
            EngineState expected = EngineFold.fold(events.subList(0, seq));

            JsonNode state = json("replay", log.toString(), "--at", String.valueOf(seq), "--json");

            assertEquals(seq, state.get("seq").asLong());
            assertEquals(expected.requests().size(), state.get("requests").size(), "at " + seq);
            for (JsonNode request : state.get("requests")) {
                RequestState r = expected.heldRequest(request.get("requestId").asText());
                assertEquals(r.status().name(), request.get("status").asText(), "at " + seq);
                assertEquals(r.computed(), request.get("computed").asInt(), "at " + seq);
                assertEquals(r.cursor(), request.get("cursor").asInt(), "at " + seq);
                assertEquals(r.blockTable().size(), request.get("blockTable").size(), "at " + seq);
            }
            assertEquals(expected.jobs().size(), state.get("jobs").size(), "at " + seq);
            assertEquals(expected.tier().size(), state.get("tier").get("held").asInt(), "at " + seq);
            assertEquals(expected.fences().size(), state.get("fences").size(), "at " + seq);
        }
    }

    @Test
    void theStoreAfterSixteenComputedTokensMovesTheCursorToTwo() throws Exception {
        JsonNode before = json("replay", log.toString(), "--at", "5", "--json");
        JsonNode after = json("replay", log.toString(), "--at", "6", "--json");

        JsonNode r = after.get("requests").get(0);
        assertEquals(0, before.get("requests").get(0).get("cursor").asInt());
        assertEquals("RUNNING", r.get("status").asText());
        assertEquals(16, r.get("computed").asInt());
        assertEquals(24, r.get("numTokens").asInt());
        assertEquals(16, r.get("tokenBound").asInt());
        assertEquals(2, r.get("storableChunks").asInt());
        assertEquals(2, r.get("cursor").asInt());
        assertEquals("[0,1]", after.get("jobs").get(0).get("chunkIndices").toString());
        assertEquals("[1,2,3,4]", after.get("jobs").get(0).get("blockIds").toString());
        assertEquals(2, after.get("tier").get("writing").asInt());
    }

    @Test
    void theTextIsAHeaderAndOneTableRowPerRequestAndJob() {
        CliRun run = CliRun.of("replay", log.toString(), "--at", "8");

        assertEquals(0, run.exit(), run.stderr());
        assertEquals("after seq 8 (BlocksReleased), 8 events read", run.stdout().get(0));
        assertTrue(run.stdout().contains("tier      held 2 of capacity 1024 (ready 0, writing 2), pinned 0"), run.stdout().toString());
        assertTrue(run.stdout().stream().anyMatch(l -> l.matches("r\\s+ABORTED\\s+16\\s+24\\s+16\\s+0\\s+2\\s+0\\s+\\[\\]\\s+\\[0\\]")),
                String.join("\n", run.stdout()));
        assertTrue(run.stdout().stream().anyMatch(l -> l.matches("\\s*0\\s+STORE\\s+r\\s+0/1\\s+\\[0, 1\\]\\s+\\[1, 2, 3, 4\\].*")));
        assertTrue(run.stdout().contains("[0]                  4  [1, 2, 3, 4]"), "blocks 1-4 fenced by job 0");
    }

    @Test
    void oneRequestLiveRetiredOrUnknown() throws Exception {
        JsonNode live = json("replay", log.toString(), "--at", "7", "--request", "r", "--json");
        JsonNode retired = json("replay", log.toString(), "--request", "r", "--json");
        CliRun retiredText = CliRun.of("replay", log.toString(), "--request", "r");
        CliRun unknown = CliRun.of("replay", log.toString(), "--request", "nobody");

        assertEquals("LIVE", live.get("known").asText());
        assertEquals("ABORTED", live.get("request").get("status").asText());
        assertEquals(1, live.get("jobs").size());
        assertEquals("RETIRED", retired.get("known").asText());
        assertEquals("ABORTED", retired.get("status").asText());
        assertTrue(retired.get("request").isNull());
        assertTrue(retiredText.stdout().get(0).contains("is retired after seq 10 (ChunksStored): it ended ABORTED and settled"),
                retiredText.stdout().toString());
        assertEquals(0, unknown.exit());
        assertTrue(unknown.stdout().get(0).startsWith("request nobody is unknown after seq 10"), unknown.stdout().toString());
    }

    @Test
    void theTimelineShowsEachEventOfTheRequestWithTheChangeItMade() {
        CliRun run = CliRun.of("replay", log.toString(), "--request", "r", "--timeline");

        assertEquals(0, run.exit(), run.stderr());
        List<String> rows = run.stdout().subList(2, run.stdout().size());
        assertEquals(List.of("2", "3", "4", "5", "6", "7", "8", "9"), rows.stream().map(l -> l.trim().split("\\s+")[0]).toList());
        assertTrue(rows.get(3).matches("\\s+5\\s+TokensComputed\\s+RUNNING\\s+0->16\\s+24\\s+0\\s+6\\s+\\[\\]\\s+numComputedTokens=16"), rows.get(3));
        assertTrue(rows.get(4).matches("\\s+6\\s+StoreJobScheduled\\s+RUNNING\\s+16\\s+24\\s+0->2\\s+6\\s+\\[\\]->\\[0\\].*"), rows.get(4));
        assertTrue(rows.get(5).contains("RUNNING->ABORTED"), rows.get(5));
        assertTrue(rows.get(6).matches(".*BlocksReleased\\s+ABORTED\\s+16\\s+24\\s+2\\s+6->0\\s+.*"), rows.get(6));
        assertTrue(rows.get(7).contains("ABORTED +retired"), rows.get(7));
    }

    @Test
    void theTimelineInJsonPairsTheRequestBeforeAndAfterEachEvent() throws Exception {
        JsonNode timeline = json("replay", log.toString(), "--request", "r", "--timeline", "--json", "--at", "6");

        JsonNode events = timeline.get("events");
        assertEquals("kvledger.replay.timeline/1", timeline.get("schema").asText());
        assertEquals(5, events.size());
        assertTrue(events.get(0).get("before").isNull());
        assertEquals("WAITING", events.get(0).get("after").get("status").asText());
        assertEquals(0, events.get(4).get("before").get("cursor").asInt());
        assertEquals(2, events.get(4).get("after").get("cursor").asInt());
        assertEquals("[0]", events.get(4).get("after").get("jobIds").toString());
    }

    @Test
    void atOutsideTheLogIsAUsageError() {
        CliRun past = CliRun.of("replay", log.toString(), "--at", "11");
        CliRun zero = CliRun.of("replay", log.toString(), "--at", "0");
        CliRun negative = CliRun.of("replay", log.toString(), "--at", "-4");
        CliRun timelineAlone = CliRun.of("replay", log.toString(), "--timeline");

        assertEquals(2, past.exit());
        assertTrue(past.stderr().contains("--at 11 is past the end of " + log + ", whose last seq is 10"), past.stderr());
        assertEquals(List.of(), past.stdout());
        assertEquals(2, zero.exit());
        assertTrue(zero.stderr().contains("--at must be a seq of the log"), zero.stderr());
        assertEquals(2, negative.exit());
        assertEquals(2, timelineAlone.exit());
        assertTrue(timelineAlone.stderr().contains("--timeline needs --request ID"), timelineAlone.stderr());
    }

    @Test
    void progressGoesToStderrWhenAskedFor() {
        CliRun quiet = CliRun.of("replay", log.toString());
        CliRun progress = CliRun.of("replay", log.toString(), "--progress");

        assertEquals("", quiet.stderr(), "stderr is not a terminal in a test");
        assertTrue(progress.stderr().matches("(?s)replay: 100% .* seq 10 .* events/s  10 events in .* s\\s*"), progress.stderr());
        assertEquals(quiet.stdout(), progress.stdout());
    }

    private static JsonNode json(String... args) throws Exception {
        CliRun run = CliRun.of(args);
        assertEquals(0, run.exit(), run.stderr());
        return JSON.readTree(String.join("\n", run.stdout()));
    }

    private static List<EngineEvent> events(Path log) throws Exception {
        List<EngineEvent> events = new ArrayList<>();
        try (InputStream in = Files.newInputStream(log)) {
            EventLogReader reader = new EventLogReader(in);
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                events.add(entry.event());
            }
        }
        return events;
    }
}

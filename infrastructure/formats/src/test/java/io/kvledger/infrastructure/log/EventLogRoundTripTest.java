package io.kvledger.infrastructure.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RejectionCode;
import io.kvledger.domain.event.RequestFinished;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.event.StoreJobScheduled;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventLogRoundTripTest {

    @Test
    void whatTheWriterWritesTheReaderReadsBackEqual() throws Exception {
        List<EngineEvent> events = List.of(
                EngineConfigured.of(EngineConfig.DEFAULTS.withMaxOffloadTokens(64)),
                new RequestRegistered("r", 3, List.of(1, 2, 3)),
                new PrefixMatched("r", 0, 0, List.of()),
                new StoreJobScheduled(0, "r", List.of(0, 1), List.of("k0", "k1"), List.of(4, 5)),
                new FlushRequired(List.of(0L, 3L), List.of(4, 5)),
                new RequestFinished("r", FinishReason.LENGTH),
                new CommandRejected(9, "CompleteTransfer", RejectionCode.UNKNOWN_JOB, "job 7 was never scheduled", null, 7L),
                new CommandRejected(10, "AbortRequest", RejectionCode.INVALID_ARGUMENT, "requestId must be a string", 12L, null));
        StringWriter text = new StringWriter();
        EventLogWriter writer = new EventLogWriter(text);
        writer.writeAll(events);
        writer.flush();

        List<EngineEvent> read = new ArrayList<>();
        EventLogReader reader = reader(text.toString());
        for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
            read.add(entry.event());
        }

        assertEquals(events, read);
    }

    @Test
    void unknownTypesAndExtraFieldsAreAccepted() throws Exception {
        EventLogReader reader = reader(configured() + "\n"
                + "{\"seq\": 2, \"type\": \"SomethingNew\", \"x\": 1}\n"
                + "{\"seq\": 5, \"type\": \"RequestAborted\", \"requestId\": \"r\", \"note\": \"extra\"}\n");

        reader.next();
        LogEntry unknown = reader.next();
        LogEntry aborted = reader.next();

        assertNull(unknown.event());
        assertEquals("SomethingNew", unknown.type());
        assertEquals(5, aborted.seq());
        assertNull(reader.next());
    }

    @Test
    void anOlderRevisionIsUpcastOnRead() throws Exception {
        EventLogReader reader = reader(configured() + "\n"
                + "{\"seq\": 2, \"type\": \"PrefixMatched\", \"requestId\": \"r\", \"gpuHitTokens\": 0, \"externalTokens\": 16,"
                + " \"hits\": [0], \"envelope\": {\"aggregateId\": \"engine\", \"sequenceNumber\": 1, \"eventId\": \"e\","
                + " \"timestamp\": \"2026-11-30T00:00:00Z\", \"revision\": \"0\"}}\n");

        reader.next();

        assertEquals(new PrefixMatched("r", 0, 16, List.of(0)), reader.next().event());
    }

    @Test
    void badLinesAreNamed() {
        assertMalformed("", "the log is empty");
        assertMalformed("{\"seq\": 1, \"type\": \"RequestAborted\", \"requestId\": \"r\"}", "line 1: the first event must be EngineConfigured");
        assertMalformed(configured() + "\n{\"type\": \"RequestAborted\"}", "line 2: seq is missing");
        assertMalformed(configured() + "\n{\"seq\": 2}", "line 2: type is missing");
        assertMalformed(configured() + "\n{\"seq\": 1, \"type\": \"X\"}", "line 2: seq 1 does not increase");
        assertMalformed(configured() + "\n{\"seq\": 2, \"type\": \"RequestAborted\"}", "line 2: RequestAborted.requestId is missing");
        assertMalformed(configured() + "\n{\"seq\": 2, \"type\": \"TokensComputed\", \"requestId\": \"r\", \"numComputedTokens\": 4.0}",
                "line 2: TokensComputed.numComputedTokens must be an integer");
        assertMalformed(configured() + "\nnot json", "line 2: not valid JSON");
    }

    private static void assertMalformed(String log, String expected) {
        MalformedLogException e = assertThrows(MalformedLogException.class, () -> {
            EventLogReader reader = reader(log);
            while (reader.next() != null) {
                // read to the end
            }
        });
        assertTrue(e.getMessage().startsWith(expected), e.getMessage());
    }

    private static String configured() {
        return "{\"seq\": 1, \"type\": \"EngineConfigured\", \"gpuBlockSize\": 16, \"blocksPerChunk\": 1, \"workers\": 1,"
                + " \"cpuCapacityChunks\": 1024, \"releasePolicy\": \"FENCE\", \"maxOffloadTokens\": null, \"offloadPromptOnly\": false}";
    }

    private static EventLogReader reader(String text) throws IOException {
        return new EventLogReader(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }
}

package io.kvledger.infrastructure.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.infrastructure.json.EventJson;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Contract revision 6 in the log: {@code RequestRegistered}'s controls (9.1) and {@code EngineConfigured.producer} (9.3). */
class RequestControlsLogTest {

    private static final String CONFIGURED = "{\"seq\": 1, \"type\": \"EngineConfigured\", \"gpuBlockSize\": 16, \"blocksPerChunk\": 1,"
            + " \"workers\": 1, \"cpuCapacityChunks\": 1024, \"releasePolicy\": \"FENCE\", \"maxOffloadTokens\": null,"
            + " \"offloadPromptOnly\": false";

    @Test
    void eachControlIsWrittenRightAfterPromptTokensOnlyWhenGiven() throws IOException {
        assertEquals("{\"seq\": 2, \"type\": \"RequestRegistered\", \"requestId\": \"r\", \"promptLength\": 2, \"promptTokens\": [1, 2]}",
                line(new RequestRegistered("r", 2, List.of(1, 2))));
        assertEquals("{\"seq\": 2, \"type\": \"RequestRegistered\", \"requestId\": \"r\", \"promptLength\": 2, \"promptTokens\": [1, 2],"
                        + " \"maxOffloadTokens\": 8, \"maxLoadTokens\": 0, \"skipReadingPrefixCache\": true}",
                line(new RequestRegistered("r", 2, List.of(1, 2), 8, 0, true)));
        assertEquals("{\"seq\": 2, \"type\": \"RequestRegistered\", \"requestId\": \"r\", \"promptLength\": 2, \"promptTokens\": [1, 2],"
                        + " \"maxLoadTokens\": 10}",
                line(new RequestRegistered("r", 2, List.of(1, 2), null, 10, null)));
    }

    @Test
    void producerIsWrittenLastAfterGroupsOnlyWhenKnown() throws IOException {
        EngineConfigured own = EngineConfigured.of(EngineConfig.DEFAULTS);
        assertEquals(CONFIGURED.replace("\"seq\": 1", "\"seq\": 2") + "}", line(own));
        assertEquals(CONFIGURED.replace("\"seq\": 1", "\"seq\": 2") + ", \"producer\": \"kvledger_capture 0.6 / vLLM 0.28.0\"}",
                line(own.withProducer("kvledger_capture 0.6 / vLLM 0.28.0")));
        EngineConfigured grouped = EngineConfigured.of(EngineConfig.DEFAULTS.withGroups(List.of(
                io.kvledger.domain.config.KvCacheGroup.full(16)))).withProducer("p");
        String written = line(grouped);
        assertEquals(true, written.endsWith("}], \"producer\": \"p\"}"), written);
    }

    @Test
    void everyControlAndTheProducerReadBackEqualOnBothReadingPaths() throws Exception {
        List<EngineEvent> events = List.of(
                EngineConfigured.of(EngineConfig.DEFAULTS).withProducer("kvledger_capture 0.6 / vLLM 0.28.0"),
                new RequestRegistered("a", 1, List.of(1), 8, null, null),
                new RequestRegistered("b", 1, List.of(1), null, 0, null),
                new RequestRegistered("c", 1, List.of(1), null, null, false),
                new RequestRegistered("d", 1, List.of(1), 0, 2147483647, true),
                new RequestRegistered("e", 1, List.of(1)));
        StringWriter text = new StringWriter();
        EventLogWriter writer = new EventLogWriter(text);
        writer.writeAll(events);
        writer.flush();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        LogLineEncoder encoder = new LogLineEncoder(bytes);
        encoder.writeAll(events);
        encoder.flush();

        assertEquals(text.toString(), bytes.toString(StandardCharsets.UTF_8));
        assertEquals(events, read(text.toString()));
        // The same lines with a foreign field order and an extra field: the tree path reads them the same.
        String foreign = text.toString().replace("\"promptLength\": 1, ", "\"note\": 1, ").replace("\"requestId\"", "\"promptLength\": 1, \"requestId\"");
        assertEquals(events, read(foreign));
    }

    @Test
    void aControlOutOfItsRangeMakesTheLogMalformedNamingLineAndField() {
        String registered = "{\"seq\": 2, \"type\": \"RequestRegistered\", \"requestId\": \"r\", \"promptLength\": 1, \"promptTokens\": [1], ";
        assertMalformed(registered + "\"maxOffloadTokens\": null}", 2, "RequestRegistered.maxOffloadTokens must be an integer, was null");
        assertMalformed(registered + "\"maxLoadTokens\": -1}", 2, "RequestRegistered.maxLoadTokens is out of range (0 to 2147483647), was -1");
        assertMalformed(registered + "\"maxLoadTokens\": 4.0}", 2,
                "RequestRegistered.maxLoadTokens must be an integer (without a fraction or exponent)");
        assertMalformed(registered + "\"maxOffloadTokens\": \"8\"}", 2, "RequestRegistered.maxOffloadTokens must be an integer, was \"8\"");
        assertMalformed(registered + "\"skipReadingPrefixCache\": \"yes\"}", 2,
                "RequestRegistered.skipReadingPrefixCache must be true or false when given, was \"yes\"");
        assertMalformed(registered + "\"skipReadingPrefixCache\": null}", 2,
                "RequestRegistered.skipReadingPrefixCache must be true or false when given, was null");
    }

    @Test
    void aProducerThatIsNotAStringIsAnExtraField() throws Exception {
        List<EngineEvent> read = read(CONFIGURED + ", \"producer\": 6}\n");
        assertNull(((EngineConfigured) read.get(0)).producer());
        assertEquals(EngineConfigured.of(EngineConfig.DEFAULTS), read.get(0));
    }

    private static void assertMalformed(String line, long lineNumber, String message) {
        MalformedLogException e = assertThrows(MalformedLogException.class, () -> read(CONFIGURED + "}\n" + line + "\n"));
        assertEquals(lineNumber, e.line());
        assertEquals(true, e.getMessage().contains(message), e.getMessage());
    }

    private static String line(EngineEvent event) {
        return EventJson.toLine(2, event);
    }

    private static List<EngineEvent> read(String text) throws IOException, MalformedLogException {
        List<EngineEvent> read = new ArrayList<>();
        EventLogReader reader = new EventLogReader(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
        for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
            read.add(entry.event());
        }
        return read;
    }
}

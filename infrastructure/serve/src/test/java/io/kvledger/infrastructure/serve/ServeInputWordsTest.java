package io.kvledger.infrastructure.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31 over a real socket: serve shows a number as the host wrote it, in a rejection and in a refused
 * request, and rejects an empty request id with INVALID_ARGUMENT before looking it up, as {@code run} does.
 */
class ServeInputWordsTest {

    private static final String REGISTER = "{\"cmd\": \"RegisterRequest\", \"requestId\": \"r\", \"promptTokens\": [1, 2, 3, 4]}";

    @TempDir
    Path dir;

    @Test
    void aNumberIsShownAsWrittenInARejectionAndInARefusal() throws Exception {
        try (ServerHarness harness = ServerHarness.inMemory(dir); UnixClient client = new UnixClient(harness.socket)) {
            client.hello();
            JsonNode answer = client.request("{\"step\": [" + REGISTER + ", {\"cmd\": \"ComputeTokens\", \"requestId\": \"r\","
                    + " \"tokens\": 4.0}, [\"ComputeTokens\", \"r\", 4.00]]}");
            JsonNode refused = client.request("{\"step\": [" + REGISTER + "], \"lines\": [1.0]}").get("error");

            JsonNode events = answer.get("events");
            assertEquals("tokens must be an integer (without a fraction or exponent), was 4.0",
                    events.get(answer.get("rejections").get(0).intValue()).get("message").textValue(), answer.toString());
            assertEquals("tokens must be an integer (without a fraction or exponent), was 4.00",
                    events.get(answer.get("rejections").get(1).intValue()).get("message").textValue(), answer.toString());
            assertEquals("BAD_REQUEST", refused.get("code").textValue());
            assertEquals("lines[0] must be an integer >= 0, was 1.0", refused.get("message").textValue());
        }
    }

    @Test
    void anEmptyRequestIdIsInvalidArgument() throws Exception {
        try (ServerHarness harness = ServerHarness.inMemory(dir); UnixClient client = new UnixClient(harness.socket)) {
            client.hello();
            JsonNode answer = client.request("{\"step\": [{\"cmd\": \"RegisterRequest\", \"requestId\": \"\", \"promptTokens\": [1]},"
                    + " [\"AbortRequest\", \"\"]]}");

            JsonNode events = answer.get("events");
            assertEquals(2, events.size(), answer.toString());
            for (JsonNode rejection : events) {
                assertEquals("CommandRejected", rejection.get("type").textValue());
                assertEquals("INVALID_ARGUMENT", rejection.get("code").textValue());
                assertEquals("requestId must not be empty", rejection.get("message").textValue());
                assertEquals("", rejection.get("requestId").textValue());
            }
        }
    }
}

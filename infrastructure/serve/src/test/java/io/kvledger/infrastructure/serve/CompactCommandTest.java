package io.kvledger.infrastructure.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Commands written as arrays ({@code [cmd, values...]}) run exactly as their object form does. */
class CompactCommandTest {

    private static final String OBJECTS = "{\"step\": ["
            + "{\"cmd\": \"RegisterRequest\", \"requestId\": \"r1\", \"promptTokens\": [1, 2, 3, 4, 5, 6, 7, 8]},"
            + "{\"cmd\": \"MatchPrefix\", \"requestId\": \"r1\", \"gpuHitTokens\": 0},"
            + "{\"cmd\": \"AllocateBlocks\", \"requestId\": \"r1\", \"blockIds\": [7, 8], \"externalTokens\": 0},"
            + "{\"cmd\": \"ComputeTokens\", \"requestId\": \"r1\", \"tokens\": 8},"
            + "{\"cmd\": \"AppendTokens\", \"requestId\": \"r1\", \"tokens\": [9]},"
            + "{\"cmd\": \"CompleteTransfer\", \"jobId\": 0, \"success\": true},"
            + "{\"cmd\": \"RejectTokens\", \"requestId\": \"r1\", \"tokens\": 3},"
            + "{\"cmd\": \"PreemptRequest\", \"requestId\": \"r1\"},"
            + "{\"cmd\": \"FinishRequest\", \"requestId\": \"r1\", \"reason\": \"STOPPED\"},"
            + "{\"cmd\": \"AbortRequest\", \"requestId\": \"r1\"},"
            + "{\"cmd\": \"ResetCache\"}]}";

    private static final String ARRAYS = "{\"step\": ["
            + "[\"RegisterRequest\", \"r1\", [1, 2, 3, 4, 5, 6, 7, 8]], [\"MatchPrefix\", \"r1\"],"
            + "[\"AllocateBlocks\", \"r1\", [7, 8], 0], [\"ComputeTokens\", \"r1\", 8], [\"AppendTokens\", \"r1\", [9]],"
            + "[\"CompleteTransfer\", 0], [\"RejectTokens\", \"r1\", 3], [\"PreemptRequest\", \"r1\"],"
            + "[\"FinishRequest\", \"r1\", \"STOPPED\"], [\"AbortRequest\", \"r1\"], [\"ResetCache\"]]}";

    @TempDir
    Path dir;

    @Test
    void arraysAndObjectsGiveTheSameAnswer() throws Exception {
        JsonNode objects = answer(OBJECTS, "o");
        JsonNode arrays = answer(ARRAYS, "a");
        assertEquals(objects, arrays);
        assertTrue(objects.get("events").size() > 10, objects.toString());
        assertTrue(objects.get("rejections").size() > 0, "some of them are rejected, alike: " + objects);
    }

    @Test
    void theRequestControlsFollowThePromptInBothForms() throws Exception {
        String objects = "{\"step\": ["
                + "{\"cmd\": \"RegisterRequest\", \"requestId\": \"c1\", \"promptTokens\": [1, 2, 3, 4], \"maxOffloadTokens\": 4,"
                + " \"maxLoadTokens\": 0, \"skipReadingPrefixCache\": true},"
                + "{\"cmd\": \"RegisterRequest\", \"requestId\": \"c2\", \"promptTokens\": [1], \"maxLoadTokens\": 8},"
                + "{\"cmd\": \"RegisterRequest\", \"requestId\": \"c3\", \"promptTokens\": [1], \"maxOffloadTokens\": -1}]}";
        String arrays = "{\"step\": [[\"RegisterRequest\", \"c1\", [1, 2, 3, 4], 4, 0, true],"
                + " {\"cmd\": \"RegisterRequest\", \"requestId\": \"c2\", \"promptTokens\": [1], \"maxLoadTokens\": 8},"
                + " [\"RegisterRequest\", \"c3\", [1], -1]]}";
        JsonNode answer = answer(arrays, "ca");
        assertEquals(answer(objects, "co"), answer);
        JsonNode registered = answer.get("events").get(0);
        assertEquals(4, registered.get("maxOffloadTokens").intValue(), answer.toString());
        assertEquals(0, registered.get("maxLoadTokens").intValue(), answer.toString());
        assertTrue(registered.get("skipReadingPrefixCache").booleanValue(), answer.toString());
        assertEquals("INVALID_ARGUMENT", answer.get("events").get(2).get("code").textValue(), answer.toString());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "[]                                   | must start with the command's name",
            "[7, \"r1\"]                           | must start with the command's name",
            "[\"Launch\", \"r1\"]                  | unknown cmd \"Launch\"",
            "[\"PreemptRequest\", \"r1\", 3]       | PreemptRequest takes at most 1 values after its name (requestId), was given 2",
    })
    void aBadArrayIsAMalformedCommandNamedByItsIndex(String command, String message) throws Exception {
        JsonNode error = answer("{\"step\": [[\"ResetCache\"], " + command + "]}", "b").get("error");
        assertEquals("MALFORMED_COMMAND", error.get("code").textValue(), error.toString());
        assertEquals(1, error.get("index").intValue());
        assertTrue(error.get("message").textValue().contains(message), error.toString());
    }

    @Test
    void anArrayOfAnUnknownRequestIsRejectedByTheEngineAsAnObjectWouldBe() throws Exception {
        JsonNode answer = answer("{\"step\": [[\"ComputeTokens\", \"r1\", 4]]}", "v");
        JsonNode objects = answer("{\"step\": [{\"cmd\": \"ComputeTokens\", \"requestId\": \"r1\", \"tokens\": 4}]}", "w");
        assertEquals(objects, answer);
        assertEquals("CommandRejected", answer.get("events").get(0).get("type").textValue(), answer.toString());
    }

    private JsonNode answer(String step, String name) throws Exception {
        Path home = Files.createDirectories(dir.resolve(name));
        try (ServerHarness harness = ServerHarness.inMemory(home); UnixClient client = new UnixClient(harness.socket)) {
            client.hello();
            return client.request(step);
        }
    }
}

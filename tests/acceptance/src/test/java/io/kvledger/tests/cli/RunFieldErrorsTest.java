package io.kvledger.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A known command with a bad field is not malformed: it is rejected with INVALID_ARGUMENT in the
 * contract's order of precedence, and the run goes on.
 */
class RunFieldErrorsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void fieldsOfTheWrongTypeAreRejectedWithInvalidArgument() throws IOException {
        List<JsonNode> rejected = rejections("""
                {"cmd": "RegisterRequest", "requestId": "r", "promptTokens": [1, 2, 3, 4]}
                {"cmd": "ComputeTokens", "requestId": "r", "tokens": 4.0}
                {"cmd": "MatchPrefix", "requestId": "r", "gpuHitTokens": null}
                {"cmd": "AllocateBlocks", "requestId": "r"}
                {"cmd": "AllocateBlocks", "requestId": "r", "blockIds": [1, -2]}
                {"cmd": "FinishRequest", "requestId": "r", "reason": "BORED"}
                {"cmd": "AppendTokens", "requestId": "r", "tokens": []}
                {"cmd": "CompleteTransfer", "jobId": "seven"}
                {"cmd": "CompleteTransfer", "jobId": -1}
                {"cmd": "AbortRequest", "requestId": 7}
                """);

        assertEquals(List.of(2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L), rejected.stream().map(r -> r.get("line").asLong()).toList());
        rejected.forEach(r -> assertEquals("INVALID_ARGUMENT", r.get("code").asText(), r.toString()));
        assertEquals("seven", rejected.get(6).get("jobId").asText());
        assertEquals(-1, rejected.get(7).get("jobId").asInt());
        assertEquals(7, rejected.get(8).get("requestId").asInt(), "an integer requestId is repeated as given");
    }

    @Test
    void anUnknownRequestIsNamedBeforeItsBadField() throws IOException {
        List<JsonNode> rejected = rejections("""
                {"cmd": "ComputeTokens", "requestId": "ghost", "tokens": "many"}
                {"cmd": "RegisterRequest", "requestId": "r", "promptTokens": [1]}
                {"cmd": "RegisterRequest", "requestId": "r", "promptTokens": "none"}
                {"cmd": "AbortRequest", "requestId": "r"}
                {"cmd": "ComputeTokens", "requestId": "r", "tokens": 0}
                {"cmd": "ComputeTokens", "requestId": 12, "tokens": 0}
                """);

        assertEquals(List.of("UNKNOWN_REQUEST", "DUPLICATE_REQUEST", "REQUEST_TERMINATED", "INVALID_ARGUMENT"),
                rejected.stream().map(r -> r.get("code").asText()).toList());
        assertEquals("ghost", rejected.get(0).get("requestId").asText());
    }

    @Test
    void unknownExtraFieldsAreIgnored() throws IOException {
        List<JsonNode> rejected = rejections("""
                {"cmd": "RegisterRequest", "requestId": "r", "promptTokens": [1], "priority": "high"}
                """);

        assertEquals(List.of(), rejected);
    }

    private List<JsonNode> rejections(String scenario) throws IOException {
        Path file = dir.resolve("s.jsonl");
        Files.writeString(file, scenario);
        CliRun run = CliRun.of("run", file.toString());
        assertEquals(0, run.exit(), run.stderr());
        List<JsonNode> rejected = new ArrayList<>();
        for (String line : run.stdout()) {
            JsonNode event = JSON.readTree(line);
            if (event.get("type").asText().equals("CommandRejected")) {
                rejected.add(event);
            }
        }
        return rejected;
    }
}

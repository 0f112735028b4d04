package io.kvledger.infrastructure.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Contract revision 6 in the views: {@code replay} prints the log's {@code producer} and a request's controls, {@code explain} its cap. */
class RequestControlsViewsTest {

    private static final String CONFIGURED = "{\"seq\": 1, \"type\": \"EngineConfigured\", \"gpuBlockSize\": 4, \"blocksPerChunk\": 1,"
            + " \"workers\": 1, \"cpuCapacityChunks\": 1024, \"releasePolicy\": \"FENCE\", \"maxOffloadTokens\": null,"
            + " \"offloadPromptOnly\": false";
    private static final String REST = "\n"
            + "{\"seq\": 2, \"type\": \"RequestRegistered\", \"requestId\": \"a\", \"promptLength\": 12,"
            + " \"promptTokens\": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], \"maxOffloadTokens\": 8, \"skipReadingPrefixCache\": true}\n"
            + "{\"seq\": 3, \"type\": \"PrefixMatched\", \"requestId\": \"a\", \"gpuHitTokens\": 0, \"externalTokens\": 0, \"hitChunks\": []}\n"
            + "{\"seq\": 4, \"type\": \"BlocksAllocated\", \"requestId\": \"a\", \"blockIds\": [1, 2, 3], \"externalTokens\": 0}\n"
            + "{\"seq\": 5, \"type\": \"TokensComputed\", \"requestId\": \"a\", \"numComputedTokens\": 12}\n"
            + "{\"seq\": 6, \"type\": \"StoreJobScheduled\", \"jobId\": 0, \"requestId\": \"a\", \"chunkIndices\": [0, 1],"
            + " \"keys\": [\"k0\", \"k1\"], \"blockIds\": [1, 2]}\n";

    @TempDir
    Path dir;

    @Test
    void replayPrintsTheProducerAndARequestsControlsOnlyWhenTheLogGivesThem() throws Exception {
        Path named = log("named.jsonl", CONFIGURED + ", \"producer\": \"kvledger_capture 0.6 / vLLM 0.28.0\"}" + REST);
        Path unnamed = log("unnamed.jsonl", CONFIGURED + "}" + REST);

        String state = run("replay", named.toString());
        assertTrue(state.contains("\nproducer  kvledger_capture 0.6 / vLLM 0.28.0\n"), state);
        assertFalse(run("replay", unnamed.toString()).contains("producer"));
        assertTrue(run("replay", "--json", named.toString()).contains("\"producer\" : \"kvledger_capture 0.6 / vLLM 0.28.0\""));
        assertFalse(run("replay", "--json", unnamed.toString()).contains("producer"));

        String request = run("replay", "--request", "a", unnamed.toString());
        assertTrue(request.contains("\ncontrols  maxOffloadTokens=8, skipReadingPrefixCache=true\n"), request);
        assertTrue(request.contains("bound     O=8 = min(c=12, n=12, the request's maxOffloadTokens=8)"), request);
        String json = run("replay", "--request", "a", "--json", unnamed.toString());
        assertTrue(json.replaceAll("\\s+", " ").contains("\"controls\" : { \"maxOffloadTokens\" : 8, \"skipReadingPrefixCache\" : true }"), json);

        String explained = run("explain", unnamed.toString(), "--job", "0");
        assertTrue(explained.contains("the request's maxOffloadTokens  8   <- the least"), explained);
    }

    @Test
    void aRequestWithoutControlsShowsNone() throws Exception {
        Path plain = log("plain.jsonl", CONFIGURED + "}" + REST.replace(", \"maxOffloadTokens\": 8, \"skipReadingPrefixCache\": true", ""));
        String request = run("replay", "--request", "a", plain.toString());
        assertFalse(request.contains("controls"), request);
        assertTrue(request.contains("bound     O=12 = min(c=12, n=12)"), request);
        assertFalse(run("replay", "--request", "a", "--json", plain.toString()).contains("controls"));
        assertFalse(run("explain", plain.toString(), "--job", "0").contains("the request's"));
    }

    private Path log(String name, String text) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    private static String run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8), args);
        assertEquals(0, exit, String.join(" ", args) + ": " + err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }
}

package io.kvledger.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Bad input to replay, audit and explain: a message on stderr naming the file and the line, and exit 2. */
class LogToolsBadInputTest {

    private static final String CONFIGURED = "{\"seq\": 1, \"type\": \"EngineConfigured\", \"gpuBlockSize\": 16, "
            + "\"blocksPerChunk\": 1, \"workers\": 1, \"cpuCapacityChunks\": 1024, \"releasePolicy\": \"FENCE\", "
            + "\"maxOffloadTokens\": null, \"offloadPromptOnly\": false}\n";
    private static final String REGISTERED = "{\"seq\": 2, \"type\": \"RequestRegistered\", \"requestId\": \"r\", "
            + "\"promptLength\": 2, \"promptTokens\": [1, 2]}\n";

    @TempDir
    Path dir;

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (String tool : List.of("replay", "audit", "explain")) {
            cases.add(Arguments.of(tool, "malformed JSON", CONFIGURED + "{\"seq\": 2, \"type\": \n", "line 2: not valid JSON"));
            cases.add(Arguments.of(tool, "not an object", CONFIGURED + "[2]\n", "line 2: not a JSON object"));
            cases.add(Arguments.of(tool, "no seq", CONFIGURED + "{\"type\": \"ResetCache\"}\n", "line 2: seq is missing"));
            cases.add(Arguments.of(tool, "no type", CONFIGURED + "{\"seq\": 2}\n", "line 2: type is missing"));
            cases.add(Arguments.of(tool, "a required field missing", CONFIGURED + "{\"seq\": 2, \"type\": \"RequestAborted\"}\n",
                    "line 2: RequestAborted.requestId is missing"));
            cases.add(Arguments.of(tool, "a required field mistyped", CONFIGURED + REGISTERED
                    + "{\"seq\": 3, \"type\": \"TokensComputed\", \"requestId\": \"r\", \"numComputedTokens\": 4.0}\n",
                    "line 3: TokensComputed.numComputedTokens must be"));
            cases.add(Arguments.of(tool, "seq not increasing", CONFIGURED + REGISTERED.replace("\"seq\": 2", "\"seq\": 1"),
                    "line 2: seq 1 does not increase"));
            cases.add(Arguments.of(tool, "first event not EngineConfigured", REGISTERED,
                    "line 1: the first event must be EngineConfigured, was RequestRegistered"));
            cases.add(Arguments.of(tool, "an empty file", "", "the log is empty"));
            cases.add(Arguments.of(tool, "blank lines only", "\n  \n", "the log is empty"));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void badInputIsNamedWithItsLineAndExitsWithTwo(String tool, String what, String log, String message) throws IOException {
        Path file = write(log.getBytes(StandardCharsets.UTF_8));

        CliRun run = CliRun.of(args(tool, file));

        assertEquals(2, run.exit(), what + ": " + run.stderr());
        assertTrue(run.stderr().contains("kvledger: " + file + ": " + message), what + ": " + run.stderr());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tools")
    void invalidUtf8IsNamedWithItsLine(String tool) throws IOException {
        byte[] bad = {'{', '"', 's', 'e', 'q', '"', ':', '2', ',', '"', 't', 'y', 'p', 'e', '"', ':', '"', (byte) 0xC3, 0x28, '"', '}', '\n'};
        Path file = write(concat(CONFIGURED.getBytes(StandardCharsets.UTF_8), bad));

        CliRun run = CliRun.of(args(tool, file));

        assertEquals(2, run.exit());
        assertTrue(run.stderr().contains("line 2: not valid UTF-8"), run.stderr());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tools")
    void aMissingFileExitsWithTwo(String tool) {
        CliRun run = CliRun.of(args(tool, dir.resolve("absent.jsonl")));

        assertEquals(2, run.exit());
        assertTrue(run.stderr().contains("absent.jsonl: no such file"), run.stderr());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tools")
    void unknownTypesAndExtraFieldsAreAccepted(String tool) throws IOException {
        // A log that keeps the rules (a whole chunk computed and stored), with fields and a type of another producer's.
        String tokens = "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]";
        Path file = write((CONFIGURED
                + "{\"seq\": 2, \"type\": \"RequestRegistered\", \"requestId\": \"r\", \"promptLength\": 16, "
                + "\"promptTokens\": " + tokens + ", \"arrivalTime\": 1.5}\n"
                + "{\"seq\": 3, \"type\": \"BlocksAllocated\", \"requestId\": \"r\", \"blockIds\": [4], \"externalTokens\": 0}\n"
                + "{\"seq\": 7, \"type\": \"SchedulerStepFinished\", \"step\": 3}\n"
                + "{\"seq\": 8, \"type\": \"TokensComputed\", \"requestId\": \"r\", \"numComputedTokens\": 16}\n"
                + "{\"seq\": 9, \"type\": \"StoreJobScheduled\", \"jobId\": 0, \"requestId\": \"r\", \"chunkIndices\": [0], "
                + "\"keys\": [\"k-0\"], \"blockIds\": [4], \"note\": \"first chunk\"}\n").getBytes(StandardCharsets.UTF_8));

        CliRun run = CliRun.of(args(tool, file));

        assertEquals(0, run.exit(), run.stderr());
        assertEquals("", run.stderr());
    }

    @Test
    void auditListsTheViolationsBeforeAMalformedLine() throws Exception {
        Path corpus = LogFixtures.resource("/foreign-logs/vllm_abort_queued_crash_state.jsonl");
        Path file = write((Files.readString(corpus) + "{\"seq\": 6, \"type\": 1}\n").getBytes(StandardCharsets.UTF_8));

        CliRun run = CliRun.of("audit", file.toString());

        assertEquals(2, run.exit());
        assertEquals(3, run.stdout().size(), run.stdout().toString());
        assertTrue(run.stderr().contains("line 6: type must be a string"), run.stderr());
    }

    static Stream<String> tools() {
        return Stream.of("replay", "audit", "explain");
    }

    private static String[] args(String tool, Path file) {
        return tool.equals("explain") ? new String[] {tool, file.toString(), "--job", "0"} : new String[] {tool, file.toString()};
    }

    private Path write(byte[] bytes) throws IOException {
        Path file = Files.createTempFile(dir, "log", ".jsonl");
        Files.write(file, bytes);
        return file;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = new byte[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}

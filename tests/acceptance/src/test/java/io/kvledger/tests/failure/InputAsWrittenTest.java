package io.kvledger.tests.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31: a number is shown as the input wrote it; an empty request id is refused (a command's with
 * INVALID_ARGUMENT, a log's as malformed); a field a command does not know is ignored as the contract says,
 * but named once on stderr with the known field it likely misspells; {@code trace --request} of a request
 * the log never names says so.
 */
class InputAsWrittenTest {

    private static final String CONFIGURED = MessagesTest.CONFIGURED;

    @TempDir
    Path dir;

    @Test
    void aNumberInAScenarioIsShownAsWritten() throws Exception {
        Path scenario = Files.writeString(dir.resolve("s.jsonl"), """
                {"cmd": "RegisterRequest", "requestId": "r", "promptTokens": [1, 2, 3, 4]}
                {"cmd": "ComputeTokens", "requestId": "r", "tokens": 4.0}
                {"cmd": "ComputeTokens", "requestId": "r", "tokens": 4e0}
                {"cmd": "ComputeTokens", "requestId": "r", "tokens": 4.50}
                {"cmd": "AllocateBlocks", "requestId": "r", "blockIds": [1, 2.000]}
                """);

        Kvledger.Result run = Kvledger.inProcess("run", scenario.toString());

        assertEquals(0, run.exit(), run.toString());
        assertTrue(run.stdout().contains("tokens must be an integer (without a fraction or exponent), was 4.0\""), run.stdout());
        assertTrue(run.stdout().contains("tokens must be an integer (without a fraction or exponent), was 4e0\""), run.stdout());
        assertTrue(run.stdout().contains("tokens must be an integer, was 4.50\""), run.stdout());
        assertTrue(run.stdout().contains("blockIds[1] must be an integer (without a fraction or exponent), was 2.000\""), run.stdout());
    }

    @Test
    void aNumberInAConfigOrALogOrAnOptionIsShownAsWritten() throws Exception {
        Path config = Files.writeString(dir.resolve("c.jsonl"), "{\"config\": {\"gpuBlockSize\": 16.0}}\n");
        Path log = Files.writeString(dir.resolve("l.jsonl"), CONFIGURED + "\n{\"seq\": 2.0, \"type\": \"CacheReset\", \"staleBelowJobId\": 0}\n");
        Path field = Files.writeString(dir.resolve("f.jsonl"), CONFIGURED + "\n{\"seq\": 2, \"type\": \"CacheReset\", \"staleBelowJobId\": 1.50}\n");

        Kvledger.Result run = Kvledger.inProcess("run", config.toString());
        assertEquals(2, run.exit(), run.toString());
        assertTrue(run.stderr().contains("line 1: config field gpuBlockSize must be an integer (without a fraction or exponent), was 16.0"),
                run.stderr());
        for (String tool : List.of("audit", "replay")) {
            Kvledger.Result seq = Kvledger.inProcess(tool, log.toString());
            assertEquals(2, seq.exit(), seq.toString());
            assertTrue(seq.stderr().contains("line 2: seq must be an integer (without a fraction or exponent), was 2.0"), seq.stderr());
            Kvledger.Result stale = Kvledger.inProcess(tool, field.toString());
            assertTrue(stale.stderr().contains("line 2: CacheReset.staleBelowJobId must be an integer, was 1.50"), stale.stderr());
        }
        Kvledger.Result groups = Kvledger.inProcess("simulate", "--requests", "1", "--groups", "[{\"kind\": \"FULL\", \"blockSize\": 1e1}]");
        assertEquals(2, groups.exit(), groups.toString());
        assertTrue(groups.stderr().contains("--groups: config field groups[0].blockSize must be an integer (without a fraction or"
                + " exponent), was 1e1"), groups.stderr());
    }

    @Test
    void anEmptyRequestIdInAScenarioIsRejectedAndOutputsNeverReadRequestColonNothing() throws Exception {
        Path scenario = Files.writeString(dir.resolve("s.jsonl"), """
                {"cmd": "RegisterRequest", "requestId": "", "promptTokens": [1, 2, 3, 4]}
                {"cmd": "AbortRequest", "requestId": ""}
                """);

        Kvledger.Result run = Kvledger.inProcess("run", scenario.toString());

        assertEquals(0, run.exit(), run.toString());
        List<String> lines = run.lines();
        assertEquals(3, lines.size(), run.stdout());
        for (String line : lines.subList(1, 3)) {
            assertTrue(line.contains("\"code\": \"INVALID_ARGUMENT\", \"message\": \"requestId must not be empty\""), line);
        }
    }

    @Test
    void anEmptyRequestIdInALogIsMalformed() throws Exception {
        Path log = Files.writeString(dir.resolve("l.jsonl"), CONFIGURED + "\n"
                + "{\"seq\": 2, \"type\": \"RequestRegistered\", \"requestId\": \"\", \"promptLength\": 1, \"promptTokens\": [1]}\n");

        for (List<String> tool : List.of(List.of("audit"), List.of("replay"), List.of("trace", "-o", dir.resolve("t.json").toString()))) {
            List<String> args = new java.util.ArrayList<>(tool);
            args.add(1, log.toString());
            Kvledger.Result result = Kvledger.inProcess(args.toArray(String[]::new));
            assertEquals(2, result.exit(), tool + ": " + result);
            assertTrue(result.stderr().contains("line 2: RequestRegistered.requestId must be a non-empty string, was \"\""),
                    tool + ": " + result.stderr());
        }
    }

    @Test
    void anUnknownFieldIsNamedOnceWithTheFieldItLikelyMisspellsAndChangesNoOutput() throws Exception {
        String commands = """
                {"cmd": "RegisterRequest", "requestId": "r", "promptTokens": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]}
                {"cmd": "MatchPrefix", "requestId": "r"}
                {"cmd": "AllocateBlocks", "requestId": "r", "blockIds": [1]}
                {"cmd": "ComputeTokens", "requestId": "r", "tokens": 16}
                {"cmd": "CompleteTransfer", "jobId": 0%s}
                {"cmd": "AbortRequest", "requestId": "r"%s}
                """;
        Path plain = Files.writeString(dir.resolve("plain.jsonl"), commands.formatted("", ""));
        Path misspelt = Files.writeString(dir.resolve("misspelt.jsonl"),
                commands.formatted(", \"sucess\": false", ", \"sucess\": false, \"RequestID\": \"x\", \"priority\": 3"));

        Kvledger.Result expected = Kvledger.child(dir, "run", plain.toString());
        Kvledger.Result warned = Kvledger.child(dir, "run", misspelt.toString());

        assertEquals(0, warned.exit(), warned.toString());
        assertEquals(expected.stdout(), warned.stdout(), "an unknown field changes no event");
        assertEquals("", expected.stderr());
        assertEquals(List.of(
                "kvledger: " + misspelt + ": line 5: CompleteTransfer has no field \"sucess\" (ignored; did you mean \"success\"?)",
                "kvledger: " + misspelt + ": line 6: AbortRequest has no field \"RequestID\" (ignored; did you mean \"requestId\"?)",
                "kvledger: " + misspelt + ": line 6: AbortRequest has no field \"priority\" (ignored)"),
                warned.stderr().lines().toList(), "once per field name, at its first line");
    }

    @Test
    void traceOfARequestTheLogNeverNamesSaysSoAndExitsTwo() throws Exception {
        Path log = dir.resolve("l.jsonl");
        assertEquals(0, Kvledger.inProcess("run", Examples.prefillDecode(), "-o", log.toString()).exit());
        Path trace = dir.resolve("t.json");

        Kvledger.Result nobody = Kvledger.child(dir, "trace", log.toString(), "--request", "nobody", "-o", trace.toString());
        Kvledger.Result known = Kvledger.child(dir, "trace", log.toString(), "--request", "r", "-o", trace.toString());

        assertEquals(2, nobody.exit(), nobody.toString());
        assertEquals("kvledger: --request nobody: no event of " + log + " names this request (it is never registered there);"
                + " nothing traced\n", nobody.stderr());
        assertEquals(0, known.exit(), known.toString());
        assertTrue(Files.size(trace) > 0);
        assertFalse(known.stderr().contains("no event"), known.stderr());
    }
}

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
 * Issue 10, item 7: every message says what happened in the user's words. The event-log reader's
 * messages are pinned at the command line, so they hold for any reader behind it (issue 9's streaming
 * parser keeps these tests passing).
 */
class MessagesTest {

    static final String CONFIGURED = "{\"seq\": 1, \"type\": \"EngineConfigured\", \"gpuBlockSize\": 16, "
            + "\"blocksPerChunk\": 1, \"workers\": 1, \"cpuCapacityChunks\": 1024, \"releasePolicy\": \"FENCE\", "
            + "\"maxOffloadTokens\": null, \"offloadPromptOnly\": false}";

    @TempDir
    Path dir;

    @Test
    void outputIntoAMissingDirectoryCreatesItAsTheStoreDoes() throws Exception {
        Path output = dir.resolve("missing/deeper/events.jsonl");
        Path store = dir.resolve("other/missing/store.jsonl");

        Kvledger.Result run = Kvledger.inProcess("run", Examples.prefillDecode(), "-o", output.toString(), "--store", store.toString());

        assertEquals(0, run.exit(), run.toString());
        assertTrue(Files.size(output) > 0);
        assertTrue(Files.size(store) > 0);
    }

    @Test
    void hugeNumbersAreOutOfRangeAsWrittenNotInfinity() throws Exception {
        Kvledger.Result exponent = log("{\"seq\": 1e400, \"type\": \"EngineConfigured\"}");
        Kvledger.Result twoTo63 = log("{\"seq\": 9223372036854775808, \"type\": \"EngineConfigured\"}");
        Kvledger.Result field = log(CONFIGURED + "\n{\"seq\": 2, \"type\": \"CacheReset\", \"staleBelowJobId\": 9223372036854775808}");
        Path scenario = Files.writeString(dir.resolve("s.jsonl"),
                "{\"cmd\": \"RegisterRequest\", \"requestId\": \"r\", \"promptTokens\": [1]}\n{\"cmd\": \"ComputeTokens\", \"requestId\": \"r\", \"tokens\": 1e400}\n"
                + "{\"cmd\": \"CompleteTransfer\", \"jobId\": 9223372036854775808}\n");
        Kvledger.Result run = Kvledger.inProcess("run", scenario.toString());

        assertTrue(exponent.stderr().contains("line 1: seq must be an integer (without a fraction or exponent), was 1e400"),
                exponent.stderr());
        assertTrue(twoTo63.stderr().contains("line 1: seq is out of range (1 to 9223372036854775807), was 9223372036854775808"),
                twoTo63.stderr());
        assertTrue(field.stderr().contains("line 2: CacheReset.staleBelowJobId is out of range"), field.stderr());
        assertFalse(run.stdout().contains("Infinity"), run.stdout());
        assertTrue(run.stdout().contains("tokens must be an integer (without a fraction or exponent), was 1e400"), run.stdout());
        assertTrue(run.stdout().contains("jobId is out of range"), run.stdout());
    }

    @Test
    void theParsersInternalsDoNotLeakAndALimitIsNotCalledInvalidJson() throws Exception {
        Kvledger.Result longNumber = log(CONFIGURED + "\n{\"seq\": 2, \"type\": \"X\", \"n\": " + "9".repeat(1200) + "}");
        Kvledger.Result trailing = log(CONFIGURED + " {\"seq\": 2}");
        Kvledger.Result deep = log(CONFIGURED + "\n{\"seq\": 2, \"type\": \"X\", \"n\": " + "[".repeat(1500) + "]".repeat(1500) + "}");

        for (Kvledger.Result result : List.of(longNumber, trailing, deep)) {
            assertEquals(2, result.exit(), result.toString());
            assertTrue(result.quiet(), result.stderr());
        }
        assertTrue(longNumber.stderr().contains("line 2: valid JSON perhaps, but over the reader's limit"), longNumber.stderr());
        assertTrue(deep.stderr().contains("line 2: valid JSON perhaps, but over the reader's limit"), deep.stderr());
        assertTrue(trailing.stderr().contains("line 1: more than one JSON value on the line"), trailing.stderr());
    }

    @Test
    void seqZeroOnTheFirstLineSaysWhatSeqMustBe() throws Exception {
        Kvledger.Result result = log(CONFIGURED.replace("\"seq\": 1", "\"seq\": 0"));

        assertTrue(result.stderr().contains("line 1: seq must be 1 or more (the event's 1-based position), was 0"), result.stderr());
        assertFalse(result.stderr().contains("the line before"), result.stderr());
    }

    @Test
    void crOnlyLineEndsAreNamed() throws Exception {
        Kvledger.Result result = log(CONFIGURED + "\r{\"seq\": 2, \"type\": \"CacheReset\", \"staleBelowJobId\": 0}\r");
        Path scenario = Files.writeString(dir.resolve("cr.jsonl"), "{\"cmd\": \"ResetCache\"}\r{\"cmd\": \"ResetCache\"}\r");
        Kvledger.Result run = Kvledger.inProcess("run", scenario.toString());

        assertTrue(result.stderr().contains("line 1: holds a carriage return (CR) that ends no line"), result.stderr());
        assertEquals(2, run.exit());
        assertTrue(run.stderr().contains("line 1: holds a carriage return (CR) that ends no line"), run.stderr());
    }

    @Test
    void theConfigMismatchAndAcknowledgementMessagesRead() throws Exception {
        Path store = dir.resolve("s.jsonl");
        Kvledger.inProcess("run", Examples.prefillDecode(), "--store", store.toString());
        Kvledger.Result mismatch = Kvledger.inProcess("run", Examples.chunkedPrefill(), "--store", store.toString());
        Path log = Files.writeString(dir.resolve("ack.jsonl"), CONFIGURED.replace("\"workers\": 1", "\"workers\": 2") + "\n"
                + "{\"seq\": 2, \"type\": \"TransferAcknowledged\", \"jobId\": 5, \"requestId\": \"r\", \"success\": true}\n");
        Kvledger.Result audit = Kvledger.inProcess("audit", log.toString());

        assertTrue(mismatch.stderr().contains("the stored engine \"engine\" is configured with"), mismatch.stderr());
        assertFalse(mismatch.stderr().contains("EngineConfig["), mismatch.stderr());
        assertFalse(audit.stdout().contains(" a acknowledgement"), audit.stdout());
        assertTrue(audit.stdout().contains("gets an acknowledgement"), audit.stdout());
    }

    @Test
    void anUnknownRequestsTimelineSaysSoInsteadOfAnEmptyTable() throws Exception {
        Path log = dir.resolve("log.jsonl");
        Kvledger.inProcess("run", Examples.prefillDecode(), "-o", log.toString());

        Kvledger.Result result = Kvledger.inProcess("replay", log.toString(), "--request", "UNKNOWN", "--timeline");

        assertEquals(0, result.exit(), result.toString());
        assertEquals(List.of("request UNKNOWN has no event in " + log + " (it is never registered there)"), result.lines());
    }

    @Test
    void theCommandListNamesEveryCommand() {
        Kvledger.Result result = Kvledger.inProcess();

        assertEquals(2, result.exit());
        String list = result.stderr().substring(result.stderr().indexOf("a command is required (") + 23);
        list = list.substring(0, list.indexOf(')'));
        assertEquals(java.util.Set.copyOf(new picocli.CommandLine(new io.kvledger.infrastructure.cli.KvLedgerCli()).getSubcommands()
                .keySet().stream().filter(name -> !name.equals("help")).toList()), java.util.Set.of(list.split(", ")), result.stderr());
        assertTrue(list.startsWith("run, replay, audit, explain, simulate, shrink"), result.stderr());
    }

    private Kvledger.Result log(String text) throws Exception {
        Path file = Files.writeString(Files.createTempFile(dir, "log", ".jsonl"), text + "\n");
        Kvledger.Result result = Kvledger.inProcess("replay", file.toString());
        assertEquals(2, result.exit(), result.toString());
        return result;
    }
}

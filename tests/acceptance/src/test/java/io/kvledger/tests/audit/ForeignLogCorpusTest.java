package io.kvledger.tests.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.infrastructure.cli.KvLedgerCli;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code kvledger audit} on logs written as another implementation would write them: each must give
 * exactly the violations of its {@code .expect} file, at those seqs, and the clean ones none.
 */
class ForeignLogCorpusTest {

    static Stream<Path> logs() throws IOException, URISyntaxException {
        Path corpus = Path.of(ForeignLogCorpusTest.class.getResource("/foreign-logs").toURI());
        return Files.list(corpus).filter(p -> p.toString().endsWith(".jsonl")).sorted();
    }

    @Test
    void theCorpusHoldsEveryContractCodeAndCleanLogs() throws Exception {
        List<String> expected = logs().flatMap(ForeignLogCorpusTest::expectedLines).toList();
        for (String code : List.of("STORE_SLICE_MISMATCH", "STORE_BEYOND_BOUND", "STORE_BEYOND_ALLOCATED", "DUPLICATE_STORE",
                "RELEASE_WHILE_IN_FLIGHT", "REUSE_WITHOUT_FLUSH", "TIER_OVER_CAPACITY", "UNKNOWN_JOB", "JOB_COMPLETED_TWICE")) {
            assertTrue(expected.stream().anyMatch(line -> line.contains(" " + code + " ")), code + " is not in the corpus");
        }
        assertTrue(logs().filter(log -> expectedLines(log).findAny().isEmpty()).count() >= 2, "clean foreign logs");
    }

    @Test
    void theCorpusHoldsEveryGroupedCodeAndCleanGroupedLogs() throws Exception {
        List<String> grouped = logs().filter(log -> log.getFileName().toString().contains("grouped"))
                .flatMap(ForeignLogCorpusTest::expectedLines).toList();
        for (String code : List.of("WINDOW_FREE_MISMATCH", "BLOCK_STILL_HELD", "NULL_ENTRY_MISMATCH", "STORE_NOT_OFFERED",
                "STORE_SLICE_MISMATCH", "STORE_BEYOND_BOUND", "STORE_BEYOND_ALLOCATED", "STORE_MISSING", "KEY_MISMATCH",
                "MATCH_MISMATCH", "LOAD_MISMATCH", "RELEASE_MISMATCH", "REUSE_WITHOUT_FLUSH", "STATE_MISMATCH", "STORE_DEFERRED_MISMATCH")) {
            assertTrue(grouped.stream().anyMatch(line -> line.contains(" " + code + " ")), code + " is not in the grouped corpus");
        }
        assertTrue(logs().filter(log -> log.getFileName().toString().startsWith("clean_grouped"))
                .filter(log -> expectedLines(log).findAny().isEmpty()).count() >= 2, "clean grouped foreign logs");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("logs")
    void auditFindsExactlyTheExpectedViolations(Path log) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8), "audit", log.toString());

        List<String> printed = lines(out.toString(StandardCharsets.UTF_8));
        List<String> expected = expectedLines(log).toList();
        assertEquals(expected, printed.stream().map(ForeignLogCorpusTest::withoutReason).toList(), String.join("\n", printed));
        assertEquals(expected.isEmpty() ? 0 : 1, exit, err.toString(StandardCharsets.UTF_8));
        for (String line : printed) {
            assertFalse(line.substring(line.indexOf(": ") + 2).isBlank(), "a reason: " + line);
        }
    }

    private static String withoutReason(String line) {
        int colon = line.indexOf(": ");
        return colon < 0 ? line : line.substring(0, colon);
    }

    private static Stream<String> expectedLines(Path log) {
        try {
            Path expect = log.resolveSibling(log.getFileName().toString().replace(".jsonl", ".expect"));
            return Files.readAllLines(expect).stream().filter(line -> !line.isBlank());
        } catch (IOException e) {
            throw new IllegalStateException("every corpus log needs a .expect file: " + log, e);
        }
    }

    private static List<String> lines(String text) {
        return text.isEmpty() ? List.of() : Arrays.asList(text.split("\n"));
    }
}

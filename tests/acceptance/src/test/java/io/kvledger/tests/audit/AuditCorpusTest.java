package io.kvledger.tests.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.audit.AuditCode;
import io.kvledger.infrastructure.cli.KvLedgerCli;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The audit's own corpus ({@code audit-corpus/}): for every code of contract section 5, a hand-made log
 * (a clean kvledger log with one fault planted) that gives exactly that one finding, at its seq. Each is
 * also audited as another producer writes it (other keys, other job ids, fields of its own on every line,
 * an event type kvledger does not know), and must give the same finding.
 */
class AuditCorpusTest {

    /** Where the producer's unknown event goes: after the first registration, before any fault. */
    private static final long UNKNOWN_AFTER = 2;

    @TempDir
    Path dir;

    static Stream<Path> logs() throws IOException, URISyntaxException {
        Path corpus = Path.of(AuditCorpusTest.class.getResource("/audit-corpus").toURI());
        return Files.list(corpus).filter(p -> p.toString().endsWith(".jsonl")).sorted();
    }

    @Test
    void everyAuditCodeIsTriggeredByALogOfTheCorpusOnItsOwn() throws Exception {
        Set<AuditCode> alone = EnumSet.noneOf(AuditCode.class);
        for (Path log : logs().toList()) {
            List<String> expected = expected(log);
            assertEquals(1, expected.size(), log + " gives exactly one finding");
            alone.add(AuditCode.valueOf(expected.get(0).split(" ")[2]));
        }
        assertEquals(EnumSet.allOf(AuditCode.class), alone, "codes no log of the corpus triggers alone");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("logs")
    void theNativeLogGivesExactlyItsFinding(Path log) throws Exception {
        assertAudit(log, expected(log));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("logs")
    void theLogAsAnotherProducerWritesItGivesTheSameFinding(Path log) throws Exception {
        Path foreign = dir.resolve("foreign-" + log.getFileName());
        Files.writeString(foreign, ForeignRewrite.rewriteAsProducer(LogRun.read(log), UNKNOWN_AFTER));
        List<String> expected = expected(log).stream().map(AuditCorpusTest::shifted).toList();

        assertAudit(foreign, expected);
    }

    private static void assertAudit(Path log, List<String> expected) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8), "audit", log.toString());
        String printed = out.toString(StandardCharsets.UTF_8);
        List<String> lines = printed.isEmpty() ? List.of() : Arrays.asList(printed.split("\n"));
        assertEquals(expected, lines.stream().map(line -> line.substring(0, line.indexOf(": "))).toList(), printed + err);
        assertEquals(1, exit, err.toString(StandardCharsets.UTF_8));
        for (String line : lines) {
            assertTrue(line.substring(line.indexOf(": ") + 2).length() > 20, "a reason that says what and why: " + line);
        }
    }

    /** The seq of a finding once the producer's unknown event is in the log. */
    private static String shifted(String line) {
        String[] words = line.split(" ", 3);
        long seq = Long.parseLong(words[1]);
        return "seq " + (seq > UNKNOWN_AFTER ? seq + 1 : seq) + " " + words[2];
    }

    private static List<String> expected(Path log) throws IOException {
        Path expect = log.resolveSibling(log.getFileName().toString().replace(".jsonl", ".expect"));
        return Files.readAllLines(expect).stream().filter(line -> !line.isBlank()).toList();
    }
}

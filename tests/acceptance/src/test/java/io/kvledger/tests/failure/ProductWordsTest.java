package io.kvledger.tests.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23's smaller ones: every malformed line and bad option is answered in the product's own words
 * (line and column, what was expected), never with a parser's, a feature's or an exception's name;
 * every reader gives one verdict on the same bytes; every bad option exits 2.
 */
class ProductWordsTest {

    /** What must never reach a user: the parser's and the JVM's vocabulary. */
    private static final List<String> INTERNALS = List.of("Source:", "REDACTED", "ALLOW_", "Feature", "Exception",
            "For input string", "(code ", "java.", "com.fasterxml", "StreamRead", "JsonRead", "JsonToken", "Jackson");

    private static final String CONFIGURED = "{\"seq\": 1, \"type\": \"EngineConfigured\", \"gpuBlockSize\": 16, "
            + "\"blocksPerChunk\": 1, \"workers\": 1, \"cpuCapacityChunks\": 1024, \"releasePolicy\": \"FENCE\", "
            + "\"maxOffloadTokens\": null, \"offloadPromptOnly\": false}\n";

    @TempDir
    Path dir;

    @Test
    void everyMalformedLineIsNamedInTheProductsWords() throws Exception {
        List<String> malformed = List.of("{\"cmd\": NaN}", "{\"cmd\": Infinity}", "{\"cmd\": -Infinity}", "// a comment",
                "/* a comment */ {}", "{\"cmd\": ockIds}", "{\"cmd\": \"ResetCache\"", "{\"cmd\" \"ResetCache\"}",
                "{'cmd': 'ResetCache'}", "{\"cmd\": \"ResetCache\",}", "{\"cmd\": 01}", "{\"cmd\": \"\\u12\"}",
                "{\"cmd\": \"a\tb\"}", "[1, 2", "{\"cmd\": tru}", "{\"cmd\": \"ResetCache\"} x", "{,}", "{\"a\":1 \"b\":2}",
                "\u0000", "{\"cmd\": .5}", "{\"cmd\": +1}", "{\"cmd\": 0x10}");
        int i = 0;
        for (String line : malformed) {
            Path scenario = Files.writeString(dir.resolve("s" + i + ".jsonl"), "{\"cmd\": \"ResetCache\"}\n" + line + "\n",
                    StandardCharsets.UTF_8);
            assertWords(Kvledger.inProcess("run", scenario.toString(), "-o", dir.resolve("o" + i).toString()), 2, line);
            Path log = Files.writeString(dir.resolve("l" + i + ".jsonl"), CONFIGURED + line + "\n", StandardCharsets.UTF_8);
            for (String tool : List.of("replay", "audit")) {
                assertWords(Kvledger.inProcess(tool, log.toString()), 2, tool + " " + line);
            }
            assertWords(Kvledger.inProcess("explain", log.toString(), "--job", "0"), 2, "explain " + line);
            i++;
        }
    }

    @Test
    void everyBadOptionExitsTwoInTheProductsWords() throws Exception {
        Path scenario = Files.writeString(dir.resolve("s.jsonl"), "{\"cmd\": \"ResetCache\"}\n");
        Path log = Files.writeString(dir.resolve("l.jsonl"), CONFIGURED);
        List<String[]> bad = new ArrayList<>();
        bad.add(new String[] {"run", scenario.toString(), "--store", dir.resolve("x.jsonl").toString(), "--fsync", "bad"});
        bad.add(new String[] {"run", scenario.toString(), "--store", dir.resolve("x.jsonl").toString(), "--fsync", "interval:abc"});
        bad.add(new String[] {"run", scenario.toString(), "--store", "file:" + dir.resolve("d") + "/?segmentBytes=abc"});
        bad.add(new String[] {"explain", log.toString(), "--job", "-1"});
        bad.add(new String[] {"explain", log.toString(), "--job", "abc"});
        bad.add(new String[] {"run", scenario.toString(), "-o", "/etc/passwd/x"});
        bad.add(new String[] {"run", scenario.toString(), "-o", "/proc/version"});
        for (String[] args : bad) {
            Kvledger.Result result = Kvledger.inProcess(args);
            assertWords(result, 2, String.join(" ", args));
        }
        Kvledger.Result passwd = Kvledger.inProcess("run", scenario.toString(), "-o", "/etc/passwd/x");
        assertTrue(passwd.stderr().contains("/etc/passwd is not a directory"), passwd.stderr());
        Kvledger.Result proc = Kvledger.inProcess("run", scenario.toString(), "-o", "/proc/version");
        assertFalse(proc.stderr().contains("no such file"), proc.stderr());
        assertTrue(proc.stderr().contains("takes no new files"), proc.stderr());
    }

    @Test
    void explainGivesTheVerdictOfEveryOtherReaderOnATornLog() throws Exception {
        Path log = dir.resolve("torn.jsonl");
        assertEquals(0, Kvledger.inProcess("run", Examples.prefillDecode(), "-o", log.toString()).exit());
        assertEquals(0, Kvledger.inProcess("explain", log.toString(), "--job", "0").exit(), "job 0 is in the whole log");
        Files.writeString(log, "{\"seq\": 99, \"type\": \"TokensComp", java.nio.file.StandardOpenOption.APPEND);
        for (String[] reader : new String[][] {{"audit"}, {"replay"}, {"trace"}, {"explain", "--job", "0"}}) {
            List<String> args = new ArrayList<>(List.of(reader[0], log.toString()));
            args.addAll(List.of(reader).subList(1, reader.length));
            Kvledger.Result result = Kvledger.inProcess(args.toArray(String[]::new));
            assertEquals(2, result.exit(), String.join(" ", args) + ": " + result);
        }
    }

    private static void assertWords(Kvledger.Result result, int exit, String what) {
        assertEquals(exit, result.exit(), what + ": " + result);
        for (String internal : INTERNALS) {
            assertFalse(result.stderr().contains(internal), what + ": '" + internal + "' in " + result.stderr());
        }
        if (result.stderr().contains("not valid JSON")) {
            assertTrue(result.stderr().contains("at column"), what + ": " + result.stderr());
        }
    }
}

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
 * Issue 31: a bad option value is answered in the product's words, naming the option, with exit 2: never
 * a parser's message, a JDK exception's text or an internal error. {@code serve} runs as the real jar.
 */
class OptionWordsTest {

    /** The parser's and the JVM's vocabulary (ProductWordsTest's list), and a stray null. */
    private static final List<String> INTERNALS = List.of("Source:", "REDACTED", "ALLOW_", "Feature", "Exception",
            "For input string", "(code ", "java.", "com.fasterxml", "StreamRead", "JsonRead", "JsonToken", "Jackson",
            "JsonNode", "internal error", "(null)");

    @TempDir
    Path dir;

    @Test
    void simulatesGroupsThatAreNoJsonAreNamedWithWhatIsExpected() {
        Kvledger.Result result = Kvledger.inProcess("simulate", "--requests", "1", "--groups", "x");

        assertWords(result, "simulate --groups x");
        assertTrue(result.stderr().startsWith("kvledger: --groups: not valid JSON at column 2: unrecognized token 'x'"),
                result.stderr());
        assertTrue(result.stderr().contains("give a JSON array of group objects, e.g. [{\"kind\": \"FULL\", \"blockSize\": 16}]"),
                result.stderr());
        assertWords(Kvledger.inProcess("simulate", "--requests", "1", "--groups", ""), "simulate --groups ''");
    }

    @Test
    void servesConfigAndMetricsPortAreJudgedBeforeServing() throws Exception {
        Path socket = dir.resolve("s.sock");
        Kvledger.Result notJson = Kvledger.child(dir, "serve", "--socket", socket.toString(), "--config", "x");
        Kvledger.Result empty = Kvledger.child(dir, "serve", "--socket", socket.toString(), "--config", "");
        Kvledger.Result number = Kvledger.child(dir, "serve", "--socket", socket.toString(), "--config", "16");
        Kvledger.Result port = Kvledger.child(dir, "serve", "--socket", socket.toString(), "--metrics-port", "99999");

        assertWords(notJson, "serve --config x");
        assertTrue(notJson.stderr().startsWith("kvledger: --config: not valid JSON at column 2"), notJson.stderr());
        assertWords(empty, "serve --config ''");
        assertTrue(empty.stderr().startsWith("kvledger: --config: must be a JSON object of config fields"), empty.stderr());
        assertWords(number, "serve --config 16");
        assertTrue(number.stderr().contains("was 16"), number.stderr());
        assertWords(port, "serve --metrics-port 99999");
        assertEquals("kvledger: --metrics-port must be a port from 0 (a free one) to 65535, was 99999\n", port.stderr());
        assertFalse(Files.exists(socket), "nothing was served");
    }

    @Test
    void aKvEventsEndpointWithoutANumericPortIsNamed() throws Exception {
        Path scenario = Files.writeString(dir.resolve("s.jsonl"), "{\"cmd\": \"ResetCache\"}\n");

        Kvledger.Result result = Kvledger.inProcess("run", scenario.toString(), "--kv-events", "tcp://127.0.0.1:x");

        assertWords(result, "run --kv-events tcp://127.0.0.1:x");
        assertTrue(result.stderr().contains("--kv-events: cannot bind the KV event sockets: the port of tcp://127.0.0.1:x is not a number"),
                result.stderr());
    }

    @Test
    void anEmptyIdOptionIsRefused() throws Exception {
        Path scenario = Files.writeString(dir.resolve("s.jsonl"), "{\"cmd\": \"ResetCache\"}\n");
        Path store = dir.resolve("store.jsonl");

        Kvledger.Result run = Kvledger.inProcess("run", scenario.toString(), "--store", store.toString(), "--engine", "");
        Kvledger.Result export = Kvledger.inProcess("export", "--store", store.toString(), "--engine", "");

        for (Kvledger.Result result : List.of(run, export)) {
            assertWords(result, "--engine ''");
            assertTrue(result.stderr().contains("--engine must not be empty"), result.stderr());
        }
        assertFalse(Files.exists(store), "no store was made for an engine without a name");
        Path log = dir.resolve("l.jsonl");
        assertEquals(0, Kvledger.inProcess("run", Examples.prefillDecode(), "-o", log.toString()).exit());
        for (String tool : List.of("replay", "trace")) {
            Kvledger.Result result = Kvledger.inProcess(tool, log.toString(), "--request", "");
            assertWords(result, tool + " --request ''");
            assertTrue(result.stderr().contains("--request must not be empty"), result.stderr());
        }
    }

    @Test
    void aDirectoryGivenForALogAndAFleetStoreThatIsNoDatabaseAreNamed() throws Exception {
        Path log = dir.resolve("l.jsonl");
        assertEquals(0, Kvledger.inProcess("run", Examples.prefillDecode(), "-o", log.toString()).exit());
        Path folder = Files.createDirectories(dir.resolve("folder"));

        Kvledger.Result diff = Kvledger.inProcess("diff", folder.toString(), log.toString());
        Kvledger.Result bench = Kvledger.inProcess("bench", folder.toString(), "--simulate", "0");
        Kvledger.Result fleet = Kvledger.inProcess("fleet", "status", "--store", "x");
        Kvledger.Result node = Kvledger.inProcess("fleet", "node", "--store", "jdbc:postgresql://127.0.0.1:1/kv", "--node", "");

        assertWords(diff, "diff DIR LOG");
        assertTrue(diff.stderr().contains("cannot read " + folder + ": it is a directory"), diff.stderr());
        assertWords(bench, "bench DIR");
        assertTrue(bench.stderr().contains("cannot read " + folder + ": it is a directory"), bench.stderr());
        assertWords(fleet, "fleet status --store x");
        assertTrue(fleet.stderr().contains("the fleet's store is a PostgreSQL database: give jdbc:postgresql://"), fleet.stderr());
        assertWords(node, "fleet node --node ''");
        assertTrue(node.stderr().contains("--node must not be empty"), node.stderr());
    }

    @Test
    void aKvEventsEndpointThatCannotBeBoundSaysWhyInWords() throws Exception {
        Path scenario = Files.writeString(dir.resolve("s.jsonl"), "{\"cmd\": \"ResetCache\"}\n");

        // 192.0.2.1 (TEST-NET-1, RFC 5737) is no address of this machine.
        Kvledger.Result result = Kvledger.inProcess("run", scenario.toString(), "--kv-events", "tcp://192.0.2.1:5557");

        assertWords(result, "run --kv-events tcp://192.0.2.1:5557");
        assertTrue(result.stderr().contains("cannot bind the KV event sockets: tcp://192.0.2.1:5557: "), result.stderr());
        assertFalse(result.stderr().contains("Errno"), result.stderr());
    }

    private static void assertWords(Kvledger.Result result, String what) {
        assertEquals(2, result.exit(), what + ": " + result);
        for (String internal : INTERNALS) {
            assertFalse(result.stderr().contains(internal), what + ": '" + internal + "' in " + result.stderr());
        }
    }
}

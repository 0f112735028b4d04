package io.kvledger.infrastructure.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The protocol over a real socket: hello, step answers, refused requests that change nothing. */
class ServeProtocolTest {

    private static final String REGISTER = "{\"cmd\": \"RegisterRequest\", \"requestId\": \"r1\", \"promptTokens\": [1, 2, 3, 4, 5, 6, 7, 8]}";

    private static final String HELLO_B4 = "{\"hello\": {\"protocol\": 1, \"config\": {\"gpuBlockSize\": 4}}}";

    @TempDir
    Path dir;

    @Test
    void helloNamesTheProtocolAndTheEngineConfig() throws Exception {
        try (ServerHarness harness = ServerHarness.inMemory(dir); UnixClient client = new UnixClient(harness.socket)) {
            JsonNode hello = client.request("{\"hello\": {\"protocol\": 1, \"config\": {\"gpuBlockSize\": 4, \"workers\": 2}}}")
                    .get("hello");
            assertEquals(1, hello.get("protocol").intValue());
            assertEquals(1, hello.get("lastSeq").intValue());
            assertEquals("EngineConfigured", hello.get("config").get("type").textValue());
            assertEquals(4, hello.get("config").get("gpuBlockSize").intValue());
            assertEquals(2, hello.get("config").get("workers").intValue());
            assertTrue(hello.get("config").get("maxOffloadTokens").isNull());
        }
    }

    @Test
    void aStepIsAnsweredWithItsEventsAndTheirGroups() throws Exception {
        try (ServerHarness harness = ServerHarness.inMemory(dir); UnixClient client = new UnixClient(harness.socket)) {
            client.request("{\"hello\": {\"protocol\": 1, \"config\": {\"gpuBlockSize\": 4}}}");
            JsonNode answer = client.request("{\"step\": [" + REGISTER + ", "
                    + "{\"cmd\": \"AllocateBlocks\", \"requestId\": \"r1\", \"blockIds\": [7, 8]}, "
                    + "{\"cmd\": \"ComputeTokens\", \"requestId\": \"r1\", \"tokens\": 8}, "
                    + "{\"cmd\": \"PreemptRequest\", \"requestId\": \"r1\"}, "
                    + "{\"cmd\": \"ComputeTokens\", \"requestId\": \"nobody\", \"tokens\": 8}]}");
            assertEquals(1, answer.get("step").intValue());
            JsonNode events = answer.get("events");
            assertEquals(2, events.get(0).get("seq").intValue());
            assertEquals(answer.get("lastSeq").intValue(), events.get(events.size() - 1).get("seq").intValue());
            assertGroup(answer, "storeJobs", "StoreJobScheduled", 1);
            assertGroup(answer, "loadJobs", "LoadJobScheduled", 0);
            assertGroup(answer, "flushes", "FlushRequired", 1);
            assertGroup(answer, "releases", "BlocksReleased", 1);
            assertGroup(answer, "rejections", "CommandRejected", 1);
            JsonNode rejection = events.get(answer.get("rejections").get(0).intValue());
            assertEquals(5, rejection.get("line").intValue()); // numbered in the order received, from 1
            assertEquals("UNKNOWN_REQUEST", rejection.get("code").textValue());
            JsonNode next = client.request("{\"step\": [{\"cmd\": \"AbortRequest\", \"requestId\": \"x\"}], \"lines\": [42]}");
            assertEquals(answer.get("lastSeq").intValue() + 1, next.get("events").get(0).get("seq").intValue());
            assertEquals(42, next.get("events").get(0).get("line").intValue());
        }
    }

    private static void assertGroup(JsonNode answer, String group, String type, int size) {
        JsonNode positions = answer.get(group);
        assertEquals(size, positions.size(), group);
        int ofType = 0;
        for (JsonNode event : answer.get("events")) {
            ofType += event.get("type").textValue().equals(type) ? 1 : 0;
        }
        assertEquals(ofType, positions.size(), group + " lists every " + type);
        positions.forEach(p -> assertEquals(type, answer.get("events").get(p.intValue()).get("type").textValue()));
    }

    @Test
    void aStepAskingForTimingSaysWhereTheServersTimeWent() throws Exception {
        try (ServerHarness harness = ServerHarness.inMemory(dir); UnixClient client = new UnixClient(harness.socket)) {
            client.hello();
            JsonNode timing = client.request("{\"step\": [" + REGISTER + "], \"timing\": true}").get("timing");
            for (String field : new String[] {"parseNanos", "stepNanos", "encodeNanos"}) {
                assertTrue(timing.get(field).longValue() > 0, field + " in " + timing);
            }
            assertTrue(timing.get("stepNanos").longValue() < 60_000_000_000L);
            assertNull(client.request("{\"step\": []}").get("timing"), "only when asked for");
            assertEquals("BAD_REQUEST", client.request("{\"step\": [], \"timing\": 1}").get("error").get("code").textValue());
        }
    }

    @Test
    void aGroupedAnswerHoldsOnlyTheEventsAHostActsOn() throws Exception {
        String step = "[" + REGISTER + ", {\"cmd\": \"AllocateBlocks\", \"requestId\": \"r1\", \"blockIds\": [7, 8]}, "
                + "{\"cmd\": \"ComputeTokens\", \"requestId\": \"r1\", \"tokens\": 8}, "
                + "{\"cmd\": \"AbortRequest\", \"requestId\": \"r1\"}, {\"cmd\": \"AbortRequest\", \"requestId\": \"r1\"}]";
        JsonNode all;
        JsonNode grouped;
        try (ServerHarness harness = ServerHarness.inMemory(dir.resolve("a"))) {
            try (UnixClient client = new UnixClient(harness.socket)) {
                client.request(HELLO_B4);
                all = client.request("{\"step\": " + step + ", \"events\": \"all\"}");
            }
        }
        try (ServerHarness harness = ServerHarness.inMemory(dir.resolve("g"))) {
            try (UnixClient client = new UnixClient(harness.socket)) {
                client.request(HELLO_B4);
                grouped = client.request("{\"step\": " + step + ", \"events\": \"grouped\"}");
                assertEquals("BAD_REQUEST", client.request("{\"step\": [], \"events\": \"some\"}").get("error")
                        .get("code").textValue());
            }
        }
        java.util.List<JsonNode> expected = new java.util.ArrayList<>();
        for (String group : new String[] {"storeJobs", "loadJobs", "flushes", "releases", "rejections"}) {
            for (JsonNode p : all.get(group)) {
                expected.add(all.get("events").get(p.intValue()));
            }
        }
        expected.sort(java.util.Comparator.comparingLong(e -> e.get("seq").longValue()));
        java.util.List<JsonNode> got = new java.util.ArrayList<>();
        grouped.get("events").forEach(got::add);
        assertEquals(expected, got, "the grouped events, with their own seq");
        assertEquals(3, got.size());
        assertEquals(all.get("lastSeq"), grouped.get("lastSeq"));
        for (String group : new String[] {"storeJobs", "releases", "rejections"}) {
            assertEquals(all.get("events").get(all.get(group).get(0).intValue()),
                    grouped.get("events").get(grouped.get(group).get(0).intValue()), group);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "NOT_JSON          | {\"step\": [",
            "NOT_JSON          | \u00ff\u00fe",
            "BAD_REQUEST       | [1, 2]",
            "BAD_REQUEST       | {\"stop\": []}",
            "BAD_REQUEST       | {\"step\": {\"cmd\": \"ResetCache\"}}",
            "BAD_REQUEST       | {\"step\": [{\"cmd\": \"ResetCache\"}], \"lines\": [1, 2]}",
            "BAD_REQUEST       | {\"step\": [{\"cmd\": \"ResetCache\"}], \"lines\": [-1]}",
            "BAD_REQUEST       | {\"hello\": {\"protocol\": \"one\"}}",
            "UNSUPPORTED_PROTOCOL | {\"hello\": {\"protocol\": 2}}",
            "BAD_CONFIG        | {\"hello\": {\"protocol\": 1, \"config\": {\"gpuBlockSize\": 0}}}",
            "BAD_CONFIG        | {\"hello\": {\"protocol\": 1, \"config\": {\"colour\": 1}}}",
            "CONFIG_MISMATCH   | {\"hello\": {\"protocol\": 1, \"config\": {\"gpuBlockSize\": 32}}}",
            "MALFORMED_COMMAND | {\"step\": [" + REGISTER + ", 7]}",
            "MALFORMED_COMMAND | {\"step\": [" + REGISTER + ", {\"cmd\": \"Launch\"}]}",
            "MALFORMED_COMMAND | {\"step\": [" + REGISTER + ", {\"requestId\": \"r1\"}]}",
            "MALFORMED_COMMAND | {\"step\": [" + REGISTER + ", {\"cmd\": 3}]}",
    })
    void aBadRequestIsAnsweredWithItsCodeAndChangesNothing(String code, String line) throws Exception {
        try (ServerHarness harness = ServerHarness.inMemory(dir); UnixClient client = new UnixClient(harness.socket)) {
            client.hello();
            long before = client.request("{\"step\": []}").get("lastSeq").longValue();
            JsonNode error = client.request(line).get("error");
            assertEquals(code, error.get("code").textValue(), error.toString());
            assertTrue(error.get("message").textValue().length() > 10, error.toString());
            if (code.equals("MALFORMED_COMMAND")) {
                assertEquals(1, error.get("index").intValue(), "names the command");
            }
            // Nothing ran: r1 is still unknown and seq goes on from where it was.
            JsonNode after = client.request("{\"step\": [{\"cmd\": \"MatchPrefix\", \"requestId\": \"r1\"}]}");
            JsonNode only = after.get("events").get(0);
            assertEquals(before + 1, only.get("seq").longValue());
            assertEquals("UNKNOWN_REQUEST", only.get("code").textValue());
            assertEquals(before, client.hello().get("hello").get("lastSeq").longValue() - 1);
        }
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
            "{\"step\": []} {\"step\": []}                | more than one JSON value on the line",
            "{\"step\": [                                     | the line ends inside a JSON value",
            "{\"step\": [], \"x\": 1e}                        | at column",
            "{\"step\": [], \"x\": DIGITS}                    | Number value length (1001) exceeds the maximum allowed (1000)",
            "NESTED                                             | exceeds the maximum allowed",
    })
    void aLineThatIsNotJsonIsDescribedInTheClientsTermsNotTheParsers(String line, String says) throws Exception {
        String sent = line.replace("DIGITS", "1".repeat(1001)).replace("NESTED", "[".repeat(1001) + "]".repeat(1001));
        try (ServerHarness harness = ServerHarness.inMemory(dir); UnixClient client = new UnixClient(harness.socket)) {
            client.hello();
            JsonNode error = client.request(sent).get("error");
            assertEquals("NOT_JSON", error.get("code").textValue(), error.toString());
            String message = error.get("message").textValue();
            assertTrue(message.contains(says), message);
            for (String internal : new String[] {"JsonNode", "FAIL_ON_TRAILING_TOKENS", "StreamReadConstraints",
                    "com.fasterxml", "Source:", "`"}) {
                assertFalse(message.contains(internal), "names " + internal + ": " + message);
            }
        }
    }

    @Test
    void aServerStoppedWhileItsClientIsBetweenRequestsSaysWhyTheConnectionEnded() throws Exception {
        ServerHarness harness = ServerHarness.inMemory(dir);
        try (UnixClient client = new UnixClient(harness.socket)) {
            client.hello();
            harness.close(); // stop() while the session waits for the next request
            JsonNode notice = client.answer();
            assertEquals("SHUTTING_DOWN", notice.get("error").get("code").textValue(), notice.toString());
            assertNull(client.answer(), "then the end of the connection");
        }
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                .until(() -> harness.log().contains("client disconnected") || harness.log().contains("connection lost"));
        assertFalse(harness.log().contains("(null)"), harness.log());
    }

    @Test
    void aSocketALiveServerListensOnIsRefusedAndAStaleOneReplaced() throws Exception {
        Path socket = dir.resolve("k.sock");
        try (ServerHarness live = new ServerHarness(socket, null, java.util.Optional.empty(), -1);
             LedgerServer second = LedgerServer.start(null, java.util.Optional.empty(), -1,
                     new java.io.PrintStream(java.io.OutputStream.nullOutputStream()))) {
            UnixSocketListener.SocketInUseException refused = org.junit.jupiter.api.Assertions.assertThrows(
                    UnixSocketListener.SocketInUseException.class, () -> second.serveSocket(socket));
            assertTrue(refused.getMessage().contains("another server is listening"), refused.getMessage());
            try (UnixClient client = new UnixClient(live.socket)) {
                assertEquals(1, client.hello().get("hello").get("lastSeq").intValue(), "the live server goes on");
            }
        }
        // A socket file whose server died without removing it.
        try (java.nio.channels.ServerSocketChannel dead = java.nio.channels.ServerSocketChannel.open(
                java.net.StandardProtocolFamily.UNIX)) {
            dead.bind(java.net.UnixDomainSocketAddress.of(socket));
        }
        assertTrue(java.nio.file.Files.exists(socket));
        try (ServerHarness replaced = new ServerHarness(socket, null, java.util.Optional.empty(), -1);
             UnixClient client = new UnixClient(replaced.socket)) {
            assertTrue(client.hello().has("hello"));
        }
    }

    @Test
    @org.junit.jupiter.api.Timeout(60)   // before, an empty line got no answer and the client waited forever
    void anEmptyLineIsAnsweredWithAProtocolErrorAndTheSessionGoesOn() throws Exception {
        try (ServerHarness harness = ServerHarness.inMemory(dir); UnixClient client = new UnixClient(harness.socket)) {
            JsonNode before = client.request("").get("error");
            assertEquals("BAD_REQUEST", before.get("code").textValue(), before.toString());
            assertTrue(before.get("message").textValue().contains("empty line"), before.toString());
            client.hello();
            JsonNode blank = client.request("   ").get("error");
            assertEquals("BAD_REQUEST", blank.get("code").textValue(), blank.toString());
            assertEquals(2, client.request("{\"step\": [" + REGISTER + "]}").get("lastSeq").intValue(),
                    "the session goes on, and the empty lines changed nothing");
        }
    }

    @Test
    void aStepBeforeTheHelloIsRefused() throws Exception {
        try (ServerHarness harness = ServerHarness.inMemory(dir); UnixClient client = new UnixClient(harness.socket)) {
            assertEquals("HELLO_REQUIRED", client.request("{\"step\": [" + REGISTER + "]}").get("error").get("code").textValue());
            assertEquals(1, client.hello().get("hello").get("lastSeq").intValue());
        }
    }

    @Test
    void aSecondClientIsRefusedClearlyWhileOneIsConnected() throws Exception {
        try (ServerHarness harness = ServerHarness.inMemory(dir)) {
            try (UnixClient first = new UnixClient(harness.socket)) {
                first.hello();
                try (UnixClient second = new UnixClient(harness.socket)) {
                    second.send("{\"hello\": {\"protocol\": 1}}\n");
                    JsonNode error = second.answer().get("error");
                    assertEquals("BUSY", error.get("code").textValue());
                    assertTrue(error.get("message").textValue().contains("another client"));
                    assertNull(second.answer(), "then the connection is closed");
                }
                assertEquals(2, first.request("{\"step\": [" + REGISTER + "]}").get("lastSeq").intValue(),
                        "the first client is unaffected");
            }
            // Once the first has gone, the next one is served by the same engine.
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).untilAsserted(() -> {
                try (UnixClient third = new UnixClient(harness.socket)) {
                    assertEquals(2, third.hello().get("hello").get("lastSeq").intValue());
                }
            });
        }
    }

    @Test
    void aLineCutShortByADisconnectRunsNothing() throws Exception {
        try (ServerHarness harness = ServerHarness.inMemory(dir)) {
            try (UnixClient client = new UnixClient(harness.socket)) {
                client.hello();
                client.send("{\"step\": [" + REGISTER); // no newline: the client dies mid-request
            }
            awaitHello(harness, 1);
        }
    }

    @Test
    void aWholeStepRunsEvenIfTheClientLeavesBeforeItsAnswer() throws Exception {
        try (ServerHarness harness = ServerHarness.inMemory(dir)) {
            try (UnixClient client = new UnixClient(harness.socket)) {
                client.hello();
                client.send("{\"step\": [" + REGISTER + "]}\n");
            }
            awaitHello(harness, 2);
        }
    }

    private static void awaitHello(ServerHarness harness, int lastSeq) {
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).untilAsserted(() -> {
            try (UnixClient next = new UnixClient(harness.socket)) {
                JsonNode answer = next.hello();
                assertTrue(answer.has("hello"), answer::toString);
                assertEquals(lastSeq, answer.get("hello").get("lastSeq").intValue());
            }
        });
    }
}

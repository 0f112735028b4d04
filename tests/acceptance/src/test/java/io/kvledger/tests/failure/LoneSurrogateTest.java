package io.kvledger.tests.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.infrastructure.json.EventJson;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10, item 2: one string policy for every format. A string that cannot be written exactly (a lone
 * UTF-16 surrogate, valid as the JSON escape {@code "\ud800"}) is refused where it enters, with
 * INVALID_ARGUMENT in a scenario and as a malformed line in a log or store; every other string round-trips
 * exactly through the output, the store, replay and a resumed run.
 */
class LoneSurrogateTest {

    private static final String LONE = "{\"cmd\":\"RegisterRequest\",\"requestId\":\"\\ud800\",\"promptTokens\":[1]}\n";

    @TempDir
    Path dir;

    @Test
    void aLoneSurrogateRequestIdIsRefusedWithInvalidArgumentInEveryOutput() throws Exception {
        Path scenario = write("s.jsonl", LONE + "{\"cmd\":\"AbortRequest\",\"requestId\":\"\\udc00x\"}\n");
        Path store = dir.resolve("st.jsonl");
        Path out = dir.resolve("o.jsonl");

        Kvledger.Result run = Kvledger.inProcess("run", scenario.toString(), "--store", store.toString(), "-o", out.toString());

        assertEquals(0, run.exit(), run.toString());
        List<String> lines = Files.readAllLines(out);
        assertEquals(3, lines.size(), String.join("\n", lines));
        for (String line : lines.subList(1, 3)) {
            JsonNode event = EventJson.mapper().readTree(line);
            assertEquals("CommandRejected", event.get("type").asText());
            assertEquals("INVALID_ARGUMENT", event.get("code").asText());
            assertFalse(event.has("requestId"), "an id that cannot be written is not repeated: " + line);
            assertTrue(event.get("message").asText().contains("lone UTF-16 surrogate"), line);
        }
        assertStrictUtf8(out);
        assertStrictUtf8(store);
        assertFalse(Files.readString(store).contains("?"), "nothing changed to ?");
    }

    @Test
    void theStdoutOfARunIsExactUtf8AndTheResumedStateEqualsTheLiveOne() throws Exception {
        Path scenario = write("s.jsonl", LONE);
        Path store = dir.resolve("st.jsonl");
        Kvledger.Result first = Kvledger.inProcess("run", scenario.toString(), "--store", store.toString());
        Path again = write("again.jsonl", "{\"cmd\":\"AbortRequest\",\"requestId\":\"\\ud800\"}\n");

        Kvledger.Result resumed = Kvledger.inProcess("run", again.toString(), "--store", store.toString());

        assertEquals(0, first.exit(), first.toString());
        assertFalse(first.stdout().contains("\"?\""), first.stdout());
        assertEquals(0, resumed.exit(), resumed.toString());
        String last = resumed.lines().get(resumed.lines().size() - 1);
        assertTrue(last.contains("\"INVALID_ARGUMENT\""), "refused again, as the live engine would: " + last);
    }

    @Test
    void everyWellFormedStringRoundTripsExactly() throws Exception {
        String id = "r-\uD83D\uDE00-\u00e9-\u4e2d-\\\"quoted\\\"";
        Path scenario = write("s.jsonl", "{\"cmd\":\"RegisterRequest\",\"requestId\":\"" + id + "\",\"promptTokens\":[1,2]}\n"
                + "{\"cmd\":\"AbortRequest\",\"requestId\":\"" + id + "\"}\n");
        Path store = dir.resolve("st.jsonl");
        Path out = dir.resolve("o.jsonl");
        String expected = EventJson.mapper().readTree("\"" + id + "\"").textValue();

        Kvledger.Result run = Kvledger.inProcess("run", scenario.toString(), "--store", store.toString(), "-o", out.toString());
        Kvledger.Result replay = Kvledger.inProcess("replay", out.toString(), "--request", expected, "--json");
        Kvledger.Result replayStore = Kvledger.inProcess("replay", store.toString(), "--request", expected, "--json");

        assertEquals(0, run.exit(), run.toString());
        JsonNode registered = EventJson.mapper().readTree(Files.readAllLines(out).get(1));
        assertEquals(expected, registered.get("requestId").textValue());
        assertEquals(0, replay.exit(), replay.toString());
        assertEquals(expected, EventJson.mapper().readTree(replay.stdout()).get("requestId").textValue());
        assertEquals(replay.stdout().replace(out.toString(), ""), replayStore.stdout().replace(store.toString(), ""));
    }

    @Test
    void aLogOrStoreWithALoneSurrogateIsMalformedNamingTheLine() throws Exception {
        Path out = dir.resolve("o.jsonl");
        Kvledger.inProcess("run", Examples.prefillDecode(), "-o", out.toString());
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(out));
        lines.set(1, lines.get(1).replace("\"requestId\": \"", "\"requestId\": \"\\ud800"));
        Path bad = dir.resolve("bad.jsonl");
        Files.write(bad, lines);

        for (String tool : List.of("replay", "audit")) {
            Kvledger.Result result = Kvledger.inProcess(tool, bad.toString());

            assertEquals(2, result.exit(), tool + ": " + result);
            assertTrue(result.stderr().contains("line 2: requestId is not valid Unicode"), tool + ": " + result.stderr());
        }
        Path store = dir.resolve("store.jsonl");
        Kvledger.inProcess("run", Examples.prefillDecode(), "--store", store.toString());
        List<String> stored = new java.util.ArrayList<>(Files.readAllLines(store));
        stored.set(1, stored.get(1).replace("\"requestId\": \"", "\"requestId\": \"\\udfff"));
        Files.write(store, stored);
        byte[] before = Files.readAllBytes(store);

        Kvledger.Result resumed = Kvledger.inProcess("run", Examples.prefillDecode(), "--store", store.toString());

        assertEquals(2, resumed.exit(), resumed.toString());
        assertTrue(resumed.stderr().contains("line 2: requestId is not valid Unicode"), resumed.stderr());
        assertEquals(new String(before, StandardCharsets.UTF_8), Files.readString(store), "the store is left as it was");
    }

    private Path write(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text);
    }

    private static void assertStrictUtf8(Path file) throws Exception {
        StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(Files.readAllBytes(file)));
    }
}

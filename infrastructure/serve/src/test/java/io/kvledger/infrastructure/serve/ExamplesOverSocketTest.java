package io.kvledger.infrastructure.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.application.KvLedger;
import io.kvledger.infrastructure.cli.ScenarioRunner;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.log.EventLogWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every shared example, sent over a real socket in steps of several sizes, gives exactly the events
 * {@code kvledger run} writes for it (seq, fields and rejections' lines included).
 */
class ExamplesOverSocketTest {

    @TempDir
    Path dir;

    static Stream<Arguments> examples() throws IOException {
        Path folder = Path.of(System.getProperty("kvledger.examples"));
        List<Arguments> cases = new ArrayList<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.sorted().toList()) {
                String name = file.getFileName().toString();
                if (name.endsWith(".jsonl") && !name.endsWith(".expect.jsonl")) {
                    for (int stepSize : new int[] {1, 3, 256}) {
                        cases.add(Arguments.of(name, file, stepSize));
                    }
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} in steps of {2}")
    @MethodSource("examples")
    void givesTheEventsOfRun(String name, Path scenario, int stepSize) throws Exception {
        List<JsonNode> expected = runLog(scenario);
        List<JsonNode> served = new ArrayList<>();
        try (ServerHarness harness = ServerHarness.inMemory(dir); UnixClient client = new UnixClient(harness.socket)) {
            List<String> lines = Files.readAllLines(scenario, StandardCharsets.UTF_8);
            ObjectNode hello = EventJson.mapper().createObjectNode();
            hello.putObject("hello").put("protocol", 1);
            ArrayNode step = EventJson.mapper().createArrayNode();
            ArrayNode numbers = EventJson.mapper().createArrayNode();
            boolean first = true;
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).isBlank()) {
                    continue;
                }
                JsonNode line = EventJson.mapper().readTree(lines.get(i));
                if (first && line.has("config") && line.size() == 1) {
                    ((ObjectNode) hello.get("hello")).set("config", line.get("config"));
                    first = false;
                    continue;
                }
                if (first) {
                    first = false;
                }
                if (served.isEmpty()) {
                    JsonNode answer = client.request(EventJson.toLine(hello));
                    served.add(answer.get("hello").get("config"));
                }
                step.add(line);
                numbers.add(i + 1);
                if (step.size() == stepSize) {
                    served.addAll(sendStep(client, step, numbers));
                }
            }
            if (served.isEmpty()) {
                served.add(client.request(EventJson.toLine(hello)).get("hello").get("config"));
            }
            if (!step.isEmpty()) {
                served.addAll(sendStep(client, step, numbers));
            }
        }
        assertEquals(expected, served, name);
    }

    private static List<JsonNode> sendStep(UnixClient client, ArrayNode step, ArrayNode numbers) throws IOException {
        ObjectNode request = EventJson.mapper().createObjectNode();
        request.set("step", step.deepCopy());
        request.set("lines", numbers.deepCopy());
        step.removeAll();
        numbers.removeAll();
        JsonNode answer = client.request(EventJson.toLine(request));
        List<JsonNode> events = new ArrayList<>();
        answer.get("events").forEach(events::add);
        return events;
    }

    private static List<JsonNode> runLog(Path scenario) throws Exception {
        StringWriter out = new StringWriter();
        ScenarioRunner runner = new ScenarioRunner(config -> {
            KvLedger.Builder builder = KvLedger.builder();
            config.ifPresent(builder::config);
            return builder.build();
        });
        try (InputStream in = Files.newInputStream(scenario)) {
            runner.run(in, new EventLogWriter(out));
        }
        List<JsonNode> events = new ArrayList<>();
        for (String line : out.toString().split("\n")) {
            events.add(EventJson.mapper().readTree(line));
        }
        return events;
    }
}

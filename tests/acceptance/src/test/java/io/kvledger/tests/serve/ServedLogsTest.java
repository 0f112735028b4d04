package io.kvledger.tests.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.application.KvLedger;
import io.kvledger.application.engine.StepEntry;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.simulation.host.ScenarioRunner;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.log.EventLogWriter;
import io.kvledger.infrastructure.scenario.ScenarioWriter;
import io.kvledger.simulation.SimulationOptions;
import io.kvledger.simulation.Simulator;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What {@code kvledger serve} answers over a real socket is the log {@code kvledger run} writes: every
 * shared example in steps of several sizes, and simulated workloads of several seeds in the simulator's
 * own steps (which make nearly every event type), seq, fields and rejections' lines included.
 */
class ServedLogsTest {

    @TempDir
    Path dir;

    static Stream<Arguments> examples() throws Exception {
        Path folder = Path.of(ServedLogsTest.class.getResource("/examples").toURI());
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
    void anExampleGivesTheEventsOfRun(String name, Path scenario, int stepSize) throws Exception {
        List<String> lines = Files.readAllLines(scenario, StandardCharsets.UTF_8);
        JsonNode config = null;
        List<JsonNode> commands = new ArrayList<>();
        List<Integer> numbers = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            JsonNode line = EventJson.mapper().readTree(lines.get(i));
            if (commands.isEmpty() && config == null && line.size() == 1 && line.has("config")) {
                config = line.get("config");
            } else {
                commands.add(line);
                numbers.add(i + 1);
            }
        }
        List<JsonNode> served = new ArrayList<>();
        try (ServeClient client = new ServeClient(dir.resolve("s.sock"))) {
            served.add(hello(client, config));
            for (int from = 0; from < commands.size(); from += stepSize) {
                int to = Math.min(commands.size(), from + stepSize);
                served.addAll(step(client, commands.subList(from, to), numbers.subList(from, to)));
            }
        }
        assertEquals(runLog(scenario), served, name);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void aSimulatedWorkloadGivesTheSimulatedLog(long seed) throws Exception {
        SimulationOptions options = SimulationOptions.DEFAULTS.withRequests(60).withSeed(seed);
        List<JsonNode> expected = new ArrayList<>();
        List<List<StepEntry>> steps = new ArrayList<>();
        new Simulator(options).run(new Simulator.Listener() {
            private long seq;

            @Override
            public void configured(EngineConfigured configured) {
                expected.add(tree(++seq, configured));
            }

            @Override
            public void step(List<StepEntry> entries, List<EngineEvent> events) {
                steps.add(List.copyOf(entries));
                events.forEach(event -> expected.add(tree(++seq, event)));
            }
        });
        List<JsonNode> served = new ArrayList<>();
        Set<String> types = new HashSet<>();
        try (ServeClient client = new ServeClient(dir.resolve("sim.sock"))) {
            served.add(hello(client, ScenarioWriter.configNode(options.engineConfig()).get("config")));
            for (List<StepEntry> entries : steps) {
                String text = ScenarioWriter.toText(options.engineConfig(), entries.stream().map(StepEntry::command).toList());
                List<JsonNode> commands = new ArrayList<>();
                String[] textLines = text.split("\n");
                for (int i = 1; i < textLines.length; i++) {
                    commands.add(EventJson.mapper().readTree(textLines[i]));
                }
                served.addAll(step(client, commands, entries.stream().map(e -> (int) e.line()).toList()));
            }
        }
        served.forEach(event -> types.add(event.get("type").textValue()));
        assertEquals(expected.size(), served.size());
        assertEquals(expected, served);
        assertTrue(types.size() >= 15, "the workload covers many event types: " + types);
    }

    private static JsonNode tree(long seq, EngineEvent event) {
        try {
            return EventJson.mapper().readTree(EventJson.toLine(seq, event));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static JsonNode hello(ServeClient client, JsonNode config) throws IOException {
        ObjectNode request = EventJson.mapper().createObjectNode();
        ObjectNode hello = request.putObject("hello").put("protocol", 1);
        if (config != null) {
            hello.set("config", config);
        }
        return client.request(EventJson.toLine(request)).get("hello").get("config");
    }

    private static List<JsonNode> step(ServeClient client, List<JsonNode> commands, List<Integer> lines) throws IOException {
        ObjectNode request = EventJson.mapper().createObjectNode();
        ArrayNode step = request.putArray("step");
        commands.forEach(step::add);
        ArrayNode numbers = request.putArray("lines");
        lines.forEach(numbers::add);
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

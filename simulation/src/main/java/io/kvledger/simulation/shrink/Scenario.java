package io.kvledger.simulation.shrink;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.scenario.MalformedLineException;
import io.kvledger.infrastructure.scenario.ScenarioLine;
import io.kvledger.infrastructure.scenario.ScenarioReader;
import io.kvledger.infrastructure.scenario.ScenarioWriter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A scenario as the shrinker handles it: the config and the command lines as JSON, so that a line
 * whose fields are bad (rejected when run) is kept and written back as it was.
 */
public record Scenario(EngineConfig config, List<ObjectNode> lines) {

    public Scenario {
        lines = List.copyOf(lines);
    }

    /** Reads a scenario; its text must be well-formed (contract section 2). */
    public static Scenario parse(String text) throws MalformedLineException {
        EngineConfig config = EngineConfig.DEFAULTS;
        try {
            ScenarioReader reader = new ScenarioReader(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
            ScenarioLine line;
            while ((line = reader.next()) != null) {
                if (line instanceof ScenarioLine.Config c) {
                    config = c.config();
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("reading from memory cannot fail", e);
        }
        List<ObjectNode> lines = new ArrayList<>();
        for (String line : text.split("\n", -1)) {
            if (line.isBlank()) {
                continue;
            }
            try {
                JsonNode node = EventJson.readTree(line);
                if (!(node.size() == 1 && node.has("config"))) {
                    lines.add((ObjectNode) node);
                }
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("the reader accepted a line that is not JSON: " + line, e);
            }
        }
        return new Scenario(config, lines);
    }

    public List<EngineCommand> commands() {
        return lines.stream().map(ScenarioReader::command).toList();
    }

    public int size() {
        return lines.size();
    }

    public Scenario withLines(List<ObjectNode> value) {
        return new Scenario(config, value);
    }

    public Scenario withConfig(EngineConfig value) {
        return new Scenario(value, lines);
    }

    /** The scenario file: the config line with every field, then the command lines. */
    public String text() {
        StringBuilder text = new StringBuilder(EventJson.toLine(ScenarioWriter.configNode(config))).append('\n');
        for (ObjectNode line : lines) {
            text.append(EventJson.toLine(line)).append('\n');
        }
        return text.toString();
    }
}

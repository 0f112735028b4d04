package io.kvledger.infrastructure.scenario;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.infrastructure.json.EventJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.List;

/**
 * Writes a scenario (contract section 2): the config line with every field, then one line per command.
 * What {@link ScenarioReader} reads back is the same config and the same commands.
 */
public final class ScenarioWriter {

    private final Writer out;

    /** Writes the config line at once. */
    public ScenarioWriter(Writer out, EngineConfig config) {
        this.out = out;
        line(configNode(config));
    }

    /** Writes one command line; a command that could not be parsed has no line and is refused. */
    public void write(EngineCommand command) {
        line(commandNode(command));
    }

    public void writeAll(Iterable<? extends EngineCommand> commands) {
        commands.forEach(this::write);
    }

    public void flush() {
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the scenario", e);
        }
    }

    /** The whole scenario as text. */
    public static String toText(EngineConfig config, List<? extends EngineCommand> commands) {
        java.io.StringWriter text = new java.io.StringWriter();
        new ScenarioWriter(text, config).writeAll(commands);
        return text.toString();
    }

    /** The config line, with every field. */
    public static ObjectNode configNode(EngineConfig config) {
        ObjectNode fields = EventJson.mapper().createObjectNode();
        fields.put("gpuBlockSize", config.gpuBlockSize());
        fields.put("blocksPerChunk", config.blocksPerChunk());
        fields.put("workers", config.workers());
        fields.put("cpuCapacityChunks", config.cpuCapacityChunks());
        fields.put("releasePolicy", config.releasePolicy().name());
        fields.put("maxOffloadTokens", config.maxOffloadTokens());
        fields.put("offloadPromptOnly", config.offloadPromptOnly());
        if (config.groups() != null) {
            // gpuBlockSize is lcm(blockSize) with groups, and a config line may not give both (contract 7.1).
            fields.remove("gpuBlockSize");
            fields.set("groups", EventJson.mapper().valueToTree(config.groups()));
        }
        ObjectNode line = EventJson.mapper().createObjectNode();
        line.set("config", fields);
        return line;
    }

    static ObjectNode commandNode(EngineCommand command) {
        CommandCodec<?> codec = CommandCodec.of(command)
                .orElseThrow(() -> new IllegalArgumentException("no scenario line for " + command));
        ObjectNode node = EventJson.mapper().createObjectNode();
        node.put("cmd", codec.name());
        codec.writeFields(command, node);
        return node;
    }

    private void line(ObjectNode node) {
        try {
            out.write(EventJson.toLine(node));
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the scenario", e);
        }
    }
}

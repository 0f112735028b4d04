package io.kvledger.infrastructure.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.FreeWindowBlocks;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.infrastructure.json.JsonProblems;
import java.util.Iterator;
import java.util.List;
import java.util.function.BiConsumer;

/** A command line (contract section 2) to a domain command; unknown extra fields are ignored. */
final class CommandParser {

    private CommandParser() {
    }

    /** @throws IllegalArgumentException when {@code cmd} is missing or unknown: the line is malformed */
    static EngineCommand parse(JsonNode node) {
        return parse(node, null);
    }

    /**
     * The same, for a scenario of {@code config} ({@code null}: the defaults): its groups decide the shape of
     * per-group fields and whether {@code FreeWindowBlocks} is a known command (contract section 7.0).
     */
    static EngineCommand parse(JsonNode node, EngineConfig config) {
        return parse(node, config, null);
    }

    /**
     * The same, telling {@code unknown} (when not {@code null}) each field of the line the command does not
     * know, with the fields it does: they are ignored, as the contract says, but may be misspellings.
     */
    static EngineCommand parse(JsonNode node, EngineConfig config, BiConsumer<String, List<String>> unknown) {
        JsonNode cmd = node.get("cmd");
        if (cmd == null) {
            throw new IllegalArgumentException("cmd is missing");
        }
        if (!cmd.isTextual()) {
            throw new IllegalArgumentException("cmd must be a string, was " + JsonProblems.show(cmd));
        }
        String name = cmd.textValue();
        int groups = config == null || config.groups() == null ? 0 : config.groups().size();
        CommandCodec<?> codec = CommandCodec.named(name)
                .filter(known -> groups > 0 || known.type() != FreeWindowBlocks.class)
                .orElseThrow(() -> new IllegalArgumentException("unknown cmd " + JsonProblems.show(cmd)));
        CommandFields fields = new CommandFields(node, name, groups);
        EngineCommand command = codec.parser().apply(fields);
        if (unknown != null) {
            Iterator<String> names = node.fieldNames();
            while (names.hasNext()) {
                String field = names.next();
                if (!field.equals("cmd") && !fields.known().contains(field)) {
                    unknown.accept(field, fields.known());
                }
            }
        }
        return command;
    }
}

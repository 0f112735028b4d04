package io.kvledger.infrastructure.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.FreeWindowBlocks;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.infrastructure.json.JsonProblems;

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
        return codec.parser().apply(new CommandFields(node, name, groups));
    }
}

package io.kvledger.infrastructure.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.infrastructure.json.JsonProblems;

/** A command line (contract section 2) to a domain command; unknown extra fields are ignored. */
final class CommandParser {

    private CommandParser() {
    }

    /** @throws IllegalArgumentException when {@code cmd} is missing or unknown: the line is malformed */
    static EngineCommand parse(JsonNode node) {
        JsonNode cmd = node.get("cmd");
        if (cmd == null) {
            throw new IllegalArgumentException("cmd is missing");
        }
        if (!cmd.isTextual()) {
            throw new IllegalArgumentException("cmd must be a string, was " + JsonProblems.show(cmd));
        }
        String name = cmd.textValue();
        CommandCodec<?> codec = CommandCodec.named(name)
                .orElseThrow(() -> new IllegalArgumentException("unknown cmd " + JsonProblems.show(cmd)));
        return codec.parser().apply(new CommandFields(node, name));
    }
}

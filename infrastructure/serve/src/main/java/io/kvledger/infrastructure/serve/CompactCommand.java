package io.kvledger.infrastructure.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * A command written as an array, {@code [cmd, field values...]} in the order of contract section 2's table
 * (trailing ones with defaults may be left out): about half the bytes of the object form, and much cheaper for
 * a host to encode. It is turned into the object form and read by the scenario's own command parser, so both
 * forms are checked alike (docs/serve-protocol.md, "Compact commands").
 */
final class CompactCommand {

    /** The fields of each command, by position after the name. */
    static final Map<String, String[]> FIELDS = Map.ofEntries(
            // The controls of contract 9.1 last, each optional: a later one without an earlier one needs the object form.
            Map.entry("RegisterRequest", new String[] {"requestId", "promptTokens", "maxOffloadTokens", "maxLoadTokens",
                "skipReadingPrefixCache"}),
            Map.entry("MatchPrefix", new String[] {"requestId", "gpuHitTokens"}),
            Map.entry("AllocateBlocks", new String[] {"requestId", "blockIds", "externalTokens"}),
            Map.entry("ComputeTokens", new String[] {"requestId", "tokens"}),
            Map.entry("RejectTokens", new String[] {"requestId", "tokens"}),
            Map.entry("AppendTokens", new String[] {"requestId", "tokens"}),
            Map.entry("CompleteTransfer", new String[] {"jobId", "success"}),
            Map.entry("PreemptRequest", new String[] {"requestId"}),
            Map.entry("AbortRequest", new String[] {"requestId"}),
            Map.entry("FinishRequest", new String[] {"requestId", "reason"}),
            Map.entry("ResetCache", new String[] {}),
            Map.entry("FreeWindowBlocks", new String[] {"requestId", "blockIds"}));

    private CompactCommand() {
    }

    /** The object form of {@code array}; an {@link IllegalArgumentException} says why there is none. */
    static ObjectNode toObject(JsonNode array) {
        if (array.isEmpty() || !array.get(0).isTextual()) {
            throw new IllegalArgumentException("a command array must start with the command's name");
        }
        String cmd = array.get(0).textValue();
        String[] fields = FIELDS.get(cmd);
        if (fields == null) {
            throw new IllegalArgumentException("unknown cmd \"" + cmd + "\"");
        }
        if (array.size() - 1 > fields.length) {
            throw new IllegalArgumentException(cmd + " takes at most " + fields.length + " values after its name ("
                    + String.join(", ", fields) + "), was given " + (array.size() - 1));
        }
        ObjectNode command = JsonNodeFactory.instance.objectNode();
        command.set("cmd", array.get(0));
        for (int i = 1; i < array.size(); i++) {
            command.set(fields[i - 1], array.get(i));
        }
        return command;
    }
}

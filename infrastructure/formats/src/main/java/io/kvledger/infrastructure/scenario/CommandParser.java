package io.kvledger.infrastructure.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.AppendTokens;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.PreemptRequest;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.command.RejectTokens;
import io.kvledger.domain.command.ResetCache;
import java.util.List;
import java.util.function.Function;

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
            throw new IllegalArgumentException("cmd must be a string, was " + cmd);
        }
        String name = cmd.textValue();
        CommandFields f = new CommandFields(node, name);
        return switch (name) {
            case "RegisterRequest" -> build(f, f.requestId(), f.intArray("promptTokens"), RegisterRequest::new);
            case "MatchPrefix" -> build(f, f.requestId(), f.optionalInt("gpuHitTokens", 0), MatchPrefix::new);
            case "AllocateBlocks" -> {
                String id = f.requestId();
                List<Integer> blocks = f.intArray("blockIds");
                int external = f.optionalInt("externalTokens", 0);
                yield f.valid() ? new AllocateBlocks(id, blocks, external) : f.invalid();
            }
            case "ComputeTokens" -> build(f, f.requestId(), f.requiredInt("tokens"), ComputeTokens::new);
            case "RejectTokens" -> build(f, f.requestId(), f.requiredInt("tokens"), RejectTokens::new);
            case "AppendTokens" -> build(f, f.requestId(), f.intArray("tokens"), AppendTokens::new);
            case "CompleteTransfer" -> {
                long jobId = f.requiredLong("jobId");
                boolean success = f.optionalBoolean("success", true);
                yield f.valid() ? new CompleteTransfer(jobId, success) : f.invalid();
            }
            case "PreemptRequest" -> build(f, f.requestId(), PreemptRequest::new);
            case "AbortRequest" -> build(f, f.requestId(), AbortRequest::new);
            case "FinishRequest" -> build(f, f.requestId(), f.reason(), FinishRequest::new);
            case "ResetCache" -> new ResetCache();
            default -> throw new IllegalArgumentException("unknown cmd " + cmd);
        };
    }

    private static EngineCommand build(CommandFields f, String requestId, Function<String, EngineCommand> factory) {
        return f.valid() ? factory.apply(requestId) : f.invalid();
    }

    private static <T> EngineCommand build(CommandFields f, String requestId, T value,
                                           java.util.function.BiFunction<String, T, EngineCommand> factory) {
        return f.valid() ? factory.apply(requestId, value) : f.invalid();
    }
}

package io.kvledger.infrastructure.serve;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.json.JsonProblems;
import io.kvledger.infrastructure.scenario.ScenarioReader;
import io.kvledger.infrastructure.serve.ProtocolError.Code;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads one request line. Everything is checked before anything runs, so a request that is refused
 * changes nothing. A known command with bad fields is not refused here: it becomes a command the
 * engine rejects with {@code INVALID_ARGUMENT}, exactly as {@code kvledger run} does.
 */
final class RequestReader {

    private static final ObjectMapper MAPPER = EventJson.mapper();

    private RequestReader() {
    }

    /** @param config the open engine's config ({@code null} before a hello opened one): it shapes per-group fields */
    static Request read(byte[] line, int length, EngineConfig config) throws ProtocolException {
        Request.Step streamed = StreamedStepReader.read(line, length, config);
        return streamed != null ? streamed : readTree(line, length, config);
    }

    /** The general reader: the line's tree, every refusal from it (a step the streamed reader read gives the same). */
    static Request readTree(byte[] line, int length, EngineConfig config) throws ProtocolException {
        JsonNode node;
        try {
            node = EventJson.readTree(line, 0, length);
        } catch (JsonProcessingException e) {
            // In the user's terms, as every reader of the product says it: no parser class or feature names.
            throw new ProtocolException(Code.NOT_JSON, "the request line: " + JsonProblems.parseFailure(
                    new String(line, 0, length, java.nio.charset.StandardCharsets.UTF_8), e));
        } catch (IOException e) {
            throw new ProtocolException(Code.NOT_JSON, "the line cannot be read as JSON (" + e.getMessage() + ")");
        }
        if (node == null || !node.isObject()) {
            throw new ProtocolException(Code.BAD_REQUEST, "a request must be a JSON object");
        }
        if (node.has("step")) {
            return step(node, config);
        }
        if (node.has("hello")) {
            return hello(node.get("hello"));
        }
        throw new ProtocolException(Code.BAD_REQUEST, "a request must have a \"hello\" or a \"step\" field");
    }

    private static Request.Hello hello(JsonNode hello) throws ProtocolException {
        if (!hello.isObject()) {
            throw new ProtocolException(Code.BAD_REQUEST, "hello must be a JSON object");
        }
        JsonNode protocol = hello.get("protocol");
        if (protocol == null || !protocol.isIntegralNumber() || !protocol.canConvertToInt()) {
            throw new ProtocolException(Code.BAD_REQUEST, "hello.protocol must be an integer (this server speaks "
                    + ServeProtocol.VERSION + ")");
        }
        Optional<EngineConfig> config = Optional.empty();
        JsonNode configNode = hello.get("config");
        if (configNode != null && !configNode.isNull()) {
            try {
                config = Optional.of(ScenarioReader.config(configNode));
            } catch (IllegalArgumentException e) {
                throw new ProtocolException(Code.BAD_CONFIG, e.getMessage());
            }
        }
        JsonNode client = hello.get("client");
        return new Request.Hello(protocol.intValue(), config, client != null && client.isTextual() ? client.textValue() : "");
    }

    private static Request.Step step(JsonNode node, EngineConfig config) throws ProtocolException {
        JsonNode step = node.get("step");
        if (!step.isArray()) {
            throw new ProtocolException(Code.BAD_REQUEST, "step must be an array of commands");
        }
        List<EngineCommand> commands = new ArrayList<>(step.size());
        for (int i = 0; i < step.size(); i++) {
            JsonNode command = step.get(i);
            if (!command.isObject() && !command.isArray()) {
                throw new ProtocolException(new ProtocolError(Code.MALFORMED_COMMAND,
                        "step[" + i + "]: a command must be a JSON object (or a compact array)", i));
            }
            try {
                commands.add(ScenarioReader.command(command.isArray() ? CompactCommand.toObject(command) : command, config));
            } catch (IllegalArgumentException e) {
                throw new ProtocolException(new ProtocolError(Code.MALFORMED_COMMAND, "step[" + i + "]: " + e.getMessage(), i));
            }
        }
        JsonNode timing = node.get("timing");
        if (timing != null && !timing.isBoolean()) {
            throw new ProtocolException(Code.BAD_REQUEST, "timing must be true or false, was " + JsonProblems.show(timing));
        }
        JsonNode events = node.get("events");
        if (events != null && !(events.isTextual() && (events.textValue().equals("all") || events.textValue().equals("grouped")))) {
            throw new ProtocolException(Code.BAD_REQUEST, "events must be \"all\" or \"grouped\", was " + JsonProblems.show(events));
        }
        return new Request.Step(commands, lines(node.get("lines"), commands.size()), timing != null && timing.booleanValue(),
                events != null && events.textValue().equals("grouped"));
    }

    private static long[] lines(JsonNode lines, int commands) throws ProtocolException {
        if (lines == null || lines.isNull()) {
            return null;
        }
        if (!lines.isArray() || lines.size() != commands) {
            throw new ProtocolException(Code.BAD_REQUEST, "lines must be an array with one integer per command ("
                    + commands + ")");
        }
        long[] result = new long[commands];
        for (int i = 0; i < commands; i++) {
            JsonNode line = lines.get(i);
            if (!line.isIntegralNumber() || !line.canConvertToLong() || line.longValue() < 0) {
                throw new ProtocolException(Code.BAD_REQUEST, "lines[" + i + "] must be an integer >= 0, was " + JsonProblems.show(line));
            }
            result[i] = line.longValue();
        }
        return result;
    }
}

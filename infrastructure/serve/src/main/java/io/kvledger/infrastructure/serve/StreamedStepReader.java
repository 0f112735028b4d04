package io.kvledger.infrastructure.serve;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvledger.domain.UnicodeText;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.AppendTokens;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.scenario.ScenarioReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a well-formed step request token by token, without building its tree: the tree of a 256-request
 * step was a third of the server's time and most of its allocation. The compact commands a host sends every
 * step (append, compute, allocate, complete, register, match) are built straight from their tokens; any other
 * command, and a compact one whose values are not of the plain shape, is read from its own bytes by the
 * scenario's parser, as the tree would have it. Whatever else a line holds (a hello, a refusal, bad JSON) gives {@code null}, and
 * {@link RequestReader} reads the whole line again its general way, so an answer never depends on which
 * reader read it ({@code StreamedStepReaderTest} holds the two to the same result).
 */
final class StreamedStepReader {

    private static final ObjectMapper MAPPER = EventJson.mapper();

    /** A value not of the plain shape: thrown without a stack trace, caught in this class. */
    private static final class NotPlain extends Exception {
        NotPlain() {
            super(null, null, false, false);
        }
    }

    private static final NotPlain NOT_PLAIN = new NotPlain();

    private final byte[] line;
    private final int length;
    private final boolean groups;
    private final EngineConfig config;
    private JsonParser parser;
    private int depth;

    private StreamedStepReader(byte[] line, int length, EngineConfig config) {
        this.line = line;
        this.length = length;
        this.config = config;
        this.groups = config != null && config.groups() != null;
    }

    /** The step {@code line} asks for, or {@code null} when it needs the general reader. */
    static Request.Step read(byte[] line, int length, EngineConfig config) {
        try {
            return new StreamedStepReader(line, length, config).step();
        } catch (IOException | RuntimeException | NotPlain e) {
            return null;
        }
    }

    private Request.Step step() throws IOException, NotPlain {
        try (JsonParser p = MAPPER.createParser(line, 0, length)) {
            parser = p;
            expect(p.nextToken() == JsonToken.START_OBJECT);
            List<EngineCommand> commands = null;
            long[] lines = null;
            boolean timing = false;
            boolean grouped = false;
            for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "step" -> commands = commands(value);
                    case "lines" -> lines = lines(value);
                    case "timing" -> {
                        expect(value == JsonToken.VALUE_TRUE || value == JsonToken.VALUE_FALSE);
                        timing = value == JsonToken.VALUE_TRUE;
                    }
                    case "events" -> {
                        expect(value == JsonToken.VALUE_STRING);
                        String events = p.getText();
                        expect(events.equals("all") || events.equals("grouped"));
                        grouped = events.equals("grouped");
                    }
                    default -> p.skipChildren(); // ignored, as the general reader ignores it beside a step
                }
            }
            expect(commands != null && p.nextToken() == null);
            expect(lines == null || lines.length == commands.size());
            return new Request.Step(commands, lines, timing, grouped);
        }
    }

    private List<EngineCommand> commands(JsonToken array) throws IOException, NotPlain {
        expect(array == JsonToken.START_ARRAY);
        List<EngineCommand> commands = new ArrayList<>(1024);
        for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
            if (t == JsonToken.START_OBJECT) {
                int start = (int) parser.currentTokenLocation().getByteOffset();
                parser.skipChildren();
                commands.add(ScenarioReader.command(treeFrom(start), config));
            } else {
                expect(t == JsonToken.START_ARRAY);
                commands.add(compact());
            }
        }
        return commands;
    }

    /** One compact command, the parser on its {@code [}; at its {@code ]} after. */
    private EngineCommand compact() throws IOException, NotPlain {
        int start = (int) parser.currentTokenLocation().getByteOffset();
        depth = 1;
        try {
            return plain();
        } catch (NotPlain e) {
            skipRest();
            return ScenarioReader.command(CompactCommand.toObject(treeFrom(start)), config);
        }
    }

    /** The tree of the value from {@code start} to where the parser is (its last token read). */
    private JsonNode treeFrom(int start) throws IOException {
        int end = (int) parser.currentLocation().getByteOffset();
        return EventJson.readTree(line, start, end - start);
    }

    /** The command's values after its name, each of its plain type, then its {@code ]}. */
    private EngineCommand plain() throws IOException, NotPlain {
        if (parser.nextToken() != JsonToken.VALUE_STRING) {
            throw NOT_PLAIN;
        }
        switch (parser.getText()) {
            case "AppendTokens" -> {
                return closed(new AppendTokens(requestId(), ints()));
            }
            case "ComputeTokens" -> {
                return closed(new ComputeTokens(requestId(), intValue(parser.nextToken())));
            }
            case "AllocateBlocks" -> {
                expect(!groups); // per-group block ids: the scenario's parser reads them with the config
                String requestId = requestId();
                List<Integer> blockIds = ints();
                return new AllocateBlocks(requestId, blockIds, lastOr(0));
            }
            case "CompleteTransfer" -> {
                long jobId = longInteger();
                JsonToken t = parser.nextToken();
                if (t == JsonToken.END_ARRAY) {
                    return new CompleteTransfer(jobId, true);
                }
                expect(t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE);
                return closed(new CompleteTransfer(jobId, t == JsonToken.VALUE_TRUE));
            }
            case "RegisterRequest" -> {
                return closed(new RegisterRequest(requestId(), ints()));
            }
            case "MatchPrefix" -> {
                String requestId = requestId();
                return new MatchPrefix(requestId, lastOr(0));
            }
            default -> throw NOT_PLAIN;
        }
    }

    /** {@code command} once its {@code ]} follows. */
    private EngineCommand closed(EngineCommand command) throws IOException, NotPlain {
        expect(parser.nextToken() == JsonToken.END_ARRAY);
        return command;
    }

    /** An optional last value: the command's {@code ]}, or one integer then it. */
    private int lastOr(int defaultValue) throws IOException, NotPlain {
        JsonToken t = parser.nextToken();
        if (t == JsonToken.END_ARRAY) {
            return defaultValue;
        }
        int value = intValue(t);
        expect(parser.nextToken() == JsonToken.END_ARRAY);
        return value;
    }

    private String requestId() throws IOException, NotPlain {
        expect(parser.nextToken() == JsonToken.VALUE_STRING);
        String id = parser.getText();
        expect(UnicodeText.isWellFormed(id));
        return id;
    }

    private int intValue(JsonToken t) throws IOException, NotPlain {
        expect(t == JsonToken.VALUE_NUMBER_INT && parser.getNumberType() == JsonParser.NumberType.INT);
        return parser.getIntValue();
    }

    private long longInteger() throws IOException, NotPlain {
        expect(parser.nextToken() == JsonToken.VALUE_NUMBER_INT
                && parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER);
        return parser.getLongValue();
    }

    private List<Integer> ints() throws IOException, NotPlain {
        expect(parser.nextToken() == JsonToken.START_ARRAY);
        depth = 2;
        List<Integer> values = new ArrayList<>();
        for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
            values.add(intValue(t));
        }
        depth = 1;
        return values;
    }

    /** After a value not of the plain shape: on to the command's {@code ]}. */
    private void skipRest() throws IOException {
        JsonToken t = parser.currentToken();
        if (t == JsonToken.START_ARRAY || t == JsonToken.START_OBJECT) {
            parser.skipChildren(); // a container where a plain value was expected: not one counted in depth
        } else if (t == JsonToken.END_ARRAY) {
            depth--;
        }
        while (depth > 0) {
            t = parser.nextToken();
            if (t == null) {
                throw new IOException("the line ended inside a command");
            }
            if (t == JsonToken.START_ARRAY || t == JsonToken.START_OBJECT) {
                parser.skipChildren();
            } else if (t == JsonToken.END_ARRAY) {
                depth--;
            }
        }
    }

    private long[] lines(JsonToken array) throws IOException, NotPlain {
        if (array == JsonToken.VALUE_NULL) {
            return null;
        }
        expect(array == JsonToken.START_ARRAY);
        long[] lines = new long[1024];
        int n = 0;
        for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
            long value = t == JsonToken.VALUE_NUMBER_INT && parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER
                    ? parser.getLongValue() : -1;
            expect(value >= 0);
            if (n == lines.length) {
                lines = java.util.Arrays.copyOf(lines, n * 2);
            }
            lines[n++] = value;
        }
        return java.util.Arrays.copyOf(lines, n);
    }

    private static void expect(boolean condition) throws NotPlain {
        if (!condition) {
            throw NOT_PLAIN;
        }
    }
}

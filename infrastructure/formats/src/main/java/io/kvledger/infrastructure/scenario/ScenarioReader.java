package io.kvledger.infrastructure.scenario;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.json.JsonProblems;
import io.kvledger.infrastructure.json.Utf8Lines;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a scenario (contract section 2) one line at a time, so a long scenario is never held in
 * memory. Blank lines are skipped; the first non-blank line may be the config line.
 */
public final class ScenarioReader {

    private final Utf8Lines lines;
    private boolean seenNonBlank;
    /** The config line's, once read: its groups decide how commands are read. */
    private io.kvledger.domain.config.EngineConfig config;
    /** The config of a scenario without a config line (a resumed store's), asked for at its first command line. */
    private java.util.function.Supplier<io.kvledger.domain.config.EngineConfig> withoutConfigLine;

    /** Told of each unknown field name once (its first line), or {@code null}. */
    private java.util.function.Consumer<UnknownField> unknownFields;
    private final java.util.Set<String> reportedFields = new java.util.HashSet<>();

    public ScenarioReader(InputStream in) {
        this.lines = new Utf8Lines(in);
    }

    /**
     * Reads the commands of a scenario that has no config line in {@code config}'s shapes (a run that
     * continues a store uses the stored config): asked for once, when the first line that is not a config
     * line is read, so that a grouped store's commands (per-group fields, {@code FreeWindowBlocks}) read as
     * they would after its config line. Without it such a scenario's commands are read without groups.
     */
    public void whenNoConfigLine(java.util.function.Supplier<io.kvledger.domain.config.EngineConfig> config) {
        this.withoutConfigLine = config;
    }

    /**
     * Tells {@code listener} of the first line that gives each field name its command does not know
     * (ignored, contract section 4; a warning for a user, e.g. of a misspelling): once per name per scenario.
     */
    public void onUnknownField(java.util.function.Consumer<UnknownField> listener) {
        this.unknownFields = listener;
    }

    /** The next non-blank line, or {@code null} at the end. */
    public ScenarioLine next() throws IOException, MalformedLineException {
        String text;
        while ((text = nextText()) != null) {
            if (!text.isBlank()) {
                boolean first = !seenNonBlank;
                seenNonBlank = true;
                ScenarioLine line = parse(lines.number(), text, first);
                if (line instanceof ScenarioLine.Config c) {
                    config = c.config();
                }
                return line;
            }
        }
        return null;
    }

    private String nextText() throws IOException, MalformedLineException {
        try {
            return lines.next();
        } catch (Utf8Lines.InvalidUtf8Exception e) {
            throw new MalformedLineException(e.line(), "not valid UTF-8");
        } catch (Utf8Lines.LineTooLongException e) {
            throw new MalformedLineException(e.line(), e.reason());
        }
    }

    /**
     * A command line's command, as {@link #next} would read it: a known command whose fields are bad is an
     * {@code InvalidCommand} (rejected when run).
     *
     * @throws IllegalArgumentException when {@code cmd} is missing or unknown (a malformed line)
     */
    public static io.kvledger.domain.command.EngineCommand command(JsonNode node) {
        return CommandParser.parse(node);
    }

    /** A command line's command in a scenario of {@code config}, whose groups decide how it is read. */
    public static io.kvledger.domain.command.EngineCommand command(JsonNode node, io.kvledger.domain.config.EngineConfig config) {
        return CommandParser.parse(node, config);
    }

    /**
     * The value of a config line's {@code config} field, as {@link #next} would read it.
     *
     * @throws IllegalArgumentException naming the bad field when it is not a valid config
     */
    public static io.kvledger.domain.config.EngineConfig config(JsonNode config) {
        return ConfigParser.parse(config);
    }

    private ScenarioLine parse(long line, String text, boolean first) throws MalformedLineException {
        JsonNode node;
        try {
            node = EventJson.readTree(text);
        } catch (JsonProcessingException e) {
            throw new MalformedLineException(line, JsonProblems.parseFailure(text, e));
        }
        if (node == null || !node.isObject()) {
            throw new MalformedLineException(line, "not a JSON object");
        }
        if (node.size() == 1 && node.has("config")) {
            if (!first) {
                throw new MalformedLineException(line, "a config line must be the first non-blank line", true);
            }
            try {
                return new ScenarioLine.Config(line, ConfigParser.parse(node.get("config")));
            } catch (IllegalArgumentException e) {
                throw new MalformedLineException(line, e.getMessage(), true);
            }
        }
        if (first && withoutConfigLine != null) {
            config = withoutConfigLine.get();
        }
        try {
            return new ScenarioLine.Command(line, CommandParser.parse(node, config, unknownFields == null ? null
                    : (field, known) -> {
                        if (reportedFields.add(field)) {
                            unknownFields.accept(UnknownField.of(line, node.get("cmd").textValue(), field, known));
                        }
                    }));
        } catch (IllegalArgumentException e) {
            throw new MalformedLineException(line, e.getMessage());
        }
    }
}

package io.kvledger.testkit.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * An expectation file (contract section 6) checked against a run's event log and exit status:
 * {@code match} (the next event after the previous match that has all the given fields), {@code none},
 * {@code count} with {@code n}, and {@code exit}.
 */
public final class Expectations {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Numbers compare by value, so {@code 1} and {@code 1L} are equal however they were parsed. */
    private static final Comparator<JsonNode> BY_VALUE = (a, b) -> {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue());
        }
        return a.equals(b) ? 0 : 1;
    };

    private final List<JsonNode> checks;

    private Expectations(List<JsonNode> checks) {
        this.checks = checks;
    }

    /** Reads an expectation file, one check a non-blank line. */
    public static Expectations read(Path file) throws IOException {
        List<JsonNode> checks = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                checks.add(MAPPER.readTree(line));
            }
        }
        return new Expectations(checks);
    }

    /** Reads an event log, one JSON object a line. */
    public static List<JsonNode> readLog(Path log) throws IOException {
        List<JsonNode> events = new ArrayList<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            events.add(MAPPER.readTree(line));
        }
        return events;
    }

    /** Every failed check, each naming its line of the expectation file; empty when all hold. */
    public List<String> failures(List<JsonNode> events, int exitCode) {
        List<String> failures = new ArrayList<>();
        int next = 0;
        for (int i = 0; i < checks.size(); i++) {
            JsonNode check = checks.get(i);
            String where = "expectation line " + (i + 1) + " " + check + ": ";
            if (check.has("match")) {
                int found = indexOfMatch(events, check.get("match"), next);
                if (found < 0) {
                    failures.add(where + "no matching event after seq " + next);
                } else {
                    next = found + 1;
                }
            } else if (check.has("none")) {
                int found = indexOfMatch(events, check.get("none"), 0);
                if (found >= 0) {
                    failures.add(where + "matched " + events.get(found));
                }
            } else if (check.has("count")) {
                long count = events.stream().filter(e -> matches(e, check.get("count"))).count();
                if (count != check.get("n").asLong()) {
                    failures.add(where + "counted " + count);
                }
            } else if (check.has("exit")) {
                if (exitCode != check.get("exit").asInt()) {
                    failures.add(where + "exit was " + exitCode);
                }
            } else {
                failures.add(where + "unknown kind of check");
            }
        }
        return failures;
    }

    private static int indexOfMatch(List<JsonNode> events, JsonNode pattern, int from) {
        for (int i = from; i < events.size(); i++) {
            if (matches(events.get(i), pattern)) {
                return i;
            }
        }
        return -1;
    }

    /** The event has every field of the pattern with an equal value; lists and objects compare whole. */
    public static boolean matches(JsonNode event, JsonNode pattern) {
        Iterator<Map.Entry<String, JsonNode>> fields = pattern.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            JsonNode actual = event.get(field.getKey());
            if (actual == null || !actual.equals(BY_VALUE, field.getValue())) {
                return false;
            }
        }
        return true;
    }
}

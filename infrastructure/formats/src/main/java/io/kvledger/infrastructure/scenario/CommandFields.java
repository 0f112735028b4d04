package io.kvledger.infrastructure.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.domain.UnicodeText;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.InvalidCommand;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.infrastructure.json.EnumNames;
import io.kvledger.infrastructure.json.JsonProblems;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads the fields of one command line by type. A field that is missing or not of its type does not
 * stop the reading: the first such problem is kept, and the command becomes an {@link InvalidCommand}
 * for the decision to reject with {@code INVALID_ARGUMENT} in its turn. Ranges (counts above zero,
 * non-negative ids) are the decision's to check.
 */
public final class CommandFields {

    private final JsonNode node;
    private final String name;
    private final int configuredGroups;
    private String problem;
    private String requestId;
    /** The fields this command's reader asked for: the command's known fields, whether the line gives them or not. */
    private final List<String> known = new ArrayList<>(4);

    CommandFields(JsonNode node, String name) {
        this(node, name, 0);
    }

    /** @param configuredGroups the number of groups the config gives; 0 when it gives no {@code groups} */
    CommandFields(JsonNode node, String name, int configuredGroups) {
        this.node = node;
        this.name = name;
        this.configuredGroups = configuredGroups;
    }

    /** The field, or {@code null} when the line has none; remembered as a field this command knows. */
    private JsonNode get(String field) {
        if (!known.contains(field)) {
            known.add(field);
        }
        return node.get(field);
    }

    /** The fields the command's reader asked for, in the order asked. */
    List<String> known() {
        return known;
    }

    String requestId() {
        JsonNode value = get("requestId");
        if (value == null) {
            fail("requestId is missing");
        } else if (!value.isTextual()) {
            fail("requestId must be a string, was " + JsonProblems.show(value));
        } else if (!UnicodeText.isWellFormed(value.textValue())) {
            fail(UnicodeText.problem("requestId", value.textValue()));
        } else {
            requestId = value.textValue();
        }
        return requestId;
    }

    int requiredInt(String field) {
        JsonNode value = get(field);
        if (value == null) {
            fail(field + " is missing");
            return 0;
        }
        return toInt(field, value);
    }

    /** An optional field may be absent, never {@code null}. */
    int optionalInt(String field, int defaultValue) {
        JsonNode value = get(field);
        return value == null ? defaultValue : toInt(field, value);
    }

    /**
     * An optional integer with no default (contract 9.1's counts): {@code null} when absent; a JSON {@code null}
     * or a value that is not an integer is a bad field. Its range is the decision's to check.
     */
    Integer optionalInteger(String field) {
        JsonNode value = get(field); // a known field: read, never named unknown
        if (value == null) {
            return null;
        }
        if (value.isNull()) {
            fail(field + " must be an integer >= 0 when given, was null");
            return null;
        }
        Optional<String> problem = JsonProblems.integerProblem(field, value, Integer.MIN_VALUE, Integer.MAX_VALUE);
        if (problem.isPresent()) {
            fail(problem.get());
            return null;
        }
        return value.intValue();
    }

    /** An optional flag with no default (contract 9.1's): {@code null} when absent; anything but true or false is bad. */
    Boolean optionalFlag(String field) {
        JsonNode value = get(field);
        if (value == null) {
            return null;
        }
        if (!value.isBoolean()) {
            fail(field + " must be true or false when given, was " + JsonProblems.show(value));
            return null;
        }
        return value.booleanValue();
    }

    long requiredLong(String field) {
        JsonNode value = get(field);
        if (value == null) {
            fail(field + " is missing");
            return 0;
        }
        Optional<String> problem = JsonProblems.integerProblem(field, value, Long.MIN_VALUE, Long.MAX_VALUE);
        if (problem.isPresent()) {
            fail(problem.get());
            return 0;
        }
        return value.longValue();
    }

    boolean optionalBoolean(String field, boolean defaultValue) {
        JsonNode value = get(field);
        if (value == null) {
            return defaultValue;
        }
        if (!value.isBoolean()) {
            fail(field + " must be true or false, was " + JsonProblems.show(value));
            return defaultValue;
        }
        return value.booleanValue();
    }

    List<Integer> intArray(String field) {
        JsonNode value = get(field);
        if (value == null) {
            fail(field + " is missing");
            return List.of();
        }
        if (!value.isArray()) {
            fail(field + " must be an array of integers, was " + JsonProblems.show(value));
            return List.of();
        }
        List<Integer> values = new ArrayList<>(value.size());
        for (int i = 0; i < value.size(); i++) {
            values.add(toInt(field + "[" + i + "]", value.get(i)));
        }
        return values;
    }

    /**
     * A per-group field of block ids (contract section 7.2): without {@code groups} exactly {@link #intArray};
     * with one group a flat array, with {@code G} >= 2 an array of {@code G} arrays. Entries are integers or
     * {@code null} (where a null block may stand is the decision's rule); the number of lists too, for a
     * list of lists.
     */
    PerGroup<Integer> perGroupIds(String field) {
        if (configuredGroups == 0) {
            return PerGroup.single(intArray(field));
        }
        JsonNode value = get(field);
        if (value == null) {
            fail(field + " is missing");
            return PerGroup.emptySingle();
        }
        if (configuredGroups == 1) {
            if (!value.isArray()) {
                fail(field + " must be an array of block ids, was " + JsonProblems.show(value));
                return PerGroup.emptySingle();
            }
            return PerGroup.single(idsOrNulls(field, value));
        }
        if (!value.isArray() || value.isEmpty()) {
            fail(field + " must be a list of " + configuredGroups + " lists (one per group), was " + JsonProblems.show(value));
            return PerGroup.emptySingle();
        }
        List<List<Integer>> lists = new ArrayList<>(value.size());
        for (int g = 0; g < value.size(); g++) {
            JsonNode list = value.get(g);
            if (!list.isArray()) {
                fail(field + "[" + g + "] must be a list of block ids (one list per group), was " + JsonProblems.show(list));
                return PerGroup.emptySingle();
            }
            lists.add(idsOrNulls(field + "[" + g + "]", list));
        }
        return PerGroup.of(lists);
    }

    private List<Integer> idsOrNulls(String field, JsonNode list) {
        List<Integer> values = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            JsonNode entry = list.get(i);
            values.add(entry.isNull() ? null : toInt(field + "[" + i + "]", entry));
        }
        return values;
    }

    FinishReason reason() {
        JsonNode value = get("reason");
        if (value == null) {
            fail("reason is missing");
            return null;
        }
        Optional<FinishReason> reason = EnumNames.parse(FinishReason.class, value);
        if (reason.isPresent()) {
            return reason.get();
        }
        fail("reason must be " + EnumNames.quoted(FinishReason.class) + ", was " + JsonProblems.show(value));
        return null;
    }

    /** The command read, or an {@code InvalidCommand} when a field was bad (its placeholder values unused). */
    EngineCommand build(EngineCommand command) {
        return valid() ? command : invalid();
    }

    boolean valid() {
        return problem == null;
    }

    InvalidCommand invalid() {
        return new InvalidCommand(name, requestId, problem, echo(node.get("requestId")), echo(node.get("jobId")));
    }

    private int toInt(String field, JsonNode value) {
        Optional<String> problem = JsonProblems.integerProblem(field, value, Integer.MIN_VALUE, Integer.MAX_VALUE);
        if (problem.isPresent()) {
            fail(problem.get());
            return 0;
        }
        return value.intValue();
    }

    private void fail(String message) {
        if (problem == null) {
            problem = UnicodeText.escapeLoneSurrogates(message);
        }
    }

    /** An id is repeated in a rejection when it was given as a string or an integer. */
    private static Object echo(JsonNode value) {
        if (value == null) {
            return null;
        }
        if (value.isTextual()) {
            return UnicodeText.isWellFormed(value.textValue()) ? value.textValue() : null;
        }
        if (value.isIntegralNumber()) {
            return value.canConvertToLong() ? (Object) value.longValue() : value.bigIntegerValue();
        }
        return null;
    }
}

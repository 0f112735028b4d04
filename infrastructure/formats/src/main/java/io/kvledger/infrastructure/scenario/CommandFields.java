package io.kvledger.infrastructure.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.InvalidCommand;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the fields of one command line by type. A field that is missing or not of its type does not
 * stop the reading: the first such problem is kept, and the command becomes an {@link InvalidCommand}
 * for the decision to reject with {@code INVALID_ARGUMENT} in its turn. Ranges (counts above zero,
 * non-negative ids) are the decision's to check.
 */
final class CommandFields {

    private final JsonNode node;
    private final String name;
    private String problem;
    private String requestId;

    CommandFields(JsonNode node, String name) {
        this.node = node;
        this.name = name;
    }

    String requestId() {
        JsonNode value = node.get("requestId");
        if (value == null) {
            fail("requestId is missing");
        } else if (!value.isTextual()) {
            fail("requestId must be a string, was " + value);
        } else {
            requestId = value.textValue();
        }
        return requestId;
    }

    int requiredInt(String field) {
        JsonNode value = node.get(field);
        if (value == null) {
            fail(field + " is missing");
            return 0;
        }
        return toInt(field, value);
    }

    /** An optional field may be absent, never {@code null}. */
    int optionalInt(String field, int defaultValue) {
        JsonNode value = node.get(field);
        return value == null ? defaultValue : toInt(field, value);
    }

    long requiredLong(String field) {
        JsonNode value = node.get(field);
        if (value == null) {
            fail(field + " is missing");
            return 0;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            fail(field + " must be an integer, was " + value);
            return 0;
        }
        return value.longValue();
    }

    boolean optionalBoolean(String field, boolean defaultValue) {
        JsonNode value = node.get(field);
        if (value == null) {
            return defaultValue;
        }
        if (!value.isBoolean()) {
            fail(field + " must be true or false, was " + value);
            return defaultValue;
        }
        return value.booleanValue();
    }

    List<Integer> intArray(String field) {
        JsonNode value = node.get(field);
        if (value == null) {
            fail(field + " is missing");
            return List.of();
        }
        if (!value.isArray()) {
            fail(field + " must be an array of integers, was " + value);
            return List.of();
        }
        List<Integer> values = new ArrayList<>(value.size());
        for (int i = 0; i < value.size(); i++) {
            values.add(toInt(field + "[" + i + "]", value.get(i)));
        }
        return values;
    }

    FinishReason reason() {
        JsonNode value = node.get("reason");
        if (value == null) {
            fail("reason is missing");
            return null;
        }
        if (value.isTextual()) {
            for (FinishReason reason : FinishReason.values()) {
                if (reason.name().equals(value.textValue())) {
                    return reason;
                }
            }
        }
        fail("reason must be \"STOPPED\" or \"LENGTH\", was " + value);
        return null;
    }

    boolean valid() {
        return problem == null;
    }

    InvalidCommand invalid() {
        return new InvalidCommand(name, requestId, problem, echo(node.get("requestId")), echo(node.get("jobId")));
    }

    private int toInt(String field, JsonNode value) {
        if (!value.isIntegralNumber()) {
            fail(field + " must be an integer, was " + value);
            return 0;
        }
        if (!value.canConvertToInt()) {
            fail(field + " is out of range: " + value);
            return 0;
        }
        return value.intValue();
    }

    private void fail(String message) {
        if (problem == null) {
            problem = message;
        }
    }

    /** An id is repeated in a rejection when it was given as a string or an integer. */
    private static Object echo(JsonNode value) {
        if (value == null) {
            return null;
        }
        if (value.isTextual()) {
            return value.textValue();
        }
        if (value.isIntegralNumber()) {
            return value.canConvertToLong() ? (Object) value.longValue() : value.bigIntegerValue();
        }
        return null;
    }
}

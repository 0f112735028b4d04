package io.kvledger.infrastructure.log;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** The JSON shape a required field of a log line must have (contract section 3); an {@link #ID} names something, so it is never empty. */
enum FieldKind {
    STRING, ID, INT, LONG, BOOLEAN, NULLABLE_INT, COUNT, INT_ARRAY, LONG_ARRAY, STRING_ARRAY, ENUM;

    /** Whether {@code value} has this shape; {@code allowed} lists the names of an {@link #ENUM}. */
    boolean accepts(JsonNode value, List<String> allowed) {
        return switch (this) {
            case STRING -> value.isTextual();
            case ID -> value.isTextual() && !value.textValue().isEmpty();
            case INT -> isInt(value);
            case LONG -> value.isIntegralNumber() && value.canConvertToLong();
            case BOOLEAN -> value.isBoolean();
            case NULLABLE_INT -> value.isNull() || isInt(value);
            case COUNT -> isInt(value) && value.intValue() >= 0;
            case INT_ARRAY -> allElements(value, FieldKind::isInt);
            case LONG_ARRAY -> allElements(value, v -> v.isIntegralNumber() && v.canConvertToLong());
            case STRING_ARRAY -> allElements(value, JsonNode::isTextual);
            case ENUM -> value.isTextual() && allowed.contains(value.textValue());
        };
    }

    /** Whether {@code item} is an element this array kind holds. */
    boolean acceptsElement(JsonNode item) {
        return switch (this) {
            case INT_ARRAY -> isInt(item);
            case LONG_ARRAY -> item.isIntegralNumber() && item.canConvertToLong();
            case STRING_ARRAY -> item.isTextual();
            default -> false;
        };
    }

    String describe(List<String> allowed) {
        return switch (this) {
            case STRING -> "a string";
            case ID -> "a non-empty string";
            case INT -> "an integer";
            case LONG -> "an integer";
            case BOOLEAN -> "true or false";
            case NULLABLE_INT -> "an integer or null";
            case COUNT -> "an integer >= 0";
            case INT_ARRAY -> "an array of integers";
            case LONG_ARRAY -> "an array of integers";
            case STRING_ARRAY -> "an array of strings";
            case ENUM -> "one of " + allowed;
        };
    }

    private static boolean isInt(JsonNode value) {
        return value.isIntegralNumber() && value.canConvertToInt();
    }

    private static boolean allElements(JsonNode value, java.util.function.Predicate<JsonNode> element) {
        if (!value.isArray()) {
            return false;
        }
        for (JsonNode item : value) {
            if (!element.test(item)) {
                return false;
            }
        }
        return true;
    }
}

package io.kvledger.infrastructure.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.kvledger.domain.UnicodeText;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * What is wrong with a line, in the user's words rather than the parser's: shared by every reader
 * (scenario, event log, store) so that each says the same thing about the same input. No message
 * names a Jackson class or feature; a value is shown as written (never {@code Infinity}), shortened
 * when long, with lone surrogates escaped.
 */
public final class JsonProblems {

    private static final int SHOWN_CHARS = 80;

    private JsonProblems() {
    }

    /** Why {@code text} did not parse. */
    public static String parseFailure(String text, JsonProcessingException e) {
        if (hasBareCarriageReturn(text)) {
            return "holds a carriage return (CR) that ends no line: lines must end with LF or CRLF, and a file"
                    + " with CR-only line ends reads as one line";
        }
        if (e instanceof StreamConstraintsException) {
            return "valid JSON perhaps, but over the reader's limit: " + limit(e.getOriginalMessage());
        }
        String original = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        if (e instanceof MismatchedInputException && original.contains("Trailing token")) {
            return "more than one JSON value on the line (one line holds one JSON object)";
        }
        return "not valid JSON" + column(e) + ": " + expected(original);
    }

    /** Where on the line the parser stopped: " at column N" (1-based), or nothing when it does not say. */
    private static String column(JsonProcessingException e) {
        int column = e.getLocation() == null ? -1 : e.getLocation().getColumnNr();
        return column > 0 ? " at column " + column : "";
    }

    /** What the parser found and expected, in the product's words: no parser feature, class or source names. */
    private static String expected(String original) {
        java.util.regex.Matcher token = java.util.regex.Pattern.compile("Non-standard token '([^']*)'").matcher(original);
        if (token.find()) {
            return "'" + token.group(1) + "' is not a JSON value (JSON has no NaN or Infinity; write a number)";
        }
        if (original.contains("maybe a (non-standard) comment")) {
            return "a comment: JSON has none (one line holds one JSON object)";
        }
        if (original.startsWith("Unexpected end-of-input")) {
            return "the line ends inside a JSON value (a closing bracket or brace is missing)";
        }
        java.util.regex.Matcher unrecognized = java.util.regex.Pattern.compile("Unrecognized token '([^']*)'").matcher(original);
        if (unrecognized.find()) {
            return "unrecognized token '" + unrecognized.group(1) + "', expected a string, number, array, object,"
                    + " true, false or null";
        }
        java.util.regex.Matcher character = java.util.regex.Pattern
                .compile("Unexpected character \\('(.*?)' \\(code \\d+\\)\\)(?:: was expecting (.*))?").matcher(original);
        if (character.find()) {
            String expecting = character.group(2) == null ? "" : ", expected " + character.group(2)
                    .replaceAll("\\s*\\(for [^)]*\\)", "").replace("double-quote", "a double quote (\\\")");
            return "unexpected character '" + character.group(1) + "'" + expecting;
        }
        return clean(original);
    }

    /** Why a parsed tree could not be bound to a type, without the binder's internals. */
    public static String bindFailure(JsonProcessingException e) {
        return clean(e.getOriginalMessage() == null ? e.getClass().getSimpleName() : e.getOriginalMessage());
    }

    /** A value for a message: as written, shortened past a few dozen characters. */
    public static String show(JsonNode value) {
        String text = value.isBigDecimal() && value.decimalValue() instanceof WrittenNumbers.Written written ? written.text()
                : value.isBigDecimal() ? value.decimalValue().toString() : value.toString();
        text = UnicodeText.escapeLoneSurrogates(text);
        return text.length() <= SHOWN_CHARS ? text
                : text.substring(0, SHOWN_CHARS) + "... (" + text.length() + " characters)";
    }

    /**
     * Why {@code value} is not an integer within {@code [min, max]}, or empty when it is one: a whole number
     * too large is "out of range", not "not an integer".
     */
    public static Optional<String> integerProblem(String field, JsonNode value, long min, long max) {
        if (!value.isIntegralNumber()) {
            if (value.isNumber() && isWhole(value)) {
                return Optional.of(field + " must be an integer (without a fraction or exponent), was " + show(value));
            }
            return Optional.of(field + " must be an integer, was " + show(value));
        }
        if (!value.canConvertToLong() || value.longValue() < min || value.longValue() > max) {
            return Optional.of(field + " is out of range (" + min + " to " + max + "), was " + show(value));
        }
        return Optional.empty();
    }

    /** The first string (value or field name) of {@code node} that is not well-formed Unicode, as a message. */
    public static Optional<String> illFormedString(JsonNode node) {
        return illFormed(node, "");
    }

    private static Optional<String> illFormed(JsonNode node, String path) {
        if (node.isTextual()) {
            return UnicodeText.isWellFormed(node.textValue()) ? Optional.empty()
                    : Optional.of(UnicodeText.problem(path.isEmpty() ? "a string" : path, node.textValue()));
        }
        if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                String name = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
                if (!UnicodeText.isWellFormed(field.getKey())) {
                    return Optional.of(UnicodeText.problem("a field name", field.getKey()));
                }
                Optional<String> inner = illFormed(field.getValue(), name);
                if (inner.isPresent()) {
                    return inner;
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                Optional<String> inner = illFormed(node.get(i), path + "[" + i + "]");
                if (inner.isPresent()) {
                    return inner;
                }
            }
        }
        return Optional.empty();
    }

    private static boolean isWhole(JsonNode value) {
        if (value.isBigDecimal()) {
            java.math.BigDecimal decimal = value.decimalValue();
            return decimal.signum() == 0 || decimal.scale() <= 0 || decimal.stripTrailingZeros().scale() <= 0;
        }
        double d = value.doubleValue();
        return !Double.isInfinite(d) && d == Math.rint(d);
    }

    private static boolean hasBareCarriageReturn(String text) {
        for (int i = text.indexOf('\r'); i >= 0; i = text.indexOf('\r', i + 1)) {
            if (i + 1 >= text.length() || text.charAt(i + 1) != '\n') {
                return true;
            }
        }
        return false;
    }

    /** A constraint's message without the parser's setting names, its figures kept: "... (1001) exceeds the maximum allowed (1000)". */
    private static String limit(String message) {
        String text = message == null ? "a size limit" : message;
        text = text.replaceAll(",? from `?StreamReadConstraints\\.\\w+\\(\\)`?", "");
        return UnicodeText.escapeLoneSurrogates(text.replace("StreamReadConstraints", "the reader"));
    }

    private static String clean(String message) {
        String text = message;
        int newline = text.indexOf('\n');
        if (newline >= 0) {
            text = text.substring(0, newline);
        }
        text = text.replaceAll("\\s*\\(for [^)]*\\)", "");
        text = text.replaceAll(" *\\(through reference chain[^)]*\\)", "");
        text = text.replaceAll("; ?disable `?\\w+\\.\\w+`?[^;)]*", "");
        text = text.replace("JsonReadFeature.", "").replace("DeserializationFeature.", "");
        text = text.replaceAll(" ?\\[Source: [^\\]]*\\]", "").replaceAll("\\(start marker at\\s*\\)", "");
        text = text.replaceAll(" ?\\(code \\d+\\)", "").replaceAll(" ?\\(not recognized as one since Feature '\\w+' not enabled for parser\\)", "");
        text = text.replaceAll(":? ?enable `?[\\w.]+`? to allow", "");
        if (text.length() > 200) {
            text = text.substring(0, 200) + "...";
        }
        return UnicodeText.escapeLoneSurrogates(text.strip());
    }
}

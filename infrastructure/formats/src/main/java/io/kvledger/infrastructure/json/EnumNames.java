package io.kvledger.infrastructure.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/** An enum's choices as a format reads and names them: from the enum itself, never a copied list. */
public final class EnumNames {

    private EnumNames() {
    }

    /** The constant named by a JSON string, or empty. */
    public static <E extends Enum<E>> Optional<E> parse(Class<E> type, JsonNode value) {
        if (value == null || !value.isTextual()) {
            return Optional.empty();
        }
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equals(value.textValue())) {
                return Optional.of(constant);
            }
        }
        return Optional.empty();
    }

    /** {@code "A", "B" or "C"}. */
    public static String quoted(Class<? extends Enum<?>> type) {
        String[] names = Arrays.stream(type.getEnumConstants()).map(c -> "\"" + c.name() + "\"").toArray(String[]::new);
        if (names.length == 1) {
            return names[0];
        }
        return Arrays.stream(names, 0, names.length - 1).collect(Collectors.joining(", ")) + " or " + names[names.length - 1];
    }
}

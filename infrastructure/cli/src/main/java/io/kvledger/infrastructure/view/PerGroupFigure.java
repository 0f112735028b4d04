package io.kvledger.infrastructure.view;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;

/**
 * A figure of a request that each KV cache group has its own of (its cursor, table, storable chunks, keys).
 * With one group the JSON is the value itself, as before groups; with two or more it is the list of values
 * in group order (contract section 7.9).
 *
 * @param values one per group, in group order (at least one)
 */
public record PerGroupFigure<T>(List<T> values) {

    public PerGroupFigure {
        values = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(values)); // a table may hold null
        if (values.isEmpty()) {
            throw new IllegalArgumentException("a per-group figure has at least one group");
        }
    }

    @JsonValue
    Object json() {
        return values.size() == 1 ? values.get(0) : values;
    }

    /** Group {@code g}'s value. */
    public T group(int g) {
        return values.get(g);
    }

    /** Group 0's value: the only one without groups. */
    public T first() {
        return values.get(0);
    }

    public int groupCount() {
        return values.size();
    }
}

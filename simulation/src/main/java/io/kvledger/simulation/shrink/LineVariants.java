package io.kvledger.simulation.shrink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Simpler versions of one command line, simplest first: each integer field smaller (0, half, one
 * less), each integer array shorter (half, one less) or with small values (0, 1, 2, ...), {@code success}
 * true. Which of them still shows the failure is the oracle's to say.
 */
final class LineVariants {

    private LineVariants() {
    }

    static List<ObjectNode> of(ObjectNode line) {
        Set<ObjectNode> variants = new LinkedHashSet<>();
        Iterator<Map.Entry<String, JsonNode>> fields = line.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            String name = field.getKey();
            JsonNode value = field.getValue();
            if (name.startsWith("_")) {
                continue; // the shrinker's own tags
            }
            if (value.isIntegralNumber() && value.canConvertToLong()) {
                long v = value.longValue();
                for (long smaller : new long[] {0, v / 2, v - 1}) {
                    if (smaller >= 0 && smaller < v) {
                        ObjectNode variant = line.deepCopy().put(name, smaller);
                        if (name.equals("jobId")) {
                            variant.remove(JobAnchors.JOB_OF); // a completion of another job: anchored anew if kept
                        }
                        variants.add(variant);
                    }
                }
            } else if (value.isArray() && allIntegers(value)) {
                int size = value.size();
                for (int shorter : new int[] {size / 2, size - 1}) {
                    if (shorter >= 1 && shorter < size) {
                        variants.add(withArray(line, name, prefix((ArrayNode) value, shorter)));
                    }
                }
                ArrayNode small = line.arrayNode();
                for (int i = 0; i < size; i++) {
                    small.add(i);
                }
                if (!small.equals(value)) {
                    variants.add(withArray(line, name, small));
                }
            } else if (value.isArray() && value.size() > 1 && perGroup(value)) {
                perGroupVariants(line, name, (ArrayNode) value, variants);
            } else if (value.isBoolean() && !value.booleanValue()) {
                variants.add(line.deepCopy().put(name, true));
            }
        }
        variants.remove(line);
        return new ArrayList<>(variants);
    }

    /**
     * A per-group field of a grouped scenario (contract 7.2): one list per group, entries integers or
     * {@code null}. Each group's list is shrunk on its own (shorter, to empty), so the field keeps its
     * {@code G} lists and its nulls where they were.
     */
    private static boolean perGroup(JsonNode array) {
        for (JsonNode list : array) {
            if (!list.isArray()) {
                return false;
            }
            for (JsonNode element : list) {
                if (!element.isIntegralNumber() && !element.isNull()) {
                    return false;
                }
            }
        }
        return true;
    }

    private static void perGroupVariants(ObjectNode line, String name, ArrayNode lists, Set<ObjectNode> variants) {
        for (int g = 0; g < lists.size(); g++) {
            ArrayNode list = (ArrayNode) lists.get(g);
            int size = list.size();
            for (int shorter : new int[] {0, size / 2, size - 1}) {
                if (shorter >= 0 && shorter < size) {
                    ArrayNode copy = lists.deepCopy();
                    copy.set(g, prefix(list, shorter));
                    variants.add(withArray(line, name, copy));
                }
            }
        }
    }

    private static boolean allIntegers(JsonNode array) {
        for (JsonNode element : array) {
            if (!element.isIntegralNumber()) {
                return false;
            }
        }
        return true;
    }

    private static ArrayNode prefix(ArrayNode array, int length) {
        ArrayNode prefix = array.arrayNode();
        for (int i = 0; i < length; i++) {
            prefix.add(array.get(i));
        }
        return prefix;
    }

    private static ObjectNode withArray(ObjectNode line, String name, ArrayNode array) {
        ObjectNode copy = line.deepCopy();
        copy.set(name, array);
        return copy;
    }
}

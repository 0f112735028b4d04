package io.kvledger.infrastructure.log;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.infrastructure.json.JsonProblems;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The shapes of the per-group fields of a log whose {@code EngineConfigured} gives {@code groups}
 * (contract 7.2, 7.8): with one group the flat list, with {@code G} >= 2 a list of exactly {@code G}
 * lists; {@code null} only in a {@code SLIDING_WINDOW} group's list of {@code BlocksAllocated.blockIds}.
 * Anything else makes the log malformed, naming the field and the group.
 */
final class GroupedShapes {

    /** The per-group fields of each type (7.2); every other field keeps its shape. */
    private static final Map<String, Set<String>> PER_GROUP = Map.of(
            "BlocksAllocated", Set.of("blockIds"),
            "WindowBlocksFreed", Set.of("blockIds"),
            "BlocksReleased", Set.of("blockIds"),
            "StoreJobScheduled", Set.of("chunkIndices", "keys", "blockIds"),
            "LoadJobScheduled", Set.of("chunkIndices", "keys", "blockIds"),
            "PrefixMatched", Set.of("hitChunks"),
            "StoreDeferred", Set.of("chunkIndices"));

    private GroupedShapes() {
    }

    /** Whether {@code field} of {@code type} is per group. */
    static boolean isPerGroup(String type, String field) {
        Set<String> fields = PER_GROUP.get(type);
        return fields != null && fields.contains(field);
    }

    /** Whether a {@code SLIDING_WINDOW} group's list of the per-group field may hold the null block: {@code BlocksAllocated.blockIds} only. */
    static boolean mayHoldNull(String type, String field) {
        return "BlocksAllocated".equals(type) && "blockIds".equals(field);
    }

    /** What is wrong with the per-group field {@code field} of a {@code type} line, or empty. */
    static Optional<String> problem(String type, String field, FieldKind kind, JsonNode value, List<KvCacheGroup> groups) {
        String name = type + "." + field;
        boolean mayHoldNull = mayHoldNull(type, field);
        if (groups.size() == 1) {
            return list(name, kind, value, mayHoldNull && groups.get(0).isSliding(), groups.get(0));
        }
        if (!value.isArray() || value.size() != groups.size()) {
            return Optional.of(name + " must be a list of " + groups.size() + " lists (one per KV cache group), was "
                    + JsonProblems.show(value));
        }
        for (int g = 0; g < groups.size(); g++) {
            Optional<String> problem = list(name + "[" + g + "]", kind, value.get(g), mayHoldNull && groups.get(g).isSliding(),
                    groups.get(g));
            if (problem.isPresent()) {
                return problem;
            }
        }
        return Optional.empty();
    }

    private static Optional<String> list(String name, FieldKind kind, JsonNode value, boolean nullAllowed, KvCacheGroup group) {
        if (!value.isArray()) {
            return Optional.of(name + " must be " + kind.describe(List.of()) + ", was " + JsonProblems.show(value));
        }
        for (JsonNode item : value) {
            if (item.isNull()) {
                if (!nullAllowed) {
                    return Optional.of(name + " holds null, which only a SLIDING_WINDOW group's BlocksAllocated.blockIds may"
                            + " (the group is " + group.kind() + ")");
                }
            } else if (!kind.acceptsElement(item)) {
                return Optional.of(name + " must be " + kind.describe(List.of()) + ", was " + JsonProblems.show(value));
            }
        }
        return Optional.empty();
    }
}

package io.kvledger.simulation.shrink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The shrinker with KV cache groups (contract 7.2): a per-group field is shrunk one group's list at a
 * time, so it keeps {@code G} lists and its null entries.
 */
class GroupedShrinkTest {

    @Test
    void aPerGroupListIsShrunkOneGroupAtATime() {
        ObjectNode line = (ObjectNode) io.kvledger.infrastructure.json.EventJson.mapper().createObjectNode()
                .put("cmd", "AllocateBlocks").put("requestId", "q");
        line.set("blockIds", io.kvledger.infrastructure.json.EventJson.mapper().valueToTree(
                java.util.Arrays.asList(List.of(21, 22), java.util.Arrays.asList(null, 31))));

        List<ObjectNode> variants = LineVariants.of(line);

        assertTrue(variants.stream().anyMatch(v -> v.get("blockIds").toString().equals("[[21],[null,31]]")), variants.toString());
        assertTrue(variants.stream().anyMatch(v -> v.get("blockIds").toString().equals("[[21,22],[null]]")), variants.toString());
        assertTrue(variants.stream().anyMatch(v -> v.get("blockIds").toString().equals("[[21,22],[]]")), variants.toString());
        for (ObjectNode variant : variants) {
            assertEquals(2, variant.get("blockIds").size(), variant.toString());
        }
    }
}

package io.kvledger.simulation;

import io.kvledger.domain.config.KvCacheGroup;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The KV cache groups a simulated model has (contract section 7.1), one block table per group as vLLM's
 * hybrid memory allocator gives them. {@link #DEFAULT} has none: the engine is configured without {@code
 * groups} and the workload is the single-group one, byte for byte.
 *
 * @param name          what {@code simulate --model} calls it
 * @param description   what it stands for
 * @param groups        the groups in group order, or {@code null} for the single-group workload
 * @param requestTokens the longest request it gets unless {@code --request-tokens} says otherwise
 */
public record SimulationModel(String name, String description, List<KvCacheGroup> groups, int requestTokens) {

    /** No groups: the seed draws the block size, as before groups. */
    public static final SimulationModel DEFAULT = new SimulationModel("default",
            "one full-attention group, block size drawn from the seed", null, 512);

    private static final Map<String, SimulationModel> NAMED = named(
            DEFAULT,
            new SimulationModel("gemma3", "Gemma-3 style: 5 sliding-window groups (window 1024) to 1 full group, block 16",
                    withSliding(KvCacheGroup.full(16), 5, KvCacheGroup.slidingWindow(16, 1024)), 2048),
            new SimulationModel("gpt-oss", "gpt-oss style: alternating layers, one full group and one sliding group of window 128",
                    List.of(KvCacheGroup.full(16), KvCacheGroup.slidingWindow(16, 128)), 512),
            new SimulationModel("eagle", "a full-attention target with an EAGLE draft group (its last chunk held back while decoding)",
                    List.of(KvCacheGroup.full(16), KvCacheGroup.full(16).asEagle()), 512),
            new SimulationModel("mixed-blocks", "different block sizes: a full group of 32-token blocks and a sliding group of "
                    + "8-token blocks, window 16 (the alignment skip stores only 2 of every 4 sliding chunks)",
                    List.of(KvCacheGroup.full(32), KvCacheGroup.slidingWindow(8, 16)), 512));

    public SimulationModel {
        if (groups != null) {
            groups = List.copyOf(groups);
        }
    }

    /** A model of the groups given by {@code --groups}. */
    public static SimulationModel ofGroups(List<KvCacheGroup> groups) {
        return new SimulationModel("groups", "the groups given", groups, 512);
    }

    /** The named model, or an {@link IllegalArgumentException} listing the known names. */
    public static SimulationModel named(String name) {
        SimulationModel model = NAMED.get(name);
        if (model == null) {
            throw new IllegalArgumentException("unknown model '" + name + "'; known: " + String.join(", ", NAMED.keySet()));
        }
        return model;
    }

    /** Every named model, {@link #DEFAULT} first. */
    public static List<SimulationModel> all() {
        return List.copyOf(NAMED.values());
    }

    /**
     * Whether the model names its groups, so the engine's config gives {@code groups}; {@link #DEFAULT} names none
     * and draws its one group's block size from the seed. (Not contract 7.0's "grouped": a model of one
     * {@code FULL} group names its groups too.)
     */
    public boolean namesGroups() {
        return groups != null;
    }

    /** The tables a request has: 1 without groups. */
    public int groupCount() {
        return groups == null ? 1 : groups.size();
    }

    public boolean hasSlidingGroup() {
        return groups != null && groups.stream().anyMatch(KvCacheGroup::isSliding);
    }

    private static List<KvCacheGroup> withSliding(KvCacheGroup full, int count, KvCacheGroup sliding) {
        List<KvCacheGroup> groups = new java.util.ArrayList<>();
        groups.add(full);
        for (int i = 0; i < count; i++) {
            groups.add(sliding);
        }
        return groups;
    }

    private static Map<String, SimulationModel> named(SimulationModel... models) {
        Map<String, SimulationModel> byName = new LinkedHashMap<>();
        for (SimulationModel model : models) {
            byName.put(model.name(), model);
        }
        return byName;
    }
}

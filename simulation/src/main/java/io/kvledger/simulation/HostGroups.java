package io.kvledger.simulation;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import java.util.ArrayList;
import java.util.List;

/**
 * The simulated host's KV cache groups and what vLLM's KV cache manager does with them: one table per
 * group from one shared GPU pool, a sliding group's positions outside the window backed by the null
 * block ({@code null}) at allocation and freed while the request runs ({@code remove_skipped_blocks}),
 * and GPU prefix hits that suit every group. Without {@code groups} it is the one full group of the
 * engine's block size, and every answer is the single-group host's.
 */
final class HostGroups {

    private final List<KvCacheGroup> groups;
    /** {@code lcm(B_g)}: a GPU hit is a multiple of it. */
    final int hitUnit;
    final int blocksPerChunk;
    final boolean anySliding;

    HostGroups(EngineConfig config) {
        this.groups = config.groups() == null ? List.of(KvCacheGroup.full(config.gpuBlockSize())) : config.groups();
        this.hitUnit = config.gpuBlockSize();
        this.blocksPerChunk = config.blocksPerChunk();
        this.anySliding = groups.stream().anyMatch(KvCacheGroup::isSliding);
    }

    int count() {
        return groups.size();
    }

    KvCacheGroup group(int g) {
        return groups.get(g);
    }

    int blockSize(int g) {
        return groups.get(g).blockSize();
    }

    /**
     * The most entries of group {@code group} a request of {@code tokens} tokens holds at once: all of them in
     * a full group; in a sliding group those of a window and of one step's tokens (the rest are null or freed),
     * plus the lookahead block.
     */
    static int mostEntries(KvCacheGroup group, int tokens, int stepTokens) {
        int all = (tokens + group.blockSize() - 1) / group.blockSize() + 1;
        if (!group.isSliding()) {
            return all;
        }
        return Math.min(all, (group.slidingWindow() + stepTokens + group.blockSize() - 1) / group.blockSize() + 3);
    }

    /**
     * The entries a table of group {@code g} has after an allocation for tokens up to {@code end} (a load's hit end):
     * {@code e_g*F} (contract 7.6). Without a sliding or eagle group a hit end is a multiple of {@code C}, so this
     * is {@code end/B}.
     */
    int loadEntries(int g, int end) {
        int chunkTokens = blockSize(g) * blocksPerChunk;
        return (end + chunkTokens - 1) / chunkTokens * blocksPerChunk;
    }

    /**
     * The longest GPU prefix hit of {@code request}, a multiple of {@link #hitUnit} below its last token, that
     * every group's cache serves: a full group every block before it (an eagle group one block more, its drafter
     * reads the next), a sliding group the blocks inside the window of the hit end. Returns the hit's tokens
     * and fills {@code hits} with each group's entries, null below a sliding group's window.
     */
    int gpuHit(SimRequest request, BlockPool pool, List<List<Integer>> hits) {
        int limit = (request.numTokens() - 1) / hitUnit * hitUnit;
        for (int g = 0; g < groups.size() && limit > 0; g++) {
            KvCacheGroup group = groups.get(g);
            if (!group.isSliding()) {
                int wanted = Math.min(limit / group.blockSize() + group.eagleChunks(), request.numTokens() / group.blockSize());
                int cached = 0;
                while (cached < wanted && pool.lookup(request.prefixHash(g, cached, group.blockSize())) >= 0) {
                    cached++;
                }
                int served = Math.max(0, (cached - group.eagleChunks()) * group.blockSize());
                limit = Math.min(limit, served / hitUnit * hitUnit);
            }
        }
        int hit = limit;
        while (hit > 0 && !slidingGroupsServe(request, pool, hit)) {
            hit -= hitUnit;
        }
        for (int g = 0; g < groups.size(); g++) {
            KvCacheGroup group = groups.get(g);
            List<Integer> entries = new ArrayList<>(hit / group.blockSize());
            int first = group.firstInWindow(hit);
            for (int block = 0; block < hit / group.blockSize(); block++) {
                if (block < first) {
                    entries.add(null);
                } else {
                    int held = pool.lookup(request.prefixHash(g, block, group.blockSize()));
                    pool.share(held);
                    entries.add(held);
                }
            }
            hits.add(entries);
        }
        return hit;
    }

    private boolean slidingGroupsServe(SimRequest request, BlockPool pool, int hit) {
        for (int g = 0; g < groups.size(); g++) {
            KvCacheGroup group = groups.get(g);
            if (group.isSliding()) {
                int end = Math.min(hit / group.blockSize() + group.eagleChunks(), request.numTokens() / group.blockSize());
                for (int block = group.firstInWindow(hit); block < end; block++) {
                    if (pool.lookup(request.prefixHash(g, block, group.blockSize())) < 0) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /**
     * The ids of group {@code g}'s table that the window of the next token after {@code computed} no longer
     * reaches (positions below {@code first_g(computed)}), made null in the table: what {@code
     * remove_skipped_blocks} frees. Empty for a full group.
     */
    List<Integer> freeOutsideWindow(SimRequest request, int g, int computed) {
        KvCacheGroup group = groups.get(g);
        if (!group.isSliding()) {
            return List.of();
        }
        List<Integer> table = request.table(g);
        int first = Math.min(group.firstInWindow(computed), table.size());
        List<Integer> freed = new ArrayList<>();
        for (int slot = request.freedBelow[g]; slot < first; slot++) {
            Integer block = table.get(slot);
            if (block != null) {
                freed.add(block);
                table.set(slot, null);
            }
        }
        request.freedBelow[g] = Math.max(request.freedBelow[g], first);
        return freed;
    }

    /**
     * Whether a sliding table has a null entry the window of the next token after {@code computed} reaches:
     * after a failed load the request cannot recompute in place, and the host preempts it (contract 7.6).
     */
    boolean nullInsideWindow(SimRequest request, int computed) {
        for (int g = 0; g < groups.size(); g++) {
            KvCacheGroup group = groups.get(g);
            if (group.isSliding()) {
                List<Integer> table = request.table(g);
                for (int slot = group.firstInWindow(computed); slot < table.size(); slot++) {
                    if (table.get(slot) == null) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}

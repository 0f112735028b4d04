package io.kvledger.application.explain;

import io.kvledger.application.explain.StoreExplanation.Slice;
import io.kvledger.application.replay.LogFold;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.rules.GroupedOffer;
import io.kvledger.domain.state.CpuTier;
import io.kvledger.domain.state.PrefixMatch;
import io.kvledger.domain.state.RequestState;
import java.util.ArrayList;
import java.util.List;

/**
 * What the rules give a job of a grouped log (contract 7.4, 7.6), as one slice over the groups in group
 * order, so a grouped job is compared with the grouped rules, not group 0's alone.
 */
final class GroupedSlices {

    private GroupedSlices() {
    }

    /** The offered chunks the tier lacks, in every group, with their {@code F} source blocks each (7.4). */
    static Slice store(EngineConfig config, CpuTier tier, RequestState request, LogFold fold) {
        GroupedOffer offer = GroupedOffer.of(config, tier, request);
        List<Integer> blocks = new ArrayList<>();
        int f = config.blocksPerChunk();
        for (int g = 0; g < config.groupCount(); g++) {
            for (int chunk : offer.lacking().group(g)) {
                for (int k = 0; k < f; k++) {
                    blocks.add(request.table(g).get(chunk * f + k));
                }
            }
        }
        return new Slice(offer.lacking().flat(), offer.lackingKeys().flat().stream().map(fold::logKeyOf).toList(), blocks);
    }

    /** Every group's hit chunks into {@code T_g[p_g .. e_g*F)}, {@code p_g = max(L/B_g, first_g(N))} (7.6). */
    static Slice load(EngineConfig config, RequestState request, PrefixMatch match, LogFold fold) {
        long end = (long) match.gpuHitTokens() + match.externalTokens();
        List<String> keys = new ArrayList<>();
        List<Integer> blocks = new ArrayList<>();
        for (int g = 0; g < config.groupCount(); g++) {
            KvCacheGroup group = config.group(g);
            for (int chunk : match.hitChunks().group(g)) {
                keys.add(fold.logKeyOf(request.key(config, g, chunk)));
            }
            int chunkTokens = config.chunkTokens(g);
            int first = Math.max(match.gpuHitTokens() / group.blockSize(), group.firstInWindow(end));
            int last = (int) ((end + chunkTokens - 1) / chunkTokens) * config.blocksPerChunk();
            List<Integer> table = request.table(g).asJava();
            if (last <= table.size() && first <= last) {
                blocks.addAll(table.subList(first, last));
            }
        }
        return new Slice(match.hitChunks().flat(), keys, blocks);
    }
}

package io.kvledger.application.explain;

import io.kvledger.application.explain.StoreExplanation.Slice;
import io.kvledger.application.replay.LoadDestination;
import io.kvledger.application.replay.LogFold;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.rules.GroupedOffer;
import io.kvledger.domain.rules.StoreBound;
import io.kvledger.domain.state.CpuTier;
import io.kvledger.domain.state.PrefixMatch;
import io.kvledger.domain.state.RequestState;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * What the rules give a job of a grouped log (contract 7.4, 7.6), group by group, so a grouped job is
 * compared with the grouped rules, not group 0's alone, and shown per group; {@link #flat} gives the
 * slice over the groups in group order.
 */
final class GroupedSlices {

    private GroupedSlices() {
    }

    /** Per group, the offered chunks the tier lacks, with their {@code F} source blocks each (7.4), beside the job's. */
    static List<JobGroup> store(EngineConfig config, CpuTier tier, RequestState request, LogFold fold, Job job) {
        GroupedOffer offer = GroupedOffer.of(config, tier, request);
        int bound = StoreBound.tokenBound(config, request);
        boolean decoding = bound > request.promptLength();
        int f = config.blocksPerChunk();
        List<JobGroup> groups = new ArrayList<>(config.groupCount());
        for (int g = 0; g < config.groupCount(); g++) {
            List<Integer> lacking = offer.lacking().groupCount() > g ? offer.lacking().group(g) : List.of();
            List<String> keys = offer.lackingKeys().groupCount() > g ? offer.lackingKeys().group(g) : List.of();
            List<Integer> blocks = new ArrayList<>();
            for (int chunk : lacking) {
                for (int k = 0; k < f; k++) {
                    blocks.add(request.table(g).get(chunk * f + k));
                }
            }
            Slice expected = new Slice(lacking, keys.stream().map(fold::logKeyOf).toList(), blocks);
            groups.add(part(config, g, request, GroupedOffer.storableChunks(config, request, g, bound, decoding),
                    request.table(g).asJava(), null, null, job.of(g), expected));
        }
        return groups;
    }

    /** Per group, the hit chunks into {@code T_g[p_g .. e_g*F)}, {@code p_g = max(L/B_g, first_g(N))} (7.6), beside the job's. */
    static List<JobGroup> load(EngineConfig config, RequestState request, PrefixMatch match, LogFold fold, Job job) {
        List<JobGroup> groups = new ArrayList<>(config.groupCount());
        for (int g = 0; g < config.groupCount(); g++) {
            List<Integer> hits = match.hitChunks().group(g);
            List<String> keys = new ArrayList<>();
            int known = request.keyCount(config, g);
            for (int chunk : hits) {
                if (chunk >= 0 && chunk < known) { // a foreign log's match may name a chunk with no key yet
                    keys.add(fold.logKeyOf(request.key(config, g, chunk)));
                }
            }
            int first = LoadDestination.first(config, g, match);
            int last = LoadDestination.end(config, g, match);
            List<Integer> table = request.table(g).asJava();
            List<Integer> blocks = last <= table.size() && first <= last ? table.subList(first, last) : List.of();
            groups.add(part(config, g, request, null, table, first, last, job.of(g), new Slice(hits, keys, blocks)));
        }
        return groups;
    }

    /** The slices of every group, in group order, as one slice. */
    static Slice flat(List<JobGroup> groups, Function<JobGroup, Slice> slice) {
        List<Integer> chunks = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        List<Integer> blocks = new ArrayList<>();
        for (JobGroup group : groups) {
            chunks.addAll(slice.apply(group).chunkIndices());
            keys.addAll(slice.apply(group).keys());
            blocks.addAll(slice.apply(group).blockIds());
        }
        return new Slice(chunks, keys, blocks);
    }

    /** How each group's part differs from its rules, naming the group when {@code perGroup} (a grouped log's form). */
    static List<String> differences(List<JobGroup> groups, boolean perGroup) {
        List<String> differences = new ArrayList<>();
        for (JobGroup group : groups) {
            for (String difference : StoreExplaining.differences(group.job(), group.expected())) {
                differences.add(perGroup ? "group " + group.group() + ": " + difference : difference);
            }
        }
        return differences;
    }

    private static JobGroup part(EngineConfig config, int g, RequestState request, Integer storable, List<Integer> table,
                                 Integer firstBlock, Integer endBlock, Slice job, Slice expected) {
        KvCacheGroup group = config.group(g);
        return new JobGroup(g, group.kind().name(), group.blockSize(), group.isSliding() ? group.slidingWindow() : null,
                group.eagle(), config.chunkTokens(g), request.cursor(g), storable, table, firstBlock, endBlock, job, expected);
    }

    /** What a job of the log holds, per group: its chunks, the log's keys and its blocks. */
    record Job(PerGroup<Integer> chunkIndices, PerGroup<String> keys, PerGroup<Integer> blockIds) {
        Slice of(int g) {
            return new Slice(listOf(chunkIndices, g), listOf(keys, g), listOf(blockIds, g));
        }

        private static <T> List<T> listOf(PerGroup<T> field, int g) {
            return g < field.groupCount() ? field.group(g) : List.of();
        }
    }
}

package io.kvledger.infrastructure.view;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.group.GroupKeys;
import io.kvledger.domain.state.Job;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A job in flight of a grouped engine, group by group (contract 7.2: its fields per group), from the job
 * the state keeps in group order: each chunk's group is its key's ({@link GroupKeys}), a store reads
 * {@code F} blocks of each chunk and a load writes {@code T_g[p_g .. e_g*F)} of each group with hit
 * chunks (7.6). Blocks that do not add up so (a log written otherwise) are all shown with group 0.
 */
final class GroupedJobs {

    private GroupedJobs() {
    }

    /** The job's chunks, log keys and blocks, per group. */
    static StateView.JobView view(EngineConfig config, Job job, UnaryOperator<String> logKey, int workers) {
        int groups = config.groupCount();
        List<List<Integer>> chunks = lists(groups);
        List<List<String>> keys = lists(groups);
        boolean keyed = job.keys().size() == job.chunkIndices().size();
        for (int i = 0; i < job.chunkIndices().size(); i++) {
            int g = keyed ? GroupKeys.groupOf(job.keys().get(i), groups) : 0;
            chunks.get(g).add(job.chunkIndices().get(i));
        }
        for (String key : job.keys()) {
            keys.get(GroupKeys.groupOf(key, groups)).add(logKey.apply(key));
        }
        int[] counts = new int[groups];
        int total = 0;
        for (int g = 0; g < groups; g++) {
            counts[g] = chunks.get(g).isEmpty() ? 0 : job.isStore() ? chunks.get(g).size() * config.blocksPerChunk()
                    : destination(config, g, job);
            total += counts[g];
        }
        if (total != job.blockIds().size()) {
            java.util.Arrays.fill(counts, 0);
            counts[0] = job.blockIds().size();
        }
        List<List<Integer>> blocks = lists(groups);
        int next = 0;
        for (int g = 0; g < groups; g++) {
            blocks.get(g).addAll(job.blockIds().subList(next, next + counts[g]));
            next += counts[g];
        }
        return new StateView.JobView(job.jobId(), job.kind().name(), job.requestId(), new PerGroupFigure<>(chunks),
                new PerGroupFigure<>(keys), new PerGroupFigure<>(blocks), job.completions(), workers, job.failed());
    }

    /** {@code e_g*F - p_g}: the table positions a load writes in group {@code g}. */
    private static int destination(EngineConfig config, int g, Job job) {
        KvCacheGroup group = config.group(g);
        long end = (long) job.gpuHitTokens() + job.externalTokens();
        int chunkTokens = config.chunkTokens(g);
        long last = (end + chunkTokens - 1) / chunkTokens * config.blocksPerChunk();
        long first = Math.max(job.gpuHitTokens() / group.blockSize(), group.firstInWindow(end));
        return (int) Math.max(0, last - first);
    }

    private static <T> List<List<T>> lists(int groups) {
        List<List<T>> lists = new ArrayList<>(groups);
        for (int g = 0; g < groups; g++) {
            lists.add(new ArrayList<>());
        }
        return lists;
    }
}

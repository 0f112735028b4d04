package io.kvledger.domain.state;

import java.util.List;

/**
 * A store or load job in flight.
 *
 * @param blockIds       a store's source blocks or a load's destination blocks
 * @param completions    completions received so far (the job ends at {@code workers})
 * @param failed         whether any completion so far said {@code success: false}
 * @param gpuHitTokens   for a load: {@code L} of the match it used
 * @param externalTokens for a load: tokens it adds past {@code L}
 * @param cursorBefore   for a load: the request's store cursor before the load, restored if it fails
 * @param groupCursorsBefore for a load of two groups or more: the cursors of groups 1 .. G-1 before it; else
 *                       {@code null}
 */
public record Job(long jobId, JobKind kind, String requestId, List<Integer> chunkIndices, List<String> keys,
                  List<Integer> blockIds, int completions, boolean failed,
                  int gpuHitTokens, int externalTokens, int cursorBefore, List<Integer> groupCursorsBefore) {

    public Job {
        chunkIndices = List.copyOf(chunkIndices);
        keys = List.copyOf(keys);
        blockIds = List.copyOf(blockIds);
        groupCursorsBefore = groupCursorsBefore == null ? null : List.copyOf(groupCursorsBefore);
    }

    public Job(long jobId, JobKind kind, String requestId, List<Integer> chunkIndices, List<String> keys,
               List<Integer> blockIds, int completions, boolean failed, int gpuHitTokens, int externalTokens,
               int cursorBefore) {
        this(jobId, kind, requestId, chunkIndices, keys, blockIds, completions, failed, gpuHitTokens, externalTokens,
                cursorBefore, null);
    }

    public static Job store(long jobId, String requestId, List<Integer> chunkIndices, List<String> keys,
                            List<Integer> blockIds) {
        return new Job(jobId, JobKind.STORE, requestId, chunkIndices, keys, blockIds, 0, false, 0, 0, 0);
    }

    public static Job load(long jobId, String requestId, List<Integer> chunkIndices, List<String> keys,
                           List<Integer> blockIds, int gpuHitTokens, int externalTokens, int cursorBefore) {
        return new Job(jobId, JobKind.LOAD, requestId, chunkIndices, keys, blockIds, 0, false,
                gpuHitTokens, externalTokens, cursorBefore);
    }

    /** A load of two groups or more, which restores {@code groupCursorsBefore} too if it fails. */
    public static Job groupedLoad(long jobId, String requestId, List<Integer> chunkIndices, List<String> keys,
                                  List<Integer> blockIds, int gpuHitTokens, int externalTokens, int cursorBefore,
                                  List<Integer> groupCursorsBefore) {
        return new Job(jobId, JobKind.LOAD, requestId, chunkIndices, keys, blockIds, 0, false,
                gpuHitTokens, externalTokens, cursorBefore, groupCursorsBefore);
    }

    public boolean isStore() {
        return kind == JobKind.STORE;
    }

    public boolean isLoad() {
        return kind == JobKind.LOAD;
    }

    public Job acknowledged(boolean success) {
        return new Job(jobId, kind, requestId, chunkIndices, keys, blockIds, completions + 1, failed || !success,
                gpuHitTokens, externalTokens, cursorBefore, groupCursorsBefore);
    }
}

package io.kvledger.application.explain;

import io.kvledger.application.explain.StoreExplanation.Slice;
import io.kvledger.domain.state.RequestStatus;
import java.util.List;

/**
 * Why a load job holds exactly its chunks and writes exactly its blocks, from the match its allocation
 * used up and the table after that allocation (contract section 4, Lookup and Loads).
 *
 * @param seq               the seq of the LoadJobScheduled
 * @param match             the PrefixMatched the allocation used up; {@code null} when there was none
 * @param allocationSeq     the seq of the BlocksAllocated that started it; {@code 0} when none came just before
 * @param table             the request's table after that allocation
 * @param firstBlock        {@code L/B}: the first table position written
 * @param endBlock          {@code (a+h)*F}: the table position past the last written
 * @param chunks            each loaded chunk and its place in the tier
 * @param cursorBefore      {@code s} before the load
 * @param cursorAfter       {@code max(s, a+h)}: hit chunks are not stored again
 * @param computedOnSuccess {@code min(L + externalTokens, n - 1)} with today's {@code n}
 * @param job               what the log's job holds
 * @param expected          what the rules give
 * @param differences       how the job differs from the rules; empty when it follows them
 * @param groups            in a grouped log (contract 7.6), each group's part, in group order; {@code null} otherwise
 */
public record LoadExplanation(String schema, String kind, long jobId, long seq, String requestId, RequestStatus status,
                              Match match, long allocationSeq, List<Integer> table, int firstBlock, int endBlock,
                              List<LoadedChunk> chunks, int cursorBefore, int cursorAfter, int computedOnSuccess,
                              Slice job, Slice expected, List<String> differences, List<JobGroup> groups)
        implements JobExplanation {

    /**
     * @param seq            the seq of the PrefixMatched
     * @param gpuHitTokens   {@code L}
     * @param firstChunk     {@code a = floor(L/C)}
     * @param hits           {@code h}
     * @param externalTokens {@code (a+h)*C - L}
     */
    public record Match(long seq, int gpuHitTokens, int chunkTokens, int firstChunk, int hits, List<Integer> hitChunks,
                        int externalTokens) {
    }

    /** @param tier {@code READY}, {@code WRITING} or {@code ABSENT}; @param pins loads already reading it */
    public record LoadedChunk(int chunk, String key, String tier, int pins) {
    }
}

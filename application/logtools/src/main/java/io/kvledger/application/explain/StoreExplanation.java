package io.kvledger.application.explain;

import io.kvledger.domain.state.RequestStatus;
import java.util.List;

/**
 * Why a store job holds exactly its chunks, from the state just before its {@code StoreJobScheduled}
 * (contract section 4, Token bound, Storable chunks, Stores). Keys are the log's own.
 *
 * @param seq          the seq of the StoreJobScheduled
 * @param requestState {@code LIVE}, {@code RETIRED} (terminated and settled: no blocks, {@code c = 0})
 *                     or {@code UNKNOWN}
 * @param status       the request's status, {@code null} when unknown
 * @param bound        the token bound {@code O} and its terms
 * @param storable     {@code S} and its clamps
 * @param cursor       {@code s}, the first chunk offered
 * @param offered      chunks {@code s .. S-1} and what the tier said of each
 * @param tier         the tier's answer to the offer
 * @param job          what the log's job holds
 * @param expected     what the rules give: the offered chunks the tier lacked, and their blocks
 * @param differences  how the job differs from the rules; empty when it follows them
 * @param groups       in a grouped log (contract 7.4), each group's part, in group order; {@code null} otherwise
 */
public record StoreExplanation(String schema, String kind, long jobId, long seq, String requestId, String requestState,
                               RequestStatus status, TokenBound bound, Storable storable, int cursor,
                               List<OfferedChunk> offered, TierAnswer tier, Slice job, Slice expected,
                               List<String> differences, List<JobGroup> groups) implements JobExplanation {

    /**
     * {@code O = min(c, n, maxOffloadTokens, the request's maxOffloadTokens, promptLength if offloadPromptOnly)}
     * (contract 9.1); a term that does not apply is {@code null}.
     */
    public record TokenBound(int computed, int numTokens, Integer maxOffloadTokens, Integer promptLength, int value,
                             Integer requestMaxOffloadTokens) {

        public TokenBound(int computed, int numTokens, Integer maxOffloadTokens, Integer promptLength, int value) {
            this(computed, numTokens, maxOffloadTokens, promptLength, value, null);
        }
    }

    /** {@code S = min(floor(O/C), floor(len(blockTable)/F), number of keys)}. */
    public record Storable(int chunkTokens, int blocksPerChunk, int byTokens, int tableBlocks, int byBlocks,
                           int byKeys, int value) {
    }

    /**
     * One offered chunk.
     *
     * @param tier    {@code LACKING} (to be written), {@code READY} or {@code WRITING} (already held)
     * @param blocks  its {@code F} blocks in the table
     */
    public record OfferedChunk(int chunk, String key, List<Integer> blocks, String tier) {
    }

    /**
     * @param heldAtOffer chunks held when the offer was made, before its evictions
     * @param evicted     keys the command evicted to make room (least recently used first)
     * @param heldAfter   chunks held once this job's chunks are added
     */
    public record TierAnswer(int capacity, int heldAtOffer, List<String> evicted, int heldAfter) {
    }

    /** Chunks, their keys and their blocks. */
    public record Slice(List<Integer> chunkIndices, List<String> keys, List<Integer> blockIds) {
    }
}

package io.kvledger.domain.state;

import java.util.List;
import io.vavr.collection.TreeSet;
import io.vavr.collection.Vector;

/**
 * One request as folded from its events.
 *
 * @param ordinal      registration order, from 0
 * @param numTokens    {@code n}: prompt plus appended tokens
 * @param computed     {@code c}
 * @param cursor       {@code s}: the next chunk index to store
 * @param blockTable   GPU blocks it holds, in allocation order (what is released leaves the table)
 * @param hashes       chained hashes of its full blocks; chunk keys are taken from them
 * @param pendingMatch the unused {@code PrefixMatched}, or {@code null}
 * @param jobIds       its jobs in flight (one load, or stores only)
 */
public record RequestState(String requestId, long ordinal, int promptLength, int numTokens, int computed,
                           int cursor, RequestStatus status, Vector<Integer> blockTable, BlockHashes hashes,
                           PrefixMatch pendingMatch, TreeSet<Long> jobIds) {

    public static RequestState registered(String requestId, long ordinal, List<Integer> promptTokens, int blockSize) {
        return new RequestState(requestId, ordinal, promptTokens.size(), promptTokens.size(), 0, 0,
                RequestStatus.WAITING, Vector.empty(), BlockHashes.of(blockSize, promptTokens), null,
                TreeSet.empty());
    }

    /** Number of chunk keys: chunk {@code i} has one exactly when {@code (i+1)*C <= n}. */
    public int keyCount(int blocksPerChunk) {
        return hashes.fullBlocks() / blocksPerChunk;
    }

    /** The key of chunk {@code i}: the hash of its last GPU block. */
    public String key(int chunk, int blocksPerChunk) {
        return hashes.get(chunk * blocksPerChunk + blocksPerChunk - 1);
    }

    /** The keys of the given chunks; a chunk that has no key yet (only a foreign log names one) is skipped. */
    public List<String> keys(List<Integer> chunks, int blocksPerChunk) {
        int known = keyCount(blocksPerChunk);
        return chunks.stream().filter(chunk -> chunk >= 0 && chunk < known).map(chunk -> key(chunk, blocksPerChunk)).toList();
    }

    public boolean hasJobsInFlight() {
        return !jobIds.isEmpty();
    }

    public boolean isTerminal() {
        return status.isTerminal();
    }

    public RequestState withComputed(int value) {
        return new RequestState(requestId, ordinal, promptLength, numTokens, value, cursor, status, blockTable,
                hashes, pendingMatch, jobIds);
    }

    public RequestState withCursor(int value) {
        return new RequestState(requestId, ordinal, promptLength, numTokens, computed, value, status, blockTable,
                hashes, pendingMatch, jobIds);
    }

    public RequestState withStatus(RequestStatus value) {
        return new RequestState(requestId, ordinal, promptLength, numTokens, computed, cursor, value, blockTable,
                hashes, pendingMatch, jobIds);
    }

    public RequestState withBlockTable(Vector<Integer> value) {
        return new RequestState(requestId, ordinal, promptLength, numTokens, computed, cursor, status, value,
                hashes, pendingMatch, jobIds);
    }

    public RequestState withTokens(int value, BlockHashes newHashes) {
        return new RequestState(requestId, ordinal, promptLength, value, computed, cursor, status, blockTable,
                newHashes, pendingMatch, jobIds);
    }

    public RequestState withPendingMatch(PrefixMatch value) {
        return new RequestState(requestId, ordinal, promptLength, numTokens, computed, cursor, status, blockTable,
                hashes, value, jobIds);
    }

    public RequestState withJobIds(TreeSet<Long> value) {
        return new RequestState(requestId, ordinal, promptLength, numTokens, computed, cursor, status, blockTable,
                hashes, pendingMatch, value);
    }
}

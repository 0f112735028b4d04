package io.kvledger.domain.state;

import java.util.List;

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
 * @param groups       the tables and cursors of groups 1 .. G-1 with two groups or more, else {@code null}
 *                     ({@code blockTable} and {@code cursor} are group 0's)
 * @param controls     the controls its {@code RequestRegistered} gave (contract 9.1), or {@code null}: none
 */
public record RequestState(String requestId, long ordinal, int promptLength, int numTokens, int computed,
                           int cursor, RequestStatus status, BlockTable blockTable, BlockHashes hashes,
                           PrefixMatch pendingMatch, JobIds jobIds, GroupTables groups, RequestControls controls) {

    public RequestState(String requestId, long ordinal, int promptLength, int numTokens, int computed, int cursor,
                        RequestStatus status, BlockTable blockTable, BlockHashes hashes, PrefixMatch pendingMatch,
                        JobIds jobIds, GroupTables groups) {
        this(requestId, ordinal, promptLength, numTokens, computed, cursor, status, blockTable, hashes, pendingMatch,
                jobIds, groups, null);
    }

    public RequestState(String requestId, long ordinal, int promptLength, int numTokens, int computed, int cursor,
                        RequestStatus status, BlockTable blockTable, BlockHashes hashes, PrefixMatch pendingMatch,
                        JobIds jobIds) {
        this(requestId, ordinal, promptLength, numTokens, computed, cursor, status, blockTable, hashes, pendingMatch,
                jobIds, null);
    }

    public static RequestState registered(String requestId, long ordinal, List<Integer> promptTokens, int blockSize) {
        return new RequestState(requestId, ordinal, promptTokens.size(), promptTokens.size(), 0, 0,
                RequestStatus.WAITING, BlockTable.EMPTY, BlockHashes.of(blockSize, promptTokens), null,
                JobIds.EMPTY);
    }

    /** A new request of an engine of {@code groupCount} groups, hashed by {@code hashBlockSize}. */
    public static RequestState registered(String requestId, long ordinal, List<Integer> promptTokens, int hashBlockSize,
                                          int groupCount) {
        RequestState request = registered(requestId, ordinal, promptTokens, hashBlockSize);
        return groupCount == 1 ? request : request.withGroups(GroupTables.empty(groupCount));
    }

    /** {@code G} as this request holds tables: 1 unless it has {@link #groups}. */
    public int tableCount() {
        return groups == null ? 1 : groups.tables().size() + 1;
    }

    /** Group {@code g}'s table {@code T_g}. */
    public BlockTable table(int g) {
        return g == 0 ? blockTable : groups.tables().get(g - 1);
    }

    /** Group {@code g}'s cursor {@code s_g}. */
    public int cursor(int g) {
        return g == 0 ? cursor : groups.cursors().get(g - 1);
    }

    public RequestState withTable(int g, BlockTable value) {
        return g == 0 ? withBlockTable(value) : withGroups(groups.withTable(g, value));
    }

    public RequestState withCursor(int g, int value) {
        return g == 0 ? withCursor(value) : withGroups(groups.withCursor(g, value));
    }

    /** Whether some table entry names a block (null entries name none). */
    public boolean holdsBlocks() {
        for (int g = 0; g < tableCount(); g++) {
            if (table(g).hasBlock()) {
                return true;
            }
        }
        return false;
    }

    /** {@code K_g = floor(n / C_g)}: chunk {@code i} of group {@code g} has a key exactly when {@code i < K_g}. */
    public int keyCount(io.kvledger.domain.config.EngineConfig config, int g) {
        return (int) ((long) hashes.fullBlocks() * hashes.blockSize() / config.chunkTokens(g));
    }

    /**
     * The key of chunk {@code i} of group {@code g}: it names the pair (g, the first {@code (i+1)*C_g} tokens),
     * so the same tokens have a different key in each group (group 0's is the hash itself).
     */
    public String key(io.kvledger.domain.config.EngineConfig config, int g, int chunk) {
        int hashesPerChunk = config.chunkTokens(g) / hashes.blockSize();
        String hash = hashes.get((chunk + 1) * hashesPerChunk - 1);
        return g == 0 ? hash : hash + "/g" + g;
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
                hashes, pendingMatch, jobIds, groups, controls);
    }

    public RequestState withCursor(int value) {
        return new RequestState(requestId, ordinal, promptLength, numTokens, computed, value, status, blockTable,
                hashes, pendingMatch, jobIds, groups, controls);
    }

    public RequestState withStatus(RequestStatus value) {
        return new RequestState(requestId, ordinal, promptLength, numTokens, computed, cursor, value, blockTable,
                hashes, pendingMatch, jobIds, groups, controls);
    }

    public RequestState withBlockTable(BlockTable value) {
        return new RequestState(requestId, ordinal, promptLength, numTokens, computed, cursor, status, value,
                hashes, pendingMatch, jobIds, groups, controls);
    }

    public RequestState withTokens(int value, BlockHashes newHashes) {
        return new RequestState(requestId, ordinal, promptLength, value, computed, cursor, status, blockTable,
                newHashes, pendingMatch, jobIds, groups, controls);
    }

    public RequestState withPendingMatch(PrefixMatch value) {
        return new RequestState(requestId, ordinal, promptLength, numTokens, computed, cursor, status, blockTable,
                hashes, value, jobIds, groups, controls);
    }

    public RequestState withJobIds(JobIds value) {
        return new RequestState(requestId, ordinal, promptLength, numTokens, computed, cursor, status, blockTable,
                hashes, pendingMatch, value, groups, controls);
    }

    public RequestState withGroups(GroupTables value) {
        return new RequestState(requestId, ordinal, promptLength, numTokens, computed, cursor, status, blockTable,
                hashes, pendingMatch, jobIds, value, controls);
    }

    public RequestState withControls(RequestControls value) {
        return new RequestState(requestId, ordinal, promptLength, numTokens, computed, cursor, status, blockTable,
                hashes, pendingMatch, jobIds, groups, value);
    }

    /**
     * The record's own form, naming {@code controls} only when the request has some: the printed state of a
     * request without controls reads as it did before revision 6 (golden digests, replay's state).
     */
    @Override
    public String toString() {
        return "RequestState[requestId=" + requestId + ", ordinal=" + ordinal + ", promptLength=" + promptLength
                + ", numTokens=" + numTokens + ", computed=" + computed + ", cursor=" + cursor + ", status=" + status
                + ", blockTable=" + blockTable + ", hashes=" + hashes + ", pendingMatch=" + pendingMatch
                + ", jobIds=" + jobIds + ", groups=" + groups + (controls == null ? "" : ", controls=" + controls) + "]";
    }

    /** The request's own {@code maxOffloadTokens} (contract 9.1), or {@code null}. */
    public Integer maxOffloadTokens() {
        return controls == null ? null : controls.maxOffloadTokens();
    }

    /** The request's own {@code maxLoadTokens} (contract 9.1), or {@code null}. */
    public Integer maxLoadTokens() {
        return controls == null ? null : controls.maxLoadTokens();
    }

    /** Whether its lookup skips the CPU tier ({@code skipReadingPrefixCache: true}, contract 9.1). */
    public boolean skipsPrefixCache() {
        return controls != null && controls.skipsPrefixCache();
    }
}

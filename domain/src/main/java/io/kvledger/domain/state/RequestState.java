package io.kvledger.domain.state;

import io.kvledger.domain.group.GroupKeys;
import java.util.List;
import java.util.Objects;

/**
 * One request as folded from its events: changed in place by the fold ({@code io.kvledger.domain.*Fold}, through
 * the {@code set} methods), as the rest of the state is, so a decode step allocates nothing for it. A reader holds
 * it only until the next fold (as it holds the {@link EngineState}); what a rule asks of a request changed (a
 * decision's "what if") is a copy, from a {@code with} method, which leaves this one as it is. Its fields are
 * written in this order (snapshots, views), as the record it was wrote its components.
 *
 * <p>{@code ordinal}: registration order, from 0; {@code numTokens}: {@code n}, prompt plus appended tokens;
 * {@code computed}: {@code c}; {@code cursor}: {@code s}, the next chunk index to store; {@code blockTable}: the
 * GPU blocks it holds, in allocation order (what is released leaves the table); {@code hashes}: chained hashes of
 * its full blocks, chunk keys are taken from them; {@code pendingMatch}: the unused {@code PrefixMatched}, or
 * {@code null}; {@code jobIds}: its jobs in flight (one load, or stores only); {@code groups}: the tables and
 * cursors of groups 1 .. G-1 with two groups or more, else {@code null} ({@code blockTable} and {@code cursor} are
 * group 0's); {@code controls}: the controls its {@code RequestRegistered} gave (contract 9.1), or {@code null}.
 */
public final class RequestState {

    private final String requestId;
    private final long ordinal;
    private final int promptLength;
    private int numTokens;
    private int computed;
    private int cursor;
    private RequestStatus status;
    private BlockTable blockTable;
    private BlockHashes hashes;
    private PrefixMatch pendingMatch;
    private JobIds jobIds;
    private GroupTables groups;
    private RequestControls controls;
    /**
     * Groups 1 .. G-1's chunk keys, made as the fold learns the hashes ({@link #setGroupKeys}) and given by
     * {@link #key}. Derived from the hashes, they are no part of the value (equals, hash code) and are not written
     * ({@code transient}: a snapshot is as it was); a request without them (a decision's copy with new tokens, one read
     * from a snapshot) makes a key when asked. {@code null}: none made yet.
     */
    private transient GroupChunkKeys groupKeys;

    public RequestState(String requestId, long ordinal, int promptLength, int numTokens, int computed, int cursor,
                        RequestStatus status, BlockTable blockTable, BlockHashes hashes, PrefixMatch pendingMatch,
                        JobIds jobIds, GroupTables groups, RequestControls controls) {
        this.requestId = requestId;
        this.ordinal = ordinal;
        this.promptLength = promptLength;
        this.numTokens = numTokens;
        this.computed = computed;
        this.cursor = cursor;
        this.status = status;
        this.blockTable = blockTable;
        this.hashes = hashes;
        this.pendingMatch = pendingMatch;
        this.jobIds = jobIds;
        this.groups = groups;
        this.controls = controls;
    }

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

    /** A request of its own, equal to this one: folding either leaves the other as it is (its values are immutable). */
    public RequestState copy() {
        RequestState copy = new RequestState(requestId, ordinal, promptLength, numTokens, computed, cursor, status,
                blockTable, hashes, pendingMatch, jobIds, groups, controls);
        copy.groupKeys = groupKeys; // an immutable value, shared as the hashes are
        return copy;
    }

    public String requestId() {
        return requestId;
    }

    public long ordinal() {
        return ordinal;
    }

    public int promptLength() {
        return promptLength;
    }

    public int numTokens() {
        return numTokens;
    }

    public int computed() {
        return computed;
    }

    public int cursor() {
        return cursor;
    }

    public RequestStatus status() {
        return status;
    }

    public BlockTable blockTable() {
        return blockTable;
    }

    public BlockHashes hashes() {
        return hashes;
    }

    public PrefixMatch pendingMatch() {
        return pendingMatch;
    }

    public JobIds jobIds() {
        return jobIds;
    }

    public GroupTables groups() {
        return groups;
    }

    public RequestControls controls() {
        return controls;
    }

    // The fold's writes, in place. Only the fold calls them (DomainArchitectureTest); a rule copies with a with method.

    /** {@code n} and the hashes that follow it (TokensAppended). */
    public void setTokens(int value, BlockHashes newHashes) {
        numTokens = value;
        hashes = newHashes;
    }

    /**
     * Makes the keys of groups 1 .. G-1's chunks the hashes now complete and the request has none of yet (after a
     * registration or {@link #setTokens}): each made once here, then found by {@link #key}. Nothing for one group.
     */
    public void setGroupKeys(io.kvledger.domain.config.EngineConfig config) {
        groupKeys = GroupChunkKeys.grown(groupKeys, config, hashes, Math.min(tableCount(), config.groupCount()));
    }

    public void setComputed(int value) {
        computed = value;
    }

    public void setStatus(RequestStatus value) {
        status = value;
    }

    public void setPendingMatch(PrefixMatch value) {
        pendingMatch = value;
    }

    public void setJobIds(JobIds value) {
        jobIds = value;
    }

    /** Group {@code g}'s table {@code T_g}. */
    public void setTable(int g, BlockTable value) {
        if (g == 0) {
            blockTable = value;
        } else {
            groups = groups.withTable(g, value);
        }
    }

    /** Group {@code g}'s cursor {@code s_g}. */
    public void setCursor(int g, int value) {
        if (g == 0) {
            cursor = value;
        } else {
            groups = groups.withCursor(g, value);
        }
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

    /** A copy with group {@code g}'s table {@code value}. */
    public RequestState withTable(int g, BlockTable value) {
        RequestState copy = copy();
        copy.setTable(g, value);
        return copy;
    }

    /** A copy with group {@code g}'s cursor {@code value}. */
    public RequestState withCursor(int g, int value) {
        RequestState copy = copy();
        copy.setCursor(g, value);
        return copy;
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
        if (g > 0 && groupKeys != null) {
            String made = groupKeys.find(g, chunk);
            if (made != null) {
                return made;
            }
        }
        int hashesPerChunk = config.chunkTokens(g) / hashes.blockSize();
        String hash = hashes.get((chunk + 1) * hashesPerChunk - 1);
        return GroupKeys.of(hash, g);
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

    // The copies a rule asks for (what a request would be after an event); this one is left as it is.

    public RequestState withComputed(int value) {
        RequestState copy = copy();
        copy.computed = value;
        return copy;
    }

    public RequestState withCursor(int value) {
        RequestState copy = copy();
        copy.cursor = value;
        return copy;
    }

    public RequestState withStatus(RequestStatus value) {
        RequestState copy = copy();
        copy.status = value;
        return copy;
    }

    public RequestState withBlockTable(BlockTable value) {
        RequestState copy = copy();
        copy.blockTable = value;
        return copy;
    }

    public RequestState withTokens(int value, BlockHashes newHashes) {
        RequestState copy = copy();
        copy.numTokens = value;
        copy.hashes = newHashes;
        return copy;
    }

    public RequestState withPendingMatch(PrefixMatch value) {
        RequestState copy = copy();
        copy.pendingMatch = value;
        return copy;
    }

    public RequestState withJobIds(JobIds value) {
        RequestState copy = copy();
        copy.jobIds = value;
        return copy;
    }

    public RequestState withGroups(GroupTables value) {
        RequestState copy = copy();
        copy.groups = value;
        return copy;
    }

    public RequestState withControls(RequestControls value) {
        RequestState copy = copy();
        copy.controls = value;
        return copy;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RequestState that && ordinal == that.ordinal && promptLength == that.promptLength
                && numTokens == that.numTokens && computed == that.computed && cursor == that.cursor
                && status == that.status && Objects.equals(requestId, that.requestId)
                && Objects.equals(blockTable, that.blockTable) && Objects.equals(hashes, that.hashes)
                && Objects.equals(pendingMatch, that.pendingMatch) && Objects.equals(jobIds, that.jobIds)
                && Objects.equals(groups, that.groups) && Objects.equals(controls, that.controls);
    }

    /** Of its values now: a request that the fold changes is no key of a hash table. */
    @Override
    public int hashCode() {
        return Objects.hash(requestId, ordinal, promptLength, numTokens, computed, cursor, status, blockTable, hashes,
                pendingMatch, jobIds, groups, controls);
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

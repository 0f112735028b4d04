package io.kvledger.domain.rules;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.state.CpuTier;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.BlockTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The offer of a grouped engine (contract section 7.4): per group the chunks {@code s_g .. S_g-1} whose
 * table entries are not null and that the alignment does not pass over, made as one tier decision. Shared
 * by the decision and the fold, so both derive the same offer from the same state.
 *
 * @param ends        {@code S_g} per group: every cursor becomes {@code max(s_g, S_g)} once the offer is taken
 * @param chunks      the offered chunk indices, per group, ascending
 * @param keys        their keys
 * @param lacking     the offered chunks the tier does not hold
 * @param lackingKeys their keys
 */
public record GroupedOffer(List<Integer> ends, PerGroup<Integer> chunks, PerGroup<String> keys,
                           PerGroup<Integer> lacking, PerGroup<String> lackingKeys) {

    /** No group has a chunk past its cursor: nothing to offer and no cursor moves (most steps of a decode). */
    public static final GroupedOffer NOTHING = new GroupedOffer(List.of(), PerGroup.emptySingle(), PerGroup.emptySingle(),
            PerGroup.emptySingle(), PerGroup.emptySingle());

    public static GroupedOffer of(EngineConfig config, CpuTier tier, RequestState request) {
        return derive(config, tier, request);
    }

    private static GroupedOffer derive(EngineConfig config, CpuTier tier, RequestState request) {
        int[] ends = ends(config, request);
        if (ends == null) {
            return NOTHING;
        }
        int groups = ends.length;
        List<?>[] chunks = new List<?>[groups];
        List<?>[] keys = new List<?>[groups];
        List<?>[] lacking = new List<?>[groups];
        List<?>[] lackingKeys = new List<?>[groups];
        for (int g = 0; g < groups; g++) {
            // Each list at its size, into List.of's lists, which a per-group field takes as they are (no copy).
            int[] offeredChunks = offeredChunks(config, request, g, ends[g]);
            int n = offeredChunks.length;
            Integer[] offered = new Integer[n];
            String[] offeredKeys = new String[n];
            boolean[] held = new boolean[n];
            int missing = 0;
            for (int i = 0; i < n; i++) {
                offered[i] = offeredChunks[i];
                offeredKeys[i] = request.key(config, g, offeredChunks[i]);
                held[i] = tier.holds(offeredKeys[i]);
                missing += held[i] ? 0 : 1;
            }
            Integer[] missingChunks = new Integer[missing];
            String[] missingKeys = new String[missing];
            for (int i = 0, m = 0; i < n; i++) {
                if (!held[i]) {
                    missingChunks[m] = offered[i];
                    missingKeys[m++] = offeredKeys[i];
                }
            }
            chunks[g] = List.of(offered);
            keys[g] = List.of(offeredKeys);
            lacking[g] = List.of(missingChunks);
            lackingKeys[g] = List.of(missingKeys);
        }
        List<Integer> endList = new ArrayList<>(groups);
        for (int end : ends) {
            endList.add(end);
        }
        return new GroupedOffer(List.copyOf(endList), perGroup(chunks), perGroup(keys), perGroup(lacking),
                perGroup(lackingKeys));
    }

    /** The per-group field of {@code lists}, each a {@code List.of} list: taken as they are, in a {@code List.of} list. */
    @SuppressWarnings("unchecked")
    private static <T> PerGroup<T> perGroup(List<?>[] lists) {
        return PerGroup.of((List<List<T>>) (List<?>) List.of(lists));
    }

    /**
     * {@code S_g} of every group, or {@code null} when no group has a chunk past its cursor (the offer is
     * {@link #NOTHING}). Reads no tier: what a fold needs to move cursors, without the tier's answers.
     */
    public static int[] ends(EngineConfig config, RequestState request) {
        int groups = config.groupCount();
        int bound = StoreBound.tokenBound(config, request);
        if (!reachesPastCursor(config, request, bound)) {
            return null;
        }
        boolean decoding = bound > request.promptLength();
        int[] ends = new int[groups];
        boolean any = false;
        for (int g = 0; g < groups; g++) {
            ends[g] = storableChunks(config, request, g, bound, decoding);
            any |= ends[g] > request.cursor(g);
        }
        return any ? ends : null;
    }

    /**
     * Whether {@code request} could offer anything were its {@code c} {@code computed}: false says the offer is
     * {@link #NOTHING} without reading a table, a key or the tier (so a decision need not make the request it asks about).
     */
    public static boolean reaches(EngineConfig config, RequestState request, int computed) {
        return reachesPastCursor(config, request, StoreBound.tokenBound(config, request, computed));
    }

    /**
     * {@code S_g <= max(0, floor(O/C_g))} and {@code s_g >= 0}: a group whose token bound reaches no chunk past its
     * cursor offers nothing, whatever its table and keys. Most decode steps end here, reading neither.
     */
    private static boolean reachesPastCursor(EngineConfig config, RequestState request, int bound) {
        for (int g = 0; g < config.groupCount(); g++) {
            if (bound / config.chunkTokens(g) > request.cursor(g)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Group {@code g}'s offered chunks before {@code end}, from its cursor, ascending: those whose table entries
     * are not null and that the alignment does not pass over. Reads no tier.
     */
    public static int[] offeredChunks(EngineConfig config, RequestState request, int g, int end) {
        int cursor = request.cursor(g);
        if (end <= cursor) {
            return new int[0];
        }
        // A FULL group has neither alignment nor window (and the implicit group need not be built to say so).
        boolean sliding = config.isSliding(g);
        int alignment = sliding ? config.alignment(g) : 0;
        int reach = (sliding ? config.windowChunks(g) : 0) + config.eagleChunks(g);
        BlockTable table = request.table(g);
        int f = config.blocksPerChunk();
        int[] offered = new int[end - cursor];
        int count = 0;
        for (int chunk = cursor; chunk < end; chunk++) {
            if (!hasNullEntry(table, chunk, f) && !passedOver(chunk, end, alignment, reach)) {
                offered[count++] = chunk;
            }
        }
        return count == offered.length ? offered : Arrays.copyOf(offered, count);
    }

    /** The keys of group {@code g}'s offered chunks before {@code end}, in chunk order; reads no tier. */
    public static List<String> offeredKeys(EngineConfig config, RequestState request, int g, int end) {
        if (end <= request.cursor(g)) {
            return List.of();
        }
        int[] chunks = offeredChunks(config, request, g, end);
        if (chunks.length == 0) {
            return List.of();
        }
        List<String> keys = new ArrayList<>(chunks.length);
        for (int chunk : chunks) {
            keys.add(request.key(config, g, chunk));
        }
        return keys;
    }

    /**
     * {@code S_g = max(0, min(floor(O/C_g) - x_g*[O > promptLength], floor(len(T_g)/F), K_g))}: an eagle group
     * holds back its last chunk while decoding; null entries count in the table's length.
     */
    public static int storableChunks(EngineConfig config, RequestState request, int g, int bound, boolean decoding) {
        int byTokens = bound / config.chunkTokens(g) - (decoding ? config.eagleChunks(g) : 0);
        int byBlocks = request.table(g).size() / config.blocksPerChunk();
        int byKeys = request.keyCount(config, g);
        return Math.max(0, Math.min(byTokens, Math.min(byBlocks, byKeys)));
    }

    /** vLLM's alignment skip: of each run of {@code A_g} chunks only the last {@code W_g + x_g} can end a hit. */
    public static boolean passedOver(int chunk, int end, int alignment, int reach) {
        if (alignment == 0) {
            return false;
        }
        int pos = chunk % alignment;
        int segment = chunk - pos;
        int length = Math.min(alignment, end - segment);
        return pos < length - reach;
    }

    private static boolean hasNullEntry(BlockTable table, int chunk, int f) {
        for (int i = chunk * f; i < chunk * f + f; i++) {
            if (table.isNull(i)) {
                return true;
            }
        }
        return false;
    }

    public boolean isEmpty() {
        return chunks.isEmpty();
    }

    public boolean isHeldWhole() {
        return !chunks.isEmpty() && lacking.isEmpty();
    }
}

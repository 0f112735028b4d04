package io.kvledger.domain.rules;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.state.CpuTier;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.BlockTable;
import java.util.ArrayList;
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
        int groups = config.groupCount();
        int bound = StoreBound.tokenBound(config, request);
        boolean decoding = bound > request.promptLength();
        boolean any = false;
        for (int g = 0; g < groups && !any; g++) {
            any = storableChunks(config, request, g, bound, decoding) > request.cursor(g);
        }
        if (!any) {
            return NOTHING;
        }
        int f = config.blocksPerChunk();
        List<Integer> ends = new ArrayList<>(groups);
        List<List<Integer>> chunks = new ArrayList<>(groups);
        List<List<String>> keys = new ArrayList<>(groups);
        List<List<Integer>> lacking = new ArrayList<>(groups);
        List<List<String>> lackingKeys = new ArrayList<>(groups);
        for (int g = 0; g < groups; g++) {
            KvCacheGroup group = config.group(g);
            BlockTable table = request.table(g);
            int end = storableChunks(config, request, g, bound, decoding);
            ends.add(end);
            List<Integer> offered = new ArrayList<>();
            List<String> offeredKeys = new ArrayList<>();
            List<Integer> missing = new ArrayList<>();
            List<String> missingKeys = new ArrayList<>();
            int alignment = config.alignment(g);
            int reach = config.windowChunks(g) + group.eagleChunks();
            for (int chunk = request.cursor(g); chunk < end; chunk++) {
                if (hasNullEntry(table, chunk, f) || passedOver(chunk, end, alignment, reach)) {
                    continue;
                }
                String key = request.key(config, g, chunk);
                offered.add(chunk);
                offeredKeys.add(key);
                if (!tier.holds(key)) {
                    missing.add(chunk);
                    missingKeys.add(key);
                }
            }
            chunks.add(offered);
            keys.add(offeredKeys);
            lacking.add(missing);
            lackingKeys.add(missingKeys);
        }
        return new GroupedOffer(List.copyOf(ends), PerGroup.of(chunks), PerGroup.of(keys), PerGroup.of(lacking),
                PerGroup.of(lackingKeys));
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

package io.kvledger.domain.state;

import io.kvledger.containers.AppendOnlyList;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.group.GroupKeys;
import java.util.List;

/**
 * One request's chunk keys of groups 1 .. G-1, in chunk order ({@link GroupKeys#of} of each chunk's last hash), made
 * once as the fold learns the request's hashes: each key is hashed once, and the tier and the tools' key maps find it
 * by identity. An immutable value: growing it makes another, whose lists share arrays under {@code SharedArray}'s
 * protocol as the hashes' do, so a request's copies may share it and grow apart.
 */
final class GroupChunkKeys {

    /** Group {@code g}'s keys at {@code g - 1}. */
    private final List<AppendOnlyList<String>> lists;

    private GroupChunkKeys(List<AppendOnlyList<String>> lists) {
        this.lists = lists;
    }

    /** The key of group {@code g}'s chunk {@code chunk} ({@code g >= 1}), or {@code null} when it was not made. */
    String find(int g, int chunk) {
        if (g > lists.size()) {
            return null;
        }
        AppendOnlyList<String> made = lists.get(g - 1);
        return chunk >= 0 && chunk < made.size() ? made.get(chunk) : null;
    }

    /**
     * {@code keys} ({@code null}: none) and the keys of the chunks that {@code hashes} complete in groups 1 ..
     * {@code groupCount - 1} and {@code keys} lacks; {@code keys} itself when none is new, {@code null} for one group.
     */
    static GroupChunkKeys grown(GroupChunkKeys keys, EngineConfig config, BlockHashes hashes, int groupCount) {
        if (groupCount <= 1) {
            return keys;
        }
        List<AppendOnlyList<String>> lists = keys == null ? List.of() : keys.lists;
        AppendOnlyList<String>[] grown = null;
        for (int g = 1; g < groupCount; g++) {
            AppendOnlyList<String> made = g <= lists.size() ? lists.get(g - 1) : AppendOnlyList.empty();
            int hashesPerChunk = config.chunkTokens(g) / hashes.blockSize();
            int known = (int) ((long) hashes.fullBlocks() * hashes.blockSize() / config.chunkTokens(g)); // K_g
            if (known > made.size()) {
                if (grown == null) {
                    grown = copy(lists, groupCount - 1);
                }
                String[] more = new String[known - made.size()];
                for (int i = 0; i < more.length; i++) {
                    more[i] = GroupKeys.of(hashes.get((made.size() + i + 1) * hashesPerChunk - 1), g);
                }
                grown[g - 1] = made.plus(more);
            }
        }
        return grown == null ? keys : new GroupChunkKeys(List.of(grown));
    }

    @SuppressWarnings("unchecked")
    private static AppendOnlyList<String>[] copy(List<AppendOnlyList<String>> lists, int count) {
        AppendOnlyList<String>[] copy = new AppendOnlyList[count];
        for (int i = 0; i < count; i++) {
            copy[i] = i < lists.size() ? lists.get(i) : AppendOnlyList.empty();
        }
        return copy;
    }
}

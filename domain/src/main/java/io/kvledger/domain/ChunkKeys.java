package io.kvledger.domain;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.state.RequestState;
import java.util.ArrayList;
import java.util.List;

/** The keys of a per-group list of chunk indices (a chunk no key names yet, only a foreign log gives, is skipped). */
final class ChunkKeys {

    private ChunkKeys() {
    }

    static PerGroup<String> of(EngineConfig config, RequestState request, PerGroup<Integer> chunks) {
        List<List<String>> keys = new ArrayList<>(chunks.groupCount());
        for (int g = 0; g < Math.min(chunks.groupCount(), config.groupCount()); g++) {
            int known = request.keyCount(config, g);
            List<String> group = new ArrayList<>(chunks.group(g).size());
            for (Integer chunk : chunks.group(g)) {
                if (chunk != null && chunk >= 0 && chunk < known) {
                    group.add(request.key(config, g, chunk));
                }
            }
            keys.add(group);
        }
        return keys.isEmpty() ? PerGroup.emptySingle() : PerGroup.of(keys);
    }
}

package io.kvledger.application.check;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.rules.StoreBound;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;

/** A store's slice against the request just before it: lengths agree, chunks lie under the token bound and in the table. */
final class StoreSlice {

    private StoreSlice() {
    }

    static void check(EngineState state, StoreJobScheduled store, EventLogRules.Findings findings) {
        EngineConfig config = state.config();
        int f = config.blocksPerChunk();
        int chunks = store.chunkIndices().size();
        if (chunks == 0 || store.keys().size() != chunks || store.blockIds().size() != f * chunks) {
            findings.add("STORE_SLICE_MISMATCH", chunks + " chunks, " + store.keys().size() + " keys and "
                    + store.blockIds().size() + " blocks (F = " + f + ")");
            return;
        }
        RequestState request = state.liveRequest(store.requestId());
        if (request == null) {
            findings.add("STORE_BEYOND_ALLOCATED", "a store of a request that holds nothing");
            return;
        }
        int bound = StoreBound.tokenBound(config, request);
        for (int i = 0; i < chunks; i++) {
            int chunk = store.chunkIndices().get(i);
            if ((long) (chunk + 1) * config.chunkTokens() > bound) {
                findings.add("STORE_BEYOND_BOUND", "chunk " + chunk + " reaches past the token bound " + bound
                        + " (c = " + request.computed() + ", n = " + request.numTokens() + ")");
            }
            if (chunk >= request.keyCount(f) || !request.key(chunk, f).equals(store.keys().get(i))) {
                findings.add("STORE_SLICE_MISMATCH", "key " + store.keys().get(i) + " is not the key of chunk " + chunk);
            }
            for (int j = 0; j < f; j++) {
                int slot = chunk * f + j;
                if (slot >= request.blockTable().size()
                        || !request.blockTable().get(slot).equals(store.blockIds().get(i * f + j))) {
                    findings.add("STORE_BEYOND_ALLOCATED", "source block " + store.blockIds().get(i * f + j)
                            + " is not slot " + slot + " of the table (" + request.blockTable().size() + " blocks)");
                }
            }
        }
    }
}

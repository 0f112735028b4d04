package io.kvledger.domain;

import static io.kvledger.domain.DomainLedger.tokens;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.command.InvalidCommand;
import io.kvledger.domain.command.ResetCache;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.rules.StoreOffer;
import io.kvledger.domain.state.CpuTier;
import io.kvledger.domain.state.RequestState;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The small parts the rules stand on: config values and withers, tier eviction, a request's keys, offers. */
class StateHelpersTest {

    @Test
    void eachWitherChangesItsFieldOnly() {
        EngineConfig d = EngineConfig.DEFAULTS;
        assertEquals(new EngineConfig(4, 1, 1, 1024, ReleasePolicy.FENCE, null, false), d.withGpuBlockSize(4));
        assertEquals(new EngineConfig(16, 3, 1, 1024, ReleasePolicy.FENCE, null, false), d.withBlocksPerChunk(3));
        assertEquals(new EngineConfig(16, 1, 2, 1024, ReleasePolicy.FENCE, null, false), d.withWorkers(2));
        assertEquals(new EngineConfig(16, 1, 1, 7, ReleasePolicy.FENCE, null, false), d.withCpuCapacityChunks(7));
        assertEquals(new EngineConfig(16, 1, 1, 1024, ReleasePolicy.DELAY_FREE, null, false), d.withReleasePolicy(ReleasePolicy.DELAY_FREE));
        assertEquals(new EngineConfig(16, 1, 1, 1024, ReleasePolicy.FENCE, 64, false), d.withMaxOffloadTokens(64));
        assertEquals(new EngineConfig(16, 1, 1, 1024, ReleasePolicy.FENCE, null, true), d.withOffloadPromptOnly(true));
        assertEquals(48, d.withBlocksPerChunk(3).chunkTokens());
    }

    @Test
    void valuesOutOfRangeAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> EngineConfig.DEFAULTS.withGpuBlockSize(0));
        assertThrows(IllegalArgumentException.class, () -> EngineConfig.DEFAULTS.withBlocksPerChunk(0));
        assertThrows(IllegalArgumentException.class, () -> EngineConfig.DEFAULTS.withWorkers(0));
        assertThrows(IllegalArgumentException.class, () -> EngineConfig.DEFAULTS.withCpuCapacityChunks(-1));
        assertThrows(IllegalArgumentException.class, () -> EngineConfig.DEFAULTS.withMaxOffloadTokens(-1));
        assertThrows(NullPointerException.class, () -> EngineConfig.DEFAULTS.withReleasePolicy(null));
        assertThrows(IllegalArgumentException.class, () -> new EngineConfig(1 << 16, 1 << 16, 1, 0, ReleasePolicy.FENCE, null, false));
        assertEquals(0, EngineConfig.DEFAULTS.withCpuCapacityChunks(0).cpuCapacityChunks());
        assertEquals(1, EngineConfig.DEFAULTS.withGpuBlockSize(1).gpuBlockSize());
    }

    @Test
    void evictionCandidatesAreTheLeastRecentReadyUnpinnedUnprotectedChunks() {
        CpuTier tier = CpuTier.empty(8).writing(List.of("a", "b", "c", "d")).ready(List.of("a", "b", "c"))
                .pin(List.of("b"));
        assertEquals(List.of(), tier.evictionCandidates(0, Set.of()));
        assertEquals(List.of("a"), tier.evictionCandidates(1, Set.of()));
        assertEquals(List.of("c"), tier.evictionCandidates(1, Set.of("a")));
        assertEquals(List.of("a", "c"), tier.evictionCandidates(5, Set.of()), "pinned b and unwritten d stay");
        assertEquals(List.of("c", "a"), tier.touch(List.of("a")).leastRecentFirst(List.of("a", "c")));
    }

    @Test
    void keysExistForFullChunksOnlyAndUnknownChunksAreSkipped() {
        RequestState request = RequestState.registered("r", 0, tokens(0, 9), 2); // 4 full blocks of B = 2
        assertEquals(4, request.keyCount(1));
        assertEquals(2, request.keyCount(2));
        assertEquals(1, request.keyCount(3));
        assertEquals(List.of(request.key(0, 2), request.key(1, 2)), request.keys(List.of(-1, 0, 1, 2), 2));
    }

    @Test
    void anOfferIsEmptyWhenNothingIsStorable() {
        EngineConfig config = EngineConfig.DEFAULTS.withGpuBlockSize(2);
        RequestState request = RequestState.registered("r", 0, tokens(0, 4), 2);
        StoreOffer nothing = StoreOffer.of(config, CpuTier.empty(4), request);
        assertTrue(nothing.isEmpty());
        assertFalse(nothing.isHeldWhole());
        StoreOffer two = StoreOffer.of(config, CpuTier.empty(4),
                request.withComputed(4).withBlockTable(io.kvledger.domain.state.BlockTable.of(5, 6)));
        assertFalse(two.isEmpty());
        assertEquals(List.of(0, 1), two.lacking());
        assertEquals(List.of(5, 6), StoreOffer.sourceBlocks(request.withBlockTable(io.kvledger.domain.state.BlockTable.of(5, 6)),
                List.of(0, 1), 1));
        assertEquals(List.of(7, 8), StoreOffer.sourceBlocks(request.withBlockTable(io.kvledger.domain.state.BlockTable.of(5, 6, 7, 8)),
                List.of(1), 2));
    }

    @Test
    void commandNamesAndWhichCommandsAddressARequest() {
        assertEquals("ResetCache", new ResetCache().name());
        assertFalse(new InvalidCommand("CompleteTransfer", null, "bad", null, 1).addressesRequest());
        assertFalse(new InvalidCommand("ResetCache", null, "bad", null, null).addressesRequest());
        assertTrue(new InvalidCommand("AbortRequest", "r", "bad", "r", null).addressesRequest());
    }
}

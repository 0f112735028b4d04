package io.kvledger.application.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.state.PrefixMatch;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The table positions a load writes, for a log without groups and a grouped one (contract section 4, 7.6). */
class LoadDestinationTest {

    private static final EngineConfig NO_GROUPS = EngineConfig.DEFAULTS.withGpuBlockSize(4).withBlocksPerChunk(2);

    @Test
    void withoutGroupsALoadWritesFromTheGpuHitToTheEndOfItsHitChunks() {
        // L = 8 (2 blocks), hit chunks 1 and 2 (C = 8): table[2 .. 6)
        PrefixMatch match = new PrefixMatch(8, 16, List.of(1, 2));
        assertEquals(2, LoadDestination.first(NO_GROUPS, 0, match));
        assertEquals(6, LoadDestination.end(NO_GROUPS, 0, match));
    }

    @Test
    void withoutGroupsAForeignMatchIsJudgedByItsHitChunksNotByItsTokens() {
        // externalTokens says N = 40 (ceil(40/8) = 5 chunks), but the match names chunks 1 and 2 only: section 4's
        // destination is (a+h)*F = 6, as revision 4's audit judged it
        PrefixMatch match = new PrefixMatch(8, 32, List.of(1, 2));
        assertEquals(6, LoadDestination.end(NO_GROUPS, 0, match));
    }

    @Test
    void aSlidingGroupWritesOnlyInsideTheWindowOfTheHitEndEvenWithoutHitChunks() {
        // [FULL B4, SWA B4 w1], L = 0, N = 8: the sliding group needs no chunk (w = 1 and B divides N, 7.5),
        // yet its destination ends at e_g*F = 2 and starts at first_g(8) = 2
        EngineConfig config = EngineConfig.DEFAULTS.withGroups(List.of(KvCacheGroup.full(4), KvCacheGroup.slidingWindow(4, 1)));
        PrefixMatch match = new PrefixMatch(0, 8, PerGroup.of(List.of(List.of(0, 1), List.<Integer>of())));
        assertEquals(0, LoadDestination.first(config, 0, match));
        assertEquals(2, LoadDestination.end(config, 0, match));
        assertEquals(2, LoadDestination.first(config, 1, match));
        assertEquals(2, LoadDestination.end(config, 1, match));
    }

    @Test
    void aGroupedLoadEndsAtTheChunkOfItsHitEndWhateverChunksItsMatchNames() {
        // 7.6: e_g = ceil(N/C_g) = 2, though this (foreign) match names only chunk 0 of group 0
        EngineConfig config = EngineConfig.DEFAULTS.withGroups(List.of(KvCacheGroup.full(4), KvCacheGroup.slidingWindow(4, 1)));
        PrefixMatch match = new PrefixMatch(0, 8, PerGroup.of(List.of(List.of(0), List.<Integer>of())));
        assertEquals(2, LoadDestination.end(config, 0, match));
    }

    @Test
    void anEagleGroupEndsAtTheChunkOfTheHitEnd() {
        // one FULL eagle group is grouped (7.0): e_g = ceil(N/C_g) = ceil(10/4) = 3
        EngineConfig config = EngineConfig.DEFAULTS.withGroups(List.of(KvCacheGroup.full(4).asEagle()));
        PrefixMatch match = new PrefixMatch(4, 6, PerGroup.of(List.of(List.of(1, 2))));
        assertEquals(1, LoadDestination.first(config, 0, match));
        assertEquals(3, LoadDestination.end(config, 0, match));
    }
}

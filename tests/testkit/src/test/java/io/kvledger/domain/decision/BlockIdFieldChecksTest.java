package io.kvledger.domain.decision;

import static io.kvledger.domain.decision.GroupFixtures.FULL_SWA4;
import static io.kvledger.domain.decision.GroupFixtures.alloc;
import static io.kvledger.domain.decision.GroupFixtures.g;
import static io.kvledger.domain.decision.GroupFixtures.l;
import static io.kvledger.domain.decision.GroupFixtures.register;
import static io.kvledger.domain.event.RejectionCode.INVALID_ARGUMENT;

import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.testkit.EventMatcher;
import io.kvledger.testkit.LedgerFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The field checks of {@code AllocateBlocks.blockIds}, one path for one group and many (contract section 4, Bad
 * input; 7.2 and 7.3 where the model is grouped): a negative id and a null outside a sliding group are
 * {@code INVALID_ARGUMENT} in every config, an id named twice only where the model is grouped (7.0). The messages
 * are compared whole: they are bytes of {@code run}'s log, section 4's wording without groups and 7.2's with them.
 */
class BlockIdFieldChecksTest {

    private static final EngineConfig NO_GROUPS = EngineConfig.DEFAULTS.withGpuBlockSize(4);
    /** One {@code FULL} group without {@code eagle}: sections 1-6 as written (contract 7.0). */
    private static final EngineConfig ONE_FULL_GROUP = EngineConfig.DEFAULTS.withGroups(List.of(KvCacheGroup.full(4)));
    /** {@code [FULL B4 eagle]}: one group, grouped (7.0). */
    private static final EngineConfig ONE_EAGLE_GROUP = EngineConfig.DEFAULTS.withGroups(List.of(KvCacheGroup.full(4).asEagle()));

    private static CommandRejected invalid(long line, String message) {
        return new CommandRejected(line, "AllocateBlocks", INVALID_ARGUMENT, message, "r", null);
    }

    @Test
    void withoutGroupsANegativeIdAndANullNameTheirPositionInTheList() {
        for (EngineConfig config : List.of(NO_GROUPS, ONE_FULL_GROUP)) {
            LedgerFixture.with(config).givenCommands(register("r", 1, 8))
                    .when(new AllocateBlocks("r", l(1, 2, -3)), new AllocateBlocks("r", l(1, null)))
                    .thenEvents(invalid(1, "blockIds[2] must be a non-negative integer, was -3"),
                            invalid(2, "blockIds[1] must be a non-negative integer, was null"));
        }
    }

    @Test
    void withoutGroupsAnIdNamedTwiceIsAllowed() {
        for (EngineConfig config : List.of(NO_GROUPS, ONE_FULL_GROUP)) {
            LedgerFixture.with(config).givenCommands(register("r", 1, 8))
                    .when(new AllocateBlocks("r", l(5, 5)))
                    .thenEvents(new BlocksAllocated("r", PerGroup.single(l(5, 5)), 0));
        }
    }

    @Test
    void oneGroupedGroupNamesTheGroupAndRefusesAnIdTwice() {
        LedgerFixture.with(ONE_EAGLE_GROUP).givenCommands(register("r", 1, 8))
                .when(new AllocateBlocks("r", l(1, -3)), new AllocateBlocks("r", l(1, null)), new AllocateBlocks("r", l(5, 5)))
                .thenEvents(invalid(1, "blockIds[0][1] must be a non-negative integer, was -3"),
                        invalid(2, "blockIds[0][1] is null; a null block is allowed only in a SLIDING_WINDOW group"),
                        invalid(3, "blockIds names block 5 twice"));
    }

    @Test
    void manyGroupsCheckEveryGroupInOrderAndAnIdTwiceAcrossGroups() {
        LedgerFixture.with(FULL_SWA4).givenCommands(register("r", 1, 8))
                .when(alloc("r", l(1, 2), l(3, -4)), alloc("r", l(1, null), l(3)), alloc("r", l(1, 2), l(2)),
                        alloc("r", l(1, 2), l(null, 12)))
                .thenEvents(invalid(1, "blockIds[1][1] must be a non-negative integer, was -4"),
                        invalid(2, "blockIds[0][1] is null; a null block is allowed only in a SLIDING_WINDOW group"),
                        invalid(3, "blockIds names block 2 twice"),
                        // A null in the sliding group passes the field checks; the table rule (7.3) refuses it here.
                        EventMatcher.rejected(4, "AllocateBlocks", INVALID_ARGUMENT, "r"));
    }

    @Test
    void aNullInASlidingGroupBelowTheWindowIsAllocated() {
        LedgerFixture.with(FULL_SWA4).givenCommands(register("r", 1, 12), alloc("r", l(1, 2), l()),
                        new ComputeTokens("r", 8))
                .when(alloc("r", l(3), l((Integer) null)))
                .thenEvents(new BlocksAllocated("r", g(l(3), l((Integer) null)), 0));
    }
}

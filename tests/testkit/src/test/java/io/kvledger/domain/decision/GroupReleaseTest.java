package io.kvledger.domain.decision;

import static io.kvledger.domain.decision.GroupFixtures.FULL_SWA4;
import static io.kvledger.domain.decision.GroupFixtures.FULL_SWA8;
import static io.kvledger.domain.decision.GroupFixtures.SWA4;
import static io.kvledger.domain.decision.GroupFixtures.alloc;
import static io.kvledger.domain.decision.GroupFixtures.free;
import static io.kvledger.domain.decision.GroupFixtures.g;
import static io.kvledger.domain.decision.GroupFixtures.l;
import static io.kvledger.domain.decision.GroupFixtures.load;
import static io.kvledger.domain.decision.GroupFixtures.register;

import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.PreemptRequest;
import io.kvledger.domain.command.ResetCache;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.RequestPreempted;
import io.kvledger.testkit.LedgerFixture;
import org.junit.jupiter.api.Test;

/** Contract section 7.7: releases per group, preemption of every table, reset of every cursor. */
class GroupReleaseTest {

    @Test
    void aReleaseNamesEachGroupsBlocksInTableOrderAndNoNullEntry() {
        LedgerFixture.with(FULL_SWA8).givenCommands(register("q", 1, 13), alloc("q", l(21, 22, 23, 24), l(31, 32, 33, 34)))
                .when(new AbortRequest("q"))
                .thenReleases(new BlocksReleased("q", g(l(21, 22, 23, 24), l(31, 32, 33, 34))));
    }

    @Test
    void aFenceReleaseKeepsBackEachGroupsLoadDestinations() {
        LedgerFixture.with(FULL_SWA8).givenCommands(register("r", 1, 12), alloc("r", l(1, 2, 3), l(11, 12, 13)),
                        new ComputeTokens("r", 12), new FinishRequest("r", FinishReason.STOPPED), new CompleteTransfer(0),
                        register("q", 1, 13), new MatchPrefix("q", 0), load("q", 12, l(21, 22, 23, 24), l(null, 31, 32, 33)))
                .when(new AbortRequest("q"), new CompleteTransfer(1))
                .thenReleases(new BlocksReleased("q", g(l(24), l(33))), new BlocksReleased("q", g(l(21, 22, 23), l(31, 32))));
    }

    @Test
    void aPreemptionReleasesAndEmptiesEveryTableEvenOneOfNullEntriesOnly() {
        // [SWA B4 w4] with no room: r's table is [null, 2] after the free of 1, the release names 2 only, and
        // a later allocation starts from position 0 again.
        LedgerFixture.with(SWA4.withCpuCapacityChunks(0)).givenCommands(register("r", 1, 8), alloc("r", l(1, 2)),
                        new ComputeTokens("r", 8), free("r", l(1)))
                .when(new PreemptRequest("r"))
                .thenEvents(new RequestPreempted("r"), new BlocksReleased("r", g(l(2))))
                .thenState(state -> {
                    if (!state.heldRequest("r").blockTable().isEmpty()) {
                        throw new AssertionError("the table is emptied: " + state.heldRequest("r"));
                    }
                });
    }

    @Test
    void aPreemptionOfFreedEntriesOnlyWritesNoRelease() {
        LedgerFixture.with(SWA4.withCpuCapacityChunks(0)).givenCommands(register("r", 1, 12), alloc("r", l(1, 2)),
                        new ComputeTokens("r", 11), free("r", l(1, 2)))
                .when(new PreemptRequest("r"))
                .thenEvents(new RequestPreempted("r"))
                .thenState(state -> {
                    if (!state.heldRequest("r").blockTable().isEmpty()) {
                        throw new AssertionError("the table is emptied: " + state.heldRequest("r"));
                    }
                });
    }

    @Test
    void aResetSetsEveryCursorToZero() {
        LedgerFixture.with(FULL_SWA4).givenCommands(register("r", 1, 8), alloc("r", l(1, 2), l(11, 12)),
                        new ComputeTokens("r", 8), new CompleteTransfer(0))
                .when(new ResetCache())
                .thenState(state -> {
                    var r = state.heldRequest("r");
                    if (r.cursor(0) != 0 || r.cursor(1) != 0) {
                        throw new AssertionError("every cursor returns to 0: " + r);
                    }
                });
    }

    @Test
    void aTerminatedRequestsWindowBlocksAreReleasedAtItsLastStoresEndUnderDelayFree() {
        LedgerFixture.with(GroupFixtures.FULL_SWA4_DELAY_FREE).givenCommands(register("r", 1, 8), alloc("r", l(1, 2), l(11, 12)),
                        new ComputeTokens("r", 8), free("r", l(), l(11)), new AbortRequest("r"))
                .when(new CompleteTransfer(0))
                .thenReleases(new BlocksReleased("r", g(l(1, 2), l(12))));
    }
}

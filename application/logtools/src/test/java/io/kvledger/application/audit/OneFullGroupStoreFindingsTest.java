package io.kvledger.application.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.finding.Finding;
import io.kvledger.domain.EngineFold;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.decision.Decider;
import io.kvledger.domain.decision.Decision;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.state.EngineState;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A log whose config gives one {@code FULL} group without {@code eagle} is audited as one without groups
 * (contract 7.0: sections 1-6 as written), though the store rule runs one path over the groups: the same
 * findings, in revision 4's codes and words, for the same damaged store.
 */
class OneFullGroupStoreFindingsTest {

    private static final EngineConfig NO_GROUPS = EngineConfig.DEFAULTS.withGpuBlockSize(4);
    private static final EngineConfig ONE_FULL_GROUP = NO_GROUPS.withGroups(List.of(KvCacheGroup.full(4)));
    private static final List<EngineCommand> COMMANDS = List.of(
            new RegisterRequest("r0", List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)),
            new AllocateBlocks("r0", List.of(5, 6, 7), 0),
            new ComputeTokens("r0", 12));

    @Test
    void aStoreReadingTheRequestsBlocksInTheWrongOrderIsASliceMismatchWithAndWithoutTheGroup() {
        UnaryOperator<StoreJobScheduled> swapped = store -> new StoreJobScheduled(store.jobId(), store.requestId(),
                store.chunkIndices(), store.keys(), PerGroup.single(List.of(6, 5, 7)));
        List<Finding> withoutGroups = audit(NO_GROUPS, swapped);
        assertTrue(withoutGroups.stream().anyMatch(finding -> finding.code() == AuditCode.STORE_SLICE_MISMATCH
                && finding.reason().equals("job 0 reads blocks [6] for chunk 0, whose blocks in the table are [5]")), withoutGroups::toString);
        assertEquals(withoutGroups, audit(ONE_FULL_GROUP, swapped));
    }

    @Test
    void aStoreReadingABlockTheRequestDoesNotHoldNamesNoGroupWithAndWithoutTheGroup() {
        UnaryOperator<StoreJobScheduled> foreign = store -> new StoreJobScheduled(store.jobId(), store.requestId(),
                store.chunkIndices(), store.keys(), PerGroup.single(List.of(5, 6, 9)));
        List<Finding> withoutGroups = audit(NO_GROUPS, foreign);
        assertTrue(withoutGroups.stream().anyMatch(finding -> finding.code() == AuditCode.STORE_BEYOND_ALLOCATED
                && finding.reason().startsWith("job 0 reads blocks [9], but ")), withoutGroups::toString);
        assertEquals(withoutGroups, audit(ONE_FULL_GROUP, foreign));
    }

    /** The findings on the log the commands write, its one store changed by {@code damage}. */
    private static List<Finding> audit(EngineConfig config, UnaryOperator<StoreJobScheduled> damage) {
        Auditor auditor = new Auditor();
        List<Finding> findings = new ArrayList<>();
        long seq = 0;
        EngineEvent configured = Decider.configure(config);
        findings.addAll(auditor.check(++seq, configured));
        EngineState state = EngineFold.evolve(null, configured);
        int stores = 0;
        for (EngineCommand command : COMMANDS) {
            Decision.Accepted accepted = (Decision.Accepted) Decider.decide(state, command);
            for (EngineEvent event : accepted.events()) {
                state = EngineFold.evolve(state, event); // the rules' own events: the next command is decided from them
                if (event instanceof StoreJobScheduled store) {
                    stores++;
                    event = damage.apply(store);
                }
                findings.addAll(auditor.check(++seq, event));
            }
        }
        findings.addAll(auditor.finish());
        assertEquals(1, stores, "the commands make one store");
        return findings;
    }
}

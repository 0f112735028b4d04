package com.example.host;

import io.kvledger.application.KvLedger;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.StoreJobScheduled;
import java.util.ArrayList;
import java.util.List;

/**
 * A host's scheduler loop, reduced to what it does with the ledger: one ledger step per scheduler step,
 * then it acts on the answer (the store jobs it must run, the blocks it may free).
 */
public final class Scheduler {

    private final KvLedger ledger;
    private final List<StoreJobScheduled> stores = new ArrayList<>();
    private final List<Integer> freed = new ArrayList<>();

    public Scheduler(KvLedger ledger) {
        this.ledger = ledger;
    }

    public StepResult step(List<EngineCommand> commands) {
        StepResult step = ledger.step(commands);
        stores.addAll(step.storeJobs());
        for (BlocksReleased release : step.releases()) {
            freed.addAll(release.blockIds().flat()); // one KV cache group: its list; with groups, every group's in order
        }
        return step;
    }

    public List<StoreJobScheduled> storesSubmitted() {
        return List.copyOf(stores);
    }

    public List<Integer> blocksFreed() {
        return List.copyOf(freed);
    }
}

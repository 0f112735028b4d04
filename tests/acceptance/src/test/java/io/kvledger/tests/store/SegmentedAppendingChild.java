package io.kvledger.tests.store;

import io.kvledger.application.KvLedger;
import io.kvledger.application.engine.StepResult;
import io.kvledger.infrastructure.store.SegmentedStores;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.SegmentPolicy;
import io.kvledger.infrastructure.store.SegmentedEventStorageEngine;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The process {@link KillDuringRollTest} kills: it steps a ledger over a store directory whose
 * segments are small (so it rolls every few steps, compresses the closed segment in the background,
 * snapshots within segments and drops old segments) and prints {@code ack SEQ} after each step.
 *
 * <p>Arguments: the directory, the fsync policy, the prompt length of {@link SteadyWorkload}.
 */
public final class SegmentedAppendingChild {

    static final SegmentPolicy POLICY = SegmentPolicy.DEFAULTS.withSegmentBytes(8_192).withSnapshotEvery(60)
            .withRetainBytes(120_000);

    private SegmentedAppendingChild() {
    }

    public static void main(String[] args) {
        SegmentedEventStorageEngine store = SegmentedEventStorageEngine.open(Path.of(args[0]), FsyncPolicy.parse(args[1]), POLICY);
        int promptTokens = Integer.parseInt(args[2]);
        PrintStream out = System.out;
        try (KvLedger ledger = SegmentedStores.builder(store).config(SteadyWorkload.config(promptTokens)).build()) {
            SteadyWorkload workload = new SteadyWorkload(promptTokens);
            StepResult result = null;
            while (!Thread.currentThread().isInterrupted()) {
                result = ledger.step(workload.next(result));
                out.println("ack " + store.writtenSeq() + " " + store.rolls());
                out.flush();
            }
        }
    }
}

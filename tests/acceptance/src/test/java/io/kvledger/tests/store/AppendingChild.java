package io.kvledger.tests.store;

import io.kvledger.application.KvLedger;
import io.kvledger.application.engine.StepResult;
import io.kvledger.infrastructure.store.FileStores;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.JsonlEventStorageEngine;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The process {@link KillDuringAppendTest} kills: it steps a ledger over a file store forever and,
 * after each step returns, prints {@code ack WRITTEN FORCED DECIDED}, the seq of the last event
 * written, the seq the store has forced to disk and the seq of the step's last event, and flushes.
 * A written seq is a promise the store must keep across a SIGKILL, under every fsync policy; under
 * {@code never} and {@code interval} a step returns before it is written, so DECIDED may be ahead.
 *
 * <p>Arguments: the store file, the fsync policy ({@code always}, {@code never}, {@code interval:MS}),
 * the prompt length of {@link SteadyWorkload} and, optionally, the events between snapshots.
 */
public final class AppendingChild {

    private AppendingChild() {
    }

    public static void main(String[] args) {
        Path file = Path.of(args[0]);
        long snapshotEvery = args.length > 3 ? Long.parseLong(args[3]) : JsonlEventStorageEngine.DEFAULT_SNAPSHOT_EVERY;
        JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.parse(args[1]), snapshotEvery);
        int promptTokens = Integer.parseInt(args[2]);
        PrintStream out = System.out;
        try (KvLedger ledger = FileStores.builder(store).config(SteadyWorkload.config(promptTokens)).build()) {
            SteadyWorkload workload = new SteadyWorkload(promptTokens);
            StepResult result = null;
            out.println("ready " + store.lastSeq());
            out.flush();
            while (!Thread.currentThread().isInterrupted()) {
                result = ledger.step(workload.next(result));
                long decided = store.lastSeq();
                out.println("ack " + store.writtenSeq() + " " + store.forcedSeq() + " " + decided);
                out.flush();
            }
        }
    }
}

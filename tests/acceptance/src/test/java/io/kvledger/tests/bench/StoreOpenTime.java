package io.kvledger.tests.bench;

import io.kvledger.application.KvLedger;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.infrastructure.store.FileStores;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.JsonlEventStorageEngine;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How long a large store takes to open, and the heap it then holds.
 *
 * <pre>
 * java -cp CP io.kvledger.tests.bench.StoreOpenTime generate STORE EVENTS [SNAPSHOT_EVERY]   # the decode workload until EVENTS events
 * java -cp CP io.kvledger.tests.bench.StoreOpenTime open STORE [TIMES]      # open and resume TIMES times, measure each
 * </pre>
 */
public final class StoreOpenTime {

    private StoreOpenTime() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[1]);
        if (args[0].equals("generate")) {
            long events = Long.parseLong(args[2]);
            long snapshotEvery = args.length > 3 ? Long.parseLong(args[3]) : JsonlEventStorageEngine.DEFAULT_SNAPSHOT_EVERY;
            try (KvLedger ledger = FileStores.builder(JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, snapshotEvery))
                    .config(EngineConfig.DEFAULTS).build()) {
                DecodeWorkload workload = new DecodeWorkload(256);
                workload.observe(ledger.step(workload.warmUp()).events());
                long stored = 0;
                while (stored < events) {
                    var result = ledger.step(workload.nextStep());
                    workload.observe(result.events());
                    stored += result.events().size();
                }
            }
            System.out.printf("generated %s: %d bytes%n", file, Files.size(file));
            return;
        }
        int times = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        for (int i = 1; i < times; i++) {
            open(file); // warms the JIT up: the figure of record is the last open
        }
        open(file);
    }

    private static void open(Path file) throws Exception {
        Runtime runtime = Runtime.getRuntime();
        System.gc();
        long heapBefore = runtime.totalMemory() - runtime.freeMemory();
        long start = System.nanoTime();
        JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER);
        long opened = System.nanoTime();
        try (KvLedger ledger = FileStores.builder(store).build()) {
            long resumed = System.nanoTime();
            System.gc();
            long heapAfter = runtime.totalMemory() - runtime.freeMemory();
            System.out.printf("%s: %d events, %d bytes; from snapshot: %s (seq %d, %d lines read after it)%n", file,
                    store.lastSeq(), Files.size(file), store.openedFromSnapshot(), store.snapshotSeq(),
                    store.lastSeq() - store.snapshotSeq());
            System.out.printf("store open %.0f ms, ledger resumed (Axon started, aggregate loaded) %.0f ms more, total %.0f ms;"
                            + " heap after GC %.1f MB (%.1f MB before); %d live requests%n",
                    (opened - start) / 1e6, (resumed - opened) / 1e6, (resumed - start) / 1e6,
                    heapAfter / 1e6, heapBefore / 1e6, ledger.state().requests().size());
        }
    }
}

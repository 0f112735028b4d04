package io.kvledger.tests.store;

import io.kvledger.application.KvLedger;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.simulation.SimulationModel;
import io.kvledger.simulation.SimulationOptions;
import io.kvledger.simulation.Simulator;
import io.kvledger.infrastructure.store.FileStores;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.JsonlEventStorageEngine;
import io.kvledger.infrastructure.store.SegmentPolicy;
import io.kvledger.infrastructure.store.SegmentedEventStorageEngine;
import io.kvledger.infrastructure.store.SegmentedStores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The stores {@code FormerStoresOpenTest} opens, as the version that wrote them made them: a plain store
 * file and a store directory, each of an engine without groups and of one with groups (gpt-oss: a full and a
 * sliding-window group), every one with a snapshot taken while jobs were in flight. Run once with the folder to
 * write into ({@code src/test/resources/former-stores}); the files are committed, never written again, so a
 * later version proves it still opens them.
 */
public final class FormerStores {

    /** The stores: name, model, seed. */
    static final List<String> NAMES = List.of("plain", "grouped", "plain-dir", "grouped-dir");

    private FormerStores() {
    }

    public static void main(String[] args) throws Exception {
        Path into = Path.of(args[0]);
        Files.createDirectories(into);
        write(into.resolve("plain.jsonl"), SimulationModel.DEFAULT, 3, false);
        write(into.resolve("grouped.jsonl"), SimulationModel.named("gpt-oss"), 4, false);
        write(into.resolve("plain-dir"), SimulationModel.DEFAULT, 5, true);
        write(into.resolve("grouped-dir"), SimulationModel.named("gpt-oss"), 9, true);
    }

    static SimulationOptions options(SimulationModel model, long seed) {
        return new SimulationOptions(24, seed, 0.2, 0.05, 0.05, 2, ReleasePolicy.FENCE, 0.0, 96, 0, model, 0);
    }

    private static void write(Path store, SimulationModel model, long seed, boolean directory) {
        List<KvLedger> opened = new ArrayList<>();
        new Simulator(options(model, seed), () -> (s, e) -> List.of(), config -> {
            KvLedger ledger = directory
                    ? SegmentedStores.builder(SegmentedEventStorageEngine.open(store, FsyncPolicy.NEVER,
                            SegmentPolicy.DEFAULTS.withSegmentBytes(12_000).withSnapshotEvery(25))).config(config).build()
                    : FileStores.builder(JsonlEventStorageEngine.open(store, FsyncPolicy.NEVER, 170)).config(config).build();
            opened.add(ledger);
            return ledger;
        }).run(new Simulator.Listener() {
            @Override
            public void configured(EngineConfigured configured) {
            }

            @Override
            public void step(List<io.kvledger.application.engine.StepEntry> entries,
                             List<io.kvledger.domain.event.EngineEvent> events) {
            }
        });
        opened.forEach(KvLedger::close);
    }
}

package io.kvledger.infrastructure.store;

import io.kvledger.testkit.store.SequenceGuardingEngineContract;
import java.nio.file.Path;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.junit.jupiter.api.io.TempDir;

/** A store directory under the same contract as the single file (its newest segment takes the appends). */
class SegmentedEventStorageEngineContractTest extends SequenceGuardingEngineContract {

    @TempDir
    Path dir;

    @Override
    protected EventStorageEngine createEngine() {
        return SegmentedEventStorageEngine.open(dir.resolve("store"), FsyncPolicy.ALWAYS, SegmentPolicy.DEFAULTS);
    }

    @Override
    protected void closeEngine(EventStorageEngine engine) {
        ((SegmentedEventStorageEngine) engine).close();
    }
}

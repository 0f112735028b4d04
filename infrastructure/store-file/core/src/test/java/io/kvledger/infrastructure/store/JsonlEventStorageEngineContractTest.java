package io.kvledger.infrastructure.store;

import io.kvledger.testkit.store.SequenceGuardingEngineContract;
import java.nio.file.Path;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.junit.jupiter.api.io.TempDir;

/** The file store under the contract, on a real file, forcing every append as a careful host would. */
class JsonlEventStorageEngineContractTest extends SequenceGuardingEngineContract {

    @TempDir
    Path dir;

    @Override
    protected EventStorageEngine createEngine() {
        return JsonlEventStorageEngine.open(dir.resolve("store.jsonl"), FsyncPolicy.ALWAYS);
    }

    @Override
    protected void closeEngine(EventStorageEngine engine) {
        ((JsonlEventStorageEngine) engine).close();
    }
}

package io.kvledger.infrastructure.simulation;

import io.kvledger.application.KvLedger;
import io.kvledger.infrastructure.store.UnstoredEvents;
import io.kvledger.application.engine.StepEntry;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.state.EngineState;
import java.util.List;

/** What the simulator drives: the embedding API's step, and nothing else. A test may put a faulty engine here. */
public interface StepEngine extends AutoCloseable {

    EngineConfigured configured();

    StepResult step(List<StepEntry> entries);

    EngineState state();

    @Override
    void close();

    /** The real engine: a {@link KvLedger} that keeps no events (the simulator's log is the record). */
    static StepEngine ledger(EngineConfig config) {
        KvLedger ledger = KvLedger.builder().config(config).storageEngine(UnstoredEvents::new).build();
        return new StepEngine() {
            @Override
            public EngineConfigured configured() {
                return ledger.configured();
            }

            @Override
            public StepResult step(List<StepEntry> entries) {
                return ledger.stepEntries(entries);
            }

            @Override
            public EngineState state() {
                return ledger.state();
            }

            @Override
            public void close() {
                ledger.close();
            }
        };
    }
}

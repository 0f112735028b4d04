package io.kvledger.simulation;

import io.kvledger.application.KvLedger;
import io.kvledger.application.engine.StepEntry;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.state.EngineState;
import java.util.List;
import java.util.function.UnaryOperator;

/** The real engine with its steps rewritten: what it is given ({@code entries}), then what it returns ({@code result}). */
record RewrittenLedger(KvLedger real, UnaryOperator<List<StepEntry>> entries, UnaryOperator<StepResult> result)
        implements KvLedger {

    @Override
    public EngineConfigured configured() {
        return real.configured();
    }

    @Override
    public StepResult stepEntries(List<StepEntry> given) {
        return result.apply(real.stepEntries(entries.apply(given)));
    }

    @Override
    public EngineState state() {
        return real.state();
    }

    @Override
    public String engineId() {
        return real.engineId();
    }

    @Override
    public boolean resumed() {
        return real.resumed();
    }

    @Override
    public void close() {
        real.close();
    }
}

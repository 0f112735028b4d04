package io.kvledger.simulation;

import io.kvledger.application.engine.StepEntry;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import java.util.List;

/** A simulation listener that keeps nothing. */
final class Discard implements Simulator.Listener {
    @Override
    public void configured(EngineConfigured configured) {
    }

    @Override
    public void step(List<StepEntry> entries, List<EngineEvent> events) {
    }
}

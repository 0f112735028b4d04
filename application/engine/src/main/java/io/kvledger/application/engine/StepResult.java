package io.kvledger.application.engine;

import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.state.EngineState;
import java.util.List;

/**
 * What a step produced, in order, and the state after it. The typed views are what a host acts on:
 * flushes to wait for, jobs to submit, blocks it may free. The events are values a host may keep; the
 * {@code state} is the view {@code KvLedger.state()} gives, valid until the ledger's next step.
 */
public record StepResult(List<EngineEvent> events, EngineState state) {

    public StepResult {
        events = List.copyOf(events);
    }

    public List<FlushRequired> flushes() {
        return ofType(FlushRequired.class);
    }

    public List<StoreJobScheduled> storeJobs() {
        return ofType(StoreJobScheduled.class);
    }

    public List<LoadJobScheduled> loadJobs() {
        return ofType(LoadJobScheduled.class);
    }

    public List<BlocksReleased> releases() {
        return ofType(BlocksReleased.class);
    }

    public List<CommandRejected> rejections() {
        return ofType(CommandRejected.class);
    }

    public <T extends EngineEvent> List<T> ofType(Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }
}

package io.kvledger.application;

import io.kvledger.application.engine.StepResult;

/**
 * Told about every step the facade executes, once decided and handed to the store (stored, for a
 * store whose steps are stored when they return; see {@link KvLedger#step}). For metrics, tracing or a host's own
 * bookkeeping; it runs on the scheduler's thread, so it must be cheap and must not throw.
 */
@FunctionalInterface
public interface StepListener {

    /**
     * @param commands     how many commands the step carried
     * @param result       its events and the state after it
     * @param elapsedNanos the time the step took, Axon's command path and the store's append included
     */
    void onStep(int commands, StepResult result, long elapsedNanos);
}

package io.kvledger.application;

import io.kvledger.application.engine.StepResult;

/**
 * Told about every step the facade executes, after it is stored. For metrics, tracing or a host's own
 * bookkeeping; it runs on the scheduler's thread, so it must be cheap and must not throw.
 */
@FunctionalInterface
public interface StepListener {

    /**
     * @param commands     how many commands the step carried
     * @param result       its events and the state after it
     * @param elapsedNanos the time the step took, Axon's command path and storage included
     */
    void onStep(int commands, StepResult result, long elapsedNanos);
}

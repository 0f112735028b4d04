package io.kvledger.application.explain;

/** Why a job holds what it holds: {@link StoreExplanation} or {@link LoadExplanation}. */
public sealed interface JobExplanation permits StoreExplanation, LoadExplanation {

    /** The JSON schema of {@code kvledger explain --json}. */
    String SCHEMA = "kvledger.explain/1";

    long jobId();

    long seq();
}

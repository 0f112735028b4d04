package io.kvledger.domain.command;

/** One worker's completion of a store or load job. */
public record CompleteTransfer(long jobId, boolean success) implements EngineCommand {

    public CompleteTransfer(long jobId) {
        this(jobId, true);
    }

    @Override
    public String name() {
        return "CompleteTransfer";
    }
}

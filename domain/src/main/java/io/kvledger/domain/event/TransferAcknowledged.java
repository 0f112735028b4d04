package io.kvledger.domain.event;

import java.util.Objects;

/**
 * A completion that does not end its job (only when {@code workers} > 1); {@code success} is that
 * completion's own flag.
 */
public record TransferAcknowledged(long jobId, String requestId, boolean success) implements RequestEvent {

    /** The record's equality, written out for C1, which calls the generated one's method handles one by one. */
    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof TransferAcknowledged o && jobId == o.jobId && success == o.success
                && Objects.equals(requestId, o.requestId);
    }
}

package io.kvledger.domain.event;

import java.util.Objects;

/** A store job ended (its last completion arrived). */
public record StoreJobCompleted(long jobId, String requestId, boolean success) implements RequestEvent {

    /** The record's equality, written out for C1, which calls the generated one's method handles one by one. */
    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof StoreJobCompleted o && jobId == o.jobId && success == o.success
                && Objects.equals(requestId, o.requestId);
    }
}

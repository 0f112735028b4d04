package io.kvledger.domain.event;

import io.kvledger.domain.command.FinishReason;

/** The request finished normally (terminal). */
public record RequestFinished(String requestId, FinishReason reason) implements RequestEvent {
}

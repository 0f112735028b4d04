package io.kvledger.domain.command;

/** Why a request finished normally. */
public enum FinishReason {
    STOPPED,
    LENGTH
}

package io.kvledger.domain.command;

/** A command addressed to one request. */
public sealed interface RequestCommand extends EngineCommand
        permits RegisterRequest, MatchPrefix, AllocateBlocks, ComputeTokens, RejectTokens, AppendTokens,
        PreemptRequest, AbortRequest, FinishRequest, FreeWindowBlocks {

    String requestId();
}

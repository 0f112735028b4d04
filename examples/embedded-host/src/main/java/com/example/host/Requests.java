package com.example.host;

import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.RegisterRequest;
import java.util.List;
import java.util.stream.IntStream;

/** The host's scheduler decisions as kvledger commands: admit a request, compute its tokens, abort it. */
public final class Requests {

    private final int blockSize;
    private int nextBlock;

    public Requests(int blockSize) {
        this.blockSize = blockSize;
    }

    /** Registers a request of {@code promptTokens} tokens, looks it up and gives it the blocks its prompt needs. */
    public List<EngineCommand> admit(String requestId, int promptTokens) {
        List<Integer> tokens = IntStream.rangeClosed(1, promptTokens).boxed().toList();
        List<Integer> blocks = IntStream.range(0, (promptTokens + blockSize - 1) / blockSize).map(i -> nextBlock++).boxed().toList();
        return List.of(new RegisterRequest(requestId, tokens), new MatchPrefix(requestId), new AllocateBlocks(requestId, blocks));
    }

    public List<EngineCommand> compute(String requestId, int tokens) {
        return List.of(new ComputeTokens(requestId, tokens));
    }

    public List<EngineCommand> abort(String requestId) {
        return List.of(new AbortRequest(requestId));
    }
}

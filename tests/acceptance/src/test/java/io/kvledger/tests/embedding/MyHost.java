package io.kvledger.tests.embedding;

import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.RegisterRequest;
import java.util.List;
import java.util.stream.IntStream;

/** The README's "your host": a scheduler adapter of a user's own that turns its decisions into commands. */
final class MyHost {

    private final int blockSize;
    private int nextBlock;

    MyHost(int blockSize) {
        this.blockSize = blockSize;
    }

    /** Admits a request of {@code promptTokens} tokens: registers it, looks it up, gives it the blocks its prompt needs. */
    List<EngineCommand> admit(String requestId, int promptTokens) {
        List<Integer> tokens = IntStream.rangeClosed(1, promptTokens).boxed().toList();
        List<Integer> blocks = IntStream.range(0, (promptTokens + blockSize - 1) / blockSize).map(i -> nextBlock++).boxed().toList();
        return List.of(new RegisterRequest(requestId, tokens), new MatchPrefix(requestId), new AllocateBlocks(requestId, blocks));
    }

    List<EngineCommand> abort(String requestId) {
        return List.of(new AbortRequest(requestId));
    }
}

package io.kvledger.domain.rules;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.state.RequestState;

/**
 * How far a request may be stored (contract section 4, Token bound and Storable chunks). Pure
 * arithmetic, shared by the decision, the fold and the tools that explain a job.
 */
public final class StoreBound {

    private StoreBound() {
    }

    /**
     * {@code O = min(c, n, maxOffloadTokens of the config, maxOffloadTokens of the request, promptLength if
     * offloadPromptOnly)}, each cap only when given (contract 9.1): only computed tokens are stored. The one
     * place {@code O} is computed; every use of it (the offer, the fold, the audit, the views) calls this.
     */
    public static int tokenBound(EngineConfig config, RequestState request) {
        return tokenBound(config, request, request.computed());
    }

    /** {@code O} of {@code request} were its {@code c} {@code computed}: a decision's "what if", without a copy. */
    public static int tokenBound(EngineConfig config, RequestState request, int computed) {
        int bound = Math.min(computed, request.numTokens());
        if (config.maxOffloadTokens() != null) {
            bound = Math.min(bound, config.maxOffloadTokens());
        }
        Integer requestCap = request.maxOffloadTokens();
        if (requestCap != null) {
            bound = Math.min(bound, requestCap);
        }
        if (config.offloadPromptOnly()) {
            bound = Math.min(bound, request.promptLength());
        }
        return bound;
    }

    /** {@code S = min(floor(O/C), floor(len(blockTable)/F), number of keys)}. */
    public static int storableChunks(EngineConfig config, RequestState request) {
        int byTokens = tokenBound(config, request) / config.chunkTokens();
        int byBlocks = request.blockTable().size() / config.blocksPerChunk();
        int byKeys = request.keyCount(config.blocksPerChunk());
        return Math.min(byTokens, Math.min(byBlocks, byKeys));
    }
}

package io.kvledger.infrastructure.cli;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.state.HashedPrompt;
import io.kvledger.domain.state.PromptHasher;
import io.kvledger.infrastructure.log.LogEntry;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

/**
 * On a log's parse thread, in log order: each registered prompt hashed by the configuration in force there (the
 * last {@code EngineConfigured} read, or the base's), handed to the fold as a
 * {@link io.kvledger.domain.state.HashedPrompt}. Hashing prompts (SHA-256 per block, without the CPU's instructions
 * under C1) was a third of the audit thread's samples; the parse thread had the time. The hasher remembers the blocks
 * it made lately ({@link PromptHasher}), so prompts that share a prefix hash it once; a caller about as fast as the
 * parse has only some prompts hashed here ({@code worthIt}) and hashes the rest itself, by a {@code PromptHashing}
 * of its own ({@link LogScan}), which passes a prompt hashed already as it is. The event is equal to the
 * one read, so everything a tool prints is the same; a fold under another configuration hashes for itself.
 */
final class PromptHashing implements UnaryOperator<LogEntry> {

    private EngineConfig config;
    /** This parse thread's: prompts that share a prefix hash it once. */
    private final PromptHasher hasher = new PromptHasher();

    /** Whether to hash the next prompt now; one not hashed here is hashed by the fold, to the same hashes. */
    private final BooleanSupplier worthIt;

    /**
     * @param config  the configuration the log continues from, {@code null} for a log from its start
     * @param worthIt asked at each prompt whether to hash it here (the configuration is followed either way)
     */
    PromptHashing(EngineConfig config, BooleanSupplier worthIt) {
        this.config = config;
        this.worthIt = worthIt;
    }

    @Override
    public LogEntry apply(LogEntry entry) {
        if (entry.event() instanceof EngineConfigured configured) {
            config = configured.config();
        } else if (entry.event() instanceof RequestRegistered e && config != null
                && e.promptTokens().size() >= config.hashBlockSize() && !(e.promptTokens() instanceof HashedPrompt)
                && worthIt.getAsBoolean()) {
            return entry.withEvent(new RequestRegistered(e.requestId(), e.promptLength(),
                    hasher.hash(e.promptTokens(), config.hashBlockSize()), e.maxOffloadTokens(), e.maxLoadTokens(),
                    e.skipReadingPrefixCache()));
        }
        return entry;
    }
}

package io.kvledger.infrastructure.cli;

import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.state.BlockHashes;
import io.kvledger.domain.state.EngineState;
import io.kvledger.infrastructure.log.LogEntry;
import java.util.List;
import java.util.function.Consumer;

/**
 * Hashes each registration's prompt on the parse thread, where audit leaves a core half idle: the block
 * hashes are remembered for a while (the domain's table of recent chain hashes), so when the audit's fold
 * registers the request it finds them made instead of hashing them itself. Only work moves: the hashes,
 * and so every key, are what the fold makes either way. The configuration is the log's first
 * {@code EngineConfigured} (the fold ignores any later one), or the base's for a log that starts after one.
 */
final class PromptHashesAhead implements Consumer<LogEntry> {

    /** How a prompt is hashed: by the block size of the hashes and its tokens. */
    interface Hashing {
        void hash(int hashBlockSize, List<Integer> prompt);
    }

    private final Hashing hashing;
    /** The block size of the hashes, or 0 until the configuration is known. */
    private int hashBlockSize;

    /** @param base the state the log starts after, or {@code null} for a log from its first event */
    PromptHashesAhead(EngineState base) {
        this(base, BlockHashes::of);
    }

    PromptHashesAhead(EngineState base, Hashing hashing) {
        this.hashing = hashing;
        hashBlockSize = base == null ? 0 : base.config().hashBlockSize();
    }

    @Override
    public void accept(LogEntry entry) {
        EngineEvent event = entry.event();
        if (event instanceof EngineConfigured configured) {
            if (hashBlockSize == 0) {
                hashBlockSize = configured.config().hashBlockSize();
            }
        } else if (event instanceof RequestRegistered registered && hashBlockSize > 0) {
            try {
                hashing.hash(hashBlockSize, registered.promptTokens());
            } catch (RuntimeException e) {
                // Not this thread's to report: the fold meets the same prompt in its place and says what it says.
            }
        }
    }
}

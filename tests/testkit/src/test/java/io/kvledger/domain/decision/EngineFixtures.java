package io.kvledger.domain.decision;


import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RejectionCode;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.domain.state.BlockHashes;
import io.kvledger.testkit.EventMatcher;
import io.kvledger.testkit.LedgerFixture;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Vocabulary of the rule tests, written in the public testkit's given-when-then dialect
 * ({@link LedgerFixture}): configurations, the given-part events, chunk keys, and matchers for events
 * whose message is free prose.
 */
final class EngineFixtures {

    /** {@code B = 4, F = 1}: a chunk is one block of four tokens. */
    static final EngineConfig B4 = EngineConfig.DEFAULTS.withGpuBlockSize(4);
    /** {@code B = 4, F = 2}: a chunk is two blocks, eight tokens. */
    static final EngineConfig B4F2 = B4.withBlocksPerChunk(2);
    static final EngineConfig B4_DELAY_FREE = B4.withReleasePolicy(ReleasePolicy.DELAY_FREE);

    private EngineFixtures() {
    }

    // ---- given -----------------------------------------------------------------------------------

    static EngineConfigured configured(EngineConfig config) {
        return EngineConfigured.of(config);
    }

    static RequestRegistered registered(String requestId, List<Integer> promptTokens) {
        return new RequestRegistered(requestId, promptTokens.size(), promptTokens);
    }

    static RequestRegistered registered(String requestId, Integer... promptTokens) {
        return registered(requestId, List.of(promptTokens));
    }

    /** A lookup with no GPU hit and nothing in the CPU tier. */
    static PrefixMatched matched(String requestId) {
        return new PrefixMatched(requestId, 0, 0, List.of());
    }

    static BlocksAllocated allocated(String requestId, Integer... blockIds) {
        return new BlocksAllocated(requestId, List.of(blockIds), 0);
    }

    static TokensComputed computed(String requestId, int numComputedTokens) {
        return new TokensComputed(requestId, numComputedTokens);
    }

    /** Registered, matched with no hit, and allocated {@code blockIds}: RUNNING with {@code c = 0}. */
    static List<EngineEvent> running(String requestId, List<Integer> promptTokens, Integer... blockIds) {
        return List.of(registered(requestId, promptTokens), matched(requestId), allocated(requestId, blockIds));
    }

    /**
     * Under {@link #B4}: RUNNING on the given blocks, the request computed its whole prompt (four tokens
     * per block), and its one store job, {@code jobId}, of chunks {@code 0 .. blocks-1} is in flight.
     */
    static List<EngineEvent> storing(String requestId, List<Integer> prompt, long jobId, Integer... blockIds) {
        List<Integer> chunks = IntStream.range(0, blockIds.length).boxed().toList();
        return history(running(requestId, prompt, blockIds), computed(requestId, prompt.size()),
                new StoreJobScheduled(jobId, requestId, chunks, keys(prompt, chunks.toArray(Integer[]::new)),
                        List.of(blockIds)));
    }

    /** As {@link #storing}, and the store job completed: the chunks are ready in the tier. */
    static List<EngineEvent> storedAndReady(String requestId, List<Integer> prompt, long jobId, Integer... blockIds) {
        List<String> keys = keys(prompt, IntStream.range(0, blockIds.length).boxed().toArray(Integer[]::new));
        return history(storing(requestId, prompt, jobId, blockIds),
                new StoreJobCompleted(jobId, requestId, true), new ChunksStored(keys));
    }

    /** Prompts sharing the prefix 1, 2, 3, ...: a request of tokens 1..n hits the chunks of a shorter one. */
    static final List<Integer> A4 = tokens(1, 4);
    static final List<Integer> A8 = tokens(1, 8);
    static final List<Integer> B10 = tokens(1, 10);
    static final List<Integer> P12 = tokens(1, 12);
    static final List<Integer> P16 = tokens(1, 16);
    /** Prompts sharing no block with the ones above, nor with each other. */
    static final List<Integer> X8 = tokens(101, 108);
    static final List<Integer> Y4 = tokens(201, 204);

    /**
     * Under {@link #B4}: "a" (tokens 1..8, blocks 1, 2) stored chunks 0, 1 with job 0, now ready; "b"
     * (tokens 1..10) hit both and is LOADING them with job 1 into blocks 5, 6 of its table 5, 6, 7.
     */
    static List<EngineEvent> bLoadingFromA() {
        return history(storedAndReady("a", A8, 0, 1, 2), registered("b", B10),
                new PrefixMatched("b", 0, 8, List.of(0, 1)), new BlocksAllocated("b", List.of(5, 6, 7), 8),
                new LoadJobScheduled(1, "b", List.of(0, 1), keys(A8, 0, 1), List.of(5, 6)));
    }

    /** The given events in order; lists of events among {@code parts} are spliced in. */
    static List<EngineEvent> history(Object... parts) {
        List<EngineEvent> events = new ArrayList<>();
        for (Object part : parts) {
            if (part instanceof List<?> list) {
                list.forEach(event -> events.add((EngineEvent) event));
            } else {
                events.add((EngineEvent) part);
            }
        }
        return events;
    }

    // ---- tokens and keys -------------------------------------------------------------------------

    /** Token ids {@code from, from+1, ..., to}. */
    static List<Integer> tokens(int from, int to) {
        return IntStream.rangeClosed(from, to).boxed().toList();
    }

    /** The key of chunk {@code i}: the chained hash of its last GPU block, {@code i*F + F - 1}. */
    static String key(EngineConfig config, List<Integer> tokens, int chunk) {
        BlockHashes hashes = BlockHashes.of(config.gpuBlockSize(), tokens);
        return hashes.get(chunk * config.blocksPerChunk() + config.blocksPerChunk() - 1);
    }

    static List<String> keys(EngineConfig config, List<Integer> tokens, Integer... chunks) {
        return Arrays.stream(chunks).map(chunk -> key(config, tokens, chunk)).toList();
    }

    /** Keys under {@link #B4}. */
    static List<String> keys(List<Integer> tokens, Integer... chunks) {
        return keys(B4, tokens, chunks);
    }

    // ---- then ------------------------------------------------------------------------------------

    /** A rejection of a request command, matched by line, command name, code and request id. */
    static EventMatcher rejected(long line, String cmd, RejectionCode code, Object requestId) {
        return EventMatcher.rejected(line, cmd, code, requestId);
    }

    /** A rejection of a {@code CompleteTransfer}, matched by line, code and job id. */
    static EventMatcher rejectedJob(long line, RejectionCode code, Object jobId) {
        return EventMatcher.rejectedJob(line, code, jobId);
    }

    /** A rejection of any command, matched by every field but the message. */
    static EventMatcher rejected(long line, String cmd, RejectionCode code, Object requestId, Object jobId) {
        return EventMatcher.rejected(line, cmd, code, requestId, jobId);
    }
}

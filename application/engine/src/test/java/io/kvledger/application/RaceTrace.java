package io.kvledger.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.EngineFold;
import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.AppendTokens;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.PreemptRequest;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.command.RejectTokens;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.DeferReason;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.PrefixMatchDeferred;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RejectionCode;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.domain.event.RequestFinished;
import io.kvledger.domain.event.RequestPreempted;
import io.kvledger.domain.event.StoreDeferReason;
import io.kvledger.domain.event.StoreDeferred;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.domain.event.TokensRejected;
import io.kvledger.domain.event.TransferAcknowledged;
import io.kvledger.domain.rules.StoreBound;
import io.kvledger.domain.state.BlockHashes;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Drives a {@link KvLedger} one step at a time and checks every produced event against the state just
 * before it (the state before the step, with the step's earlier events folded on).
 */
final class RaceTrace implements AutoCloseable {
    private final KvLedger ledger;
    private final EngineConfig config;
    private final List<EngineEvent> log = new ArrayList<>();
    private final List<StoreJobScheduled> stores = new ArrayList<>();
    private EngineState state;

    RaceTrace(EngineConfig config) {
        this.config = config;
        this.ledger = KvLedger.builder().config(config).build();
        this.log.add(ledger.configured());
        this.state = EngineFold.fold(log); // a fold of its own: the ledger's state is its view until the next step
        assertEquals(state, ledger.state());
    }

    /** One step that must not be rejected. */
    StepResult ok(EngineCommand command) {
        StepResult result = step(command);
        assertEquals(List.of(), result.rejections(), () -> "unexpected rejection of " + command);
        return result;
    }

    StepResult step(EngineCommand... commands) {
        StepResult result = ledger.step(List.of(commands));
        EngineState at = state;
        for (EngineEvent event : result.events()) {
            if (event instanceof StoreJobScheduled store) {
                checkStore(at, store);
                stores.add(store);
            }
            if (event instanceof BlocksReleased released) {
                assertFalse(released.blockIds().isEmpty(), "BlocksReleased is never empty: " + released);
            }
            at = EngineFold.evolve(at, event);
            log.add(event);
        }
        assertEquals(at, result.state(), "the step's state is its events folded onto the state before it");
        assertEquals(EngineFold.fold(log), result.state(), "replaying the whole log gives the live state");
        assertEquals(result.state(), ledger.state());
        state = at;
        return result;
    }

    private void checkStore(EngineState at, StoreJobScheduled store) {
        RequestState request = at.heldRequest(store.requestId());
        assertNotNull(request, "a store of a request that is not live: " + store);
        int f = config.blocksPerChunk();
        int c = config.chunkTokens();
        int n = store.chunkIndices().flat().size();
        assertTrue(n > 0, "a store job stores something: " + store);
        assertEquals(n, store.keys().flat().size(), "len(keys) == len(chunkIndices): " + store);
        assertEquals(f * n, store.blockIds().flat().size(), "len(blockIds) == F * len(chunkIndices): " + store);
        int computedChunks = request.computed() / c;
        int boundChunks = StoreBound.tokenBound(config, request) / c;
        for (int i = 0; i < n; i++) {
            int chunk = store.chunkIndices().flat().get(i);
            assertTrue(chunk >= request.cursor(), "chunk " + chunk + " is below the cursor " + request.cursor());
            assertTrue(chunk < computedChunks, "chunk " + chunk + " reaches past c = " + request.computed()
                    + " (floor(c/C) = " + computedChunks + "): " + store);
            assertTrue(chunk < boundChunks, "chunk " + chunk + " reaches past O: " + store);
            assertTrue(chunk < request.keyCount(f), "chunk " + chunk + " has no key yet: " + store);
            assertEquals(request.key(chunk, f), store.keys().flat().get(i), "the key of chunk " + chunk);
            for (int j = 0; j < f; j++) {
                Integer block = store.blockIds().flat().get(i * f + j);
                assertTrue(request.blockTable().contains(block), "source block " + block
                        + " is not in the table " + request.blockTable() + " of " + store.requestId());
                assertTrue(chunk * f + j < request.blockTable().size(), "chunk " + chunk + " lies past the table");
                assertEquals(request.blockTable().get(chunk * f + j), block,
                        "block " + j + " of chunk " + chunk + " is the table's slot " + (chunk * f + j));
            }
        }
    }

    EngineState state() {
        return state;
    }

    RequestState request(String requestId) {
        RequestState request = state.heldRequest(requestId);
        assertNotNull(request, requestId + " is not live");
        return request;
    }

    List<StoreJobScheduled> storesOf(String requestId) {
        return stores.stream().filter(s -> s.requestId().equals(requestId)).toList();
    }

    /** Every store the request ever got lies below chunk {@code end}. */
    void assertAllStoresWithin(String requestId, int end) {
        for (StoreJobScheduled store : storesOf(requestId)) {
            for (int chunk : store.chunkIndices().flat()) {
                assertTrue(chunk < end, "chunk " + chunk + " of " + store + " is at or past " + end);
            }
        }
    }

    @Override
    public void close() {
        ledger.close();
    }

    /** The request ended ABORTED and, under {@code policy}, holds nothing any more (it was retired). */
    void assertAborted(ReleasePolicy policy, String requestId) {
        assertEquals(RequestStatus.ABORTED, state.statusOf(requestId));
        RequestState request = state.heldRequest(requestId);
        if (request != null) {
            fail("request " + requestId + " still holds " + request.blockTable() + " with jobs " + request.jobIds()
                    + " under " + policy);
        }
    }


    static EngineConfig config(int b, int f, int workers, int capacity, ReleasePolicy policy) {
        return new EngineConfig(b, f, workers, capacity, policy, null, false);
    }

    static List<Integer> tokens(int first, int count) {
        return IntStream.range(first, first + count).boxed().toList();
    }

    static List<Integer> blocks(int first, int count) {
        return tokens(first, count);
    }

    static List<String> keys(EngineConfig config, List<Integer> tokens, List<Integer> chunks) {
        BlockHashes hashes = BlockHashes.of(config.gpuBlockSize(), tokens);
        int f = config.blocksPerChunk();
        return chunks.stream().map(chunk -> hashes.get(chunk * f + f - 1)).toList();
    }

}

package io.kvledger.domain;

import static io.kvledger.domain.DomainLedger.tokens;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.PreemptRequest;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.state.RequestStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every step costs linear work in its own size: a request holding a million blocks is allocated,
 * preempted, aborted and finished, stores and loads a million chunks, and its releases fold, each in
 * about a second (figures in docs/performance.md; a quadratic release took minutes).
 */
class MillionBlockTest {

    private static final int MILLION = 1_000_000;

    @Test
    void aMillionBlocksArePreemptedReallocatedAndReleasedAtAbort() {
        DomainLedger ledger = new DomainLedger(EngineConfig.DEFAULTS.withGpuBlockSize(16));
        List<Integer> blocks = tokens(0, MILLION);
        ledger.run(new RegisterRequest("r", tokens(0, 16)), new AllocateBlocks("r", blocks));
        assertEquals(blocks, released(ledger.run(new PreemptRequest("r"))));
        assertTrue(ledger.request("r").blockTable().isEmpty());
        List<Integer> reversed = new java.util.ArrayList<>(blocks);
        java.util.Collections.reverse(reversed);
        ledger.run(new AllocateBlocks("r", reversed));
        assertEquals(reversed, released(ledger.run(new AbortRequest("r"))));
        assertNull(ledger.request("r"), "settled: no blocks, no jobs");
        assertEquals(RequestStatus.ABORTED, ledger.state.statusOf("r"));
        ledger.assertReplays();
    }

    @Test
    void aMillionBlocksAreStoredLoadedAndReleasedAfterTheLoadEnds() {
        // B = 1, F = 1000: a million tokens are a million blocks in a thousand chunks.
        DomainLedger ledger = new DomainLedger(EngineConfig.DEFAULTS.withGpuBlockSize(1).withBlocksPerChunk(1000));
        List<Integer> prompt = tokens(7, MILLION);
        List<Integer> blocks = tokens(0, MILLION);
        ledger.run(new RegisterRequest("writer", prompt), new AllocateBlocks("writer", blocks));
        StoreJobScheduled store = (StoreJobScheduled) ledger.run(new ComputeTokens("writer", MILLION)).get(1);
        assertEquals(1000, store.chunkIndices().flat().size());
        assertEquals(blocks, store.blockIds().flat());
        ledger.run(new CompleteTransfer(store.jobId()), new FinishRequest("writer", FinishReason.LENGTH));

        List<Integer> longer = new java.util.ArrayList<>(prompt);
        longer.addAll(tokens(3, 1000)); // its last chunk is its own: the thousand before it are hits
        ledger.run(new RegisterRequest("reader", longer), new MatchPrefix("reader"));
        List<Integer> destination = tokens(MILLION, MILLION + 1000);
        List<EngineEvent> allocation = ledger.run(new AllocateBlocks("reader", destination, MILLION));
        LoadJobScheduled load = (LoadJobScheduled) allocation.get(allocation.size() - 1);
        assertEquals(destination.subList(0, MILLION), load.blockIds().flat());
        // FENCE: at abort only the block the load does not write goes; the rest when the load ends.
        assertEquals(destination.subList(MILLION, MILLION + 1000), released(ledger.run(new AbortRequest("reader"))));
        assertEquals(destination.subList(0, MILLION), released(ledger.run(new CompleteTransfer(load.jobId()))));
        assertNull(ledger.request("reader"));
        ledger.assertReplays();
    }

    private static List<Integer> released(List<EngineEvent> events) {
        return events.stream().filter(BlocksReleased.class::isInstance).map(BlocksReleased.class::cast)
                .flatMap(event -> event.blockIds().flat().stream()).toList();
    }
}

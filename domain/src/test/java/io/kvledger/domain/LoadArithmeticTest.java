package io.kvledger.domain;

import static io.kvledger.domain.DomainLedger.tokens;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.PrefixMatched;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A load after a GPU hit: its destination starts at block {@code L/B}, and when it ends {@code c} is
 * {@code L + externalTokens}, or {@code n - 1} when that is less (the last token is recomputed).
 */
class LoadArithmeticTest {

    /** B = 2, F = 1: chunk i is tokens 2i, 2i+1. r0 stores chunks 0..3 of tokens 0..7. */
    private final DomainLedger ledger = new DomainLedger(EngineConfig.DEFAULTS.withGpuBlockSize(2));

    private void storeEightTokens() {
        ledger.run(new RegisterRequest("r0", tokens(0, 8)), new AllocateBlocks("r0", List.of(0, 1, 2, 3), 0),
                new ComputeTokens("r0", 8), new CompleteTransfer(0, true));
    }

    @Test
    void aLoadAfterAGpuHitWritesFromBlockLOverBAndEndsAtLPlusExternal() {
        storeEightTokens();
        List<Integer> prompt = new ArrayList<>(tokens(0, 8));
        prompt.addAll(tokens(100, 4)); // n = 12: chunks 4 and 5 are r1's own
        ledger.run(new RegisterRequest("r1", prompt));
        PrefixMatched match = (PrefixMatched) ledger.run(new MatchPrefix("r1", 2)).get(0);
        assertEquals(List.of(1, 2, 3), match.hitChunks().flat());
        assertEquals(6, match.externalTokens()); // (a + h) * C - L = (1 + 3) * 2 - 2

        LoadJobScheduled load = (LoadJobScheduled) ledger.run(new AllocateBlocks("r1", List.of(9, 10, 11, 12), 6)).get(1);
        assertEquals(List.of(10, 11, 12), load.blockIds().flat(), "the GPU-hit block 9 keeps its KV");
        ledger.run(new CompleteTransfer(load.jobId(), true));
        assertEquals(8, ledger.request("r1").computed());
        ledger.assertReplays();
    }

    @Test
    void aLoadOfTheWholePromptLeavesTheLastTokenToRecompute() {
        storeEightTokens();
        ledger.run(new RegisterRequest("r1", tokens(0, 8)));
        PrefixMatched match = (PrefixMatched) ledger.run(new MatchPrefix("r1", 0)).get(0);
        assertEquals(8, match.externalTokens());
        LoadJobScheduled load = (LoadJobScheduled) ledger.run(new AllocateBlocks("r1", List.of(5, 6, 7, 8), 8)).get(1);
        ledger.run(new CompleteTransfer(load.jobId(), true));
        assertEquals(7, ledger.request("r1").computed());
        ledger.assertReplays();
    }

    @Test
    void aFailedLoadLeavesCAtLAndTheCursorWhereItWas() {
        storeEightTokens();
        ledger.run(new RegisterRequest("r1", tokens(0, 8)), new MatchPrefix("r1", 2));
        LoadJobScheduled load = (LoadJobScheduled) ledger.run(new AllocateBlocks("r1", List.of(5, 6, 7, 8), 6)).get(1);
        assertEquals(4, ledger.request("r1").cursor());
        ledger.run(new CompleteTransfer(load.jobId(), false));
        assertEquals(2, ledger.request("r1").computed());
        assertEquals(0, ledger.request("r1").cursor());
        ledger.assertReplays();
    }
}

package io.kvledger.application.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.EngineFold;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.decision.Decider;
import io.kvledger.domain.decision.Decision;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.state.EngineState;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The audit's look back gives, for any position of the command being judged, the state the log's fold had before
 * that event, however far the checkpoint has moved up, and a state of its own: folding it, or the log's fold going
 * on, leaves the other as it was.
 */
class LookbackTest {

    private static final EngineConfig CONFIG = new EngineConfig(2, 1, 1, 16, ReleasePolicy.FENCE, null, false);

    /** A log of {@code requests} requests, each registered, allocated, computed, finished and its stores completed. */
    private static List<EngineEvent> log(int requests) {
        List<EngineEvent> events = new ArrayList<>();
        EngineState state = null;
        EngineEvent configured = Decider.configure(CONFIG);
        events.add(configured);
        state = EngineFold.evolve(state, configured);
        int block = 0;
        for (int i = 0; i < requests; i++) {
            String id = "r" + i;
            // Prompts share prefixes now and then, so stores, hits and evictions all happen.
            List<Integer> prompt = List.of(i % 7, i % 5, i % 3, i, i + 1, i + 2, i + 3, i + 4);
            List<EngineCommand> commands = new ArrayList<>(List.of(new RegisterRequest(id, prompt),
                    new AllocateBlocks(id, List.of(block, block + 1, block + 2, block + 3), 0),
                    new ComputeTokens(id, 8), new FinishRequest(id, FinishReason.STOPPED)));
            block += 4;
            for (int c = 0; c < commands.size(); c++) {
                if (Decider.decide(state, commands.get(c)) instanceof Decision.Accepted accepted) {
                    for (EngineEvent event : accepted.events()) {
                        events.add(event);
                        state = EngineFold.evolve(state, event);
                        if (event instanceof StoreJobScheduled store) {
                            commands.add(new CompleteTransfer(store.jobId(), true));
                        }
                    }
                }
            }
        }
        return events;
    }

    private static EngineState foldedFromTheStart(List<EngineEvent> events, int position) {
        EngineState state = null;
        for (int i = 0; i < position; i++) {
            state = EngineFold.evolve(state, events.get(i));
        }
        return state;
    }

    @Test
    void rebuildsTheStateBeforeAnyEventSinceTheCheckpointAsItMovesUp() {
        List<EngineEvent> events = log(2_000);
        assertTrue(events.size() > 3 * 4096, "a log long enough for the checkpoint to move up: " + events.size());
        Lookback lookback = new Lookback(null);
        EngineState live = null;
        int checked = 0;
        long highestCheckpoint = 0;
        for (int i = 0; i < events.size(); i++) {
            if (i % 97 == 0 && live != null) {
                lookback.moveUpIfDue(live); // a command's end
            }
            if (i % 1940 == 0 && i > 0) {
                long from = lookback.checkpointPosition();
                long to = lookback.position();
                for (long p : new long[] {from, (from + to) / 2, to}) {
                    assertEquals(foldedFromTheStart(events, (int) p), lookback.at(p), "the state before event " + p);
                }
                checked++;
                highestCheckpoint = from;
                if (from > 0) {
                    long before = from - 1;
                    assertThrows(IllegalStateException.class, () -> lookback.at(before), "before the checkpoint");
                }
            }
            live = EngineFold.evolve(live, events.get(i));
            lookback.folded(events.get(i));
        }
        assertTrue(checked > 5, "positions checked: " + checked);
        assertTrue(highestCheckpoint > 0, "the checkpoint moved up");
    }

    @Test
    void aRebuiltStateIsItsOwn() {
        List<EngineEvent> all = log(60);
        List<EngineEvent> events = all.subList(0, log(40).size());
        Lookback lookback = new Lookback(null);
        EngineState live = null;
        for (int i = 0; i < events.size(); i++) {
            live = EngineFold.evolve(live, events.get(i));
            lookback.folded(events.get(i));
        }
        lookback.restart(live); // the checkpoint is the live state's copy from here
        EngineState rebuilt = lookback.at(lookback.position());
        EngineState again = lookback.at(lookback.position());
        assertNotSame(rebuilt, again, "each rebuild is a state of its own");
        EngineState expected = foldedFromTheStart(events, events.size());
        // Fold more into the live state and into one rebuilt state: neither the other nor the checkpoint moves.
        List<EngineEvent> more = all.subList(events.size(), all.size());
        assertTrue(more.size() > 20, "events to fold on: " + more.size());
        for (EngineEvent event : more) {
            live = EngineFold.evolve(live, event);
            rebuilt = EngineFold.evolve(rebuilt, event);
        }
        assertEquals(expected, again, "a rebuilt state is not changed by folds of another");
        assertEquals(expected, lookback.at(lookback.position()), "the checkpoint is not changed by the live fold");
    }
}

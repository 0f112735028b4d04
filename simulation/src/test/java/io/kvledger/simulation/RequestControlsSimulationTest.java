package io.kvledger.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.engine.StepEntry;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.event.StoreJobScheduled;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code --request-controls}: a share of the simulated requests carry the controls of contract 9.1, every step
 * is checked with every rule of the audit (which re-derives lookups and bounds with them), each seed ends, and
 * the requests' stores and lookups keep to their controls.
 */
class RequestControlsSimulationTest {

    private static final SimulationOptions SMALL = SimulationOptions.DEFAULTS.withRequestTokens(48);

    @Test
    void seedsWithControlsPassEveryCheckAndKeepToThem() {
        int[] seen = new int[3];
        for (long seed = 1; seed <= 30; seed++) {
            Recorder log = new Recorder();
            SimulationOptions options = SMALL.withSeed(seed).withRequests(seed % 2 == 0 ? 300 : 600).withRequestControls(0.5);
            SimulationSummary summary = new Simulator(options).run(log);
            assertEquals(options.requests(), summary.finished() + summary.aborted(), summary.text(seed));
            log.assertKeptToTheirControls(seed, seen);
        }
        assertTrue(seen[0] > 0 && seen[1] > 0 && seen[2] > 0, "requests with each control: " + java.util.Arrays.toString(seen));
    }

    @Test
    void withoutTheOptionNoRequestHasControlsAndTheLogIsTheSameAsWithAShareOfZero() {
        Recorder without = new Recorder();
        Recorder zero = new Recorder();
        new Simulator(SMALL.withSeed(5).withRequests(200)).run(without);
        new Simulator(SMALL.withSeed(5).withRequests(200).withRequestControls(0)).run(zero);
        assertEquals(without.events, zero.events);
        assertTrue(without.events.stream().noneMatch(e -> e instanceof RequestRegistered r && r.hasControls()));
    }

    /** Keeps the events, and what each request was registered with. */
    private static final class Recorder implements Simulator.Listener {
        final List<EngineEvent> events = new ArrayList<>();
        int chunkTokens;

        @Override
        public void configured(EngineConfigured configured) {
            events.add(configured);
            chunkTokens = configured.config().chunkTokens();
        }

        @Override
        public void step(List<StepEntry> entries, List<EngineEvent> stepEvents) {
            events.addAll(stepEvents);
        }

        void assertKeptToTheirControls(long seed, int[] seen) {
            Map<String, RequestRegistered> registered = new HashMap<>();
            for (EngineEvent event : events) {
                if (event instanceof RequestRegistered r) {
                    registered.put(r.requestId(), r);
                    seen[0] += r.maxOffloadTokens() != null ? 1 : 0;
                    seen[1] += r.maxLoadTokens() != null ? 1 : 0;
                    seen[2] += Boolean.TRUE.equals(r.skipReadingPrefixCache()) ? 1 : 0;
                } else if (event instanceof PrefixMatched m && registered.containsKey(m.requestId())) {
                    RequestRegistered r = registered.get(m.requestId());
                    if (Boolean.TRUE.equals(r.skipReadingPrefixCache())) {
                        assertEquals(0, m.externalTokens(), "seed " + seed + ": " + m);
                    }
                    if (r.maxLoadTokens() != null) {
                        assertTrue(m.externalTokens() <= r.maxLoadTokens(), "seed " + seed + ": " + m + " past " + r);
                    }
                } else if (event instanceof StoreJobScheduled s && registered.get(s.requestId()).maxOffloadTokens() != null) {
                    int cap = registered.get(s.requestId()).maxOffloadTokens();
                    for (int chunk : s.chunkIndices().group(0)) {
                        assertTrue((long) (chunk + 1) * chunkTokens <= cap, "seed " + seed + ": " + s + " past " + cap);
                    }
                }
            }
        }
    }
}

package io.kvledger.tests.kvevents;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.KvLedger;
import io.kvledger.application.LedgerStore;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.kvevents.KvEvent;
import io.kvledger.infrastructure.kvevents.KvEvent.AllBlocksCleared;
import io.kvledger.infrastructure.kvevents.TestSockets;
import io.kvledger.infrastructure.kvevents.ZmqKvEventPublisher;
import io.kvledger.simulation.SimulationOptions;
import io.kvledger.simulation.Simulator;
import io.kvledger.tests.kvevents.SubscriberFrames.Message;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.zeromq.ZMQ;

/**
 * Seeded simulations drive a ledger through the embedding API with the publisher as its step
 * listener; a real SUB socket on 127.0.0.1 must receive exactly the CPU tier's changes that the log
 * shows (derived from the log by {@link KvEventsFromLog}), in order, numbered without gaps, and a
 * subscriber that joins late catches up through the replay socket and then follows live.
 */
class KvEventsSimulationTest {

    private static final String TOPIC = "kv@engine-0@test-model";

    @ParameterizedTest(name = "seed {0}, reset rate {1}, fail rate {2}")
    @CsvSource({"1, 0.0, 0.0", "2, 0.01, 0.05", "3, 0.02, 0.1"})
    void aSubscriberReceivesExactlyTheTiersChangesAndALateOneCatchesUpByReplay(long seed, double resetRate,
                                                                               double failRate) {
        SimulationOptions options = new SimulationOptions(100, seed, 0.1, 0.02, failRate, 2,
                io.kvledger.domain.config.ReleasePolicy.FENCE, resetRate);
        try (ZmqKvEventPublisher publisher = ZmqKvEventPublisher.builder("tcp://127.0.0.1:*")
                .replayEndpoint("tcp://127.0.0.1:*").topic(TOPIC).build();
             TestSockets.Subscriber subscriber = TestSockets.subscriber(publisher, TOPIC, 1)) {
            ZMQ.Socket sub = subscriber.socket();

            List<EngineEvent> log = simulate(options, publisher);
            List<KvEvent> expected = KvEventsFromLog.expected(log);
            assertTrue(expected.size() > 50, "the run must store and evict: " + expected.size() + " events");
            assertTrue(expected.stream().anyMatch(e -> e instanceof KvEvent.BlockRemoved), "evictions");

            List<Message> live = SubscriberFrames.receiveEvents(sub, TOPIC, expected.size());
            assertEquals(expected, SubscriberFrames.events(live), "exactly the tier's changes, in order");
            for (int i = 0; i < live.size(); i++) {
                assertEquals(i, live.get(i).seq(), "sequence numbers from 0 without gaps");
                assertTrue(!live.get(i).batch().events().isEmpty(), "no empty batches");
            }
            sub.setReceiveTimeOut(300);
            assertNull(SubscriberFrames.receive(sub, TOPIC), "nothing more than the log's changes");
            assertEquals(live.size(), publisher.published());
            assertEquals(0, publisher.dropped());

            try (TestSockets.Subscriber late = TestSockets.subscriber(publisher, TOPIC, 2)) {
                lateSubscriberCatchesUp(late.socket(), publisher, live);
            }
        }
    }

    /**
     * A router's way in: subscribe, take the first live batch (seq k), then ask the replay socket for
     * everything from 0; the two together must cover 0..k without a gap, with the batches as published.
     */
    private static void lateSubscriberCatchesUp(ZMQ.Socket late, ZmqKvEventPublisher publisher, List<Message> live) {
        late.setReceiveTimeOut(50);
        Message[] first = new Message[1];
        await().pollInSameThread().atMost(Duration.ofSeconds(10)).until(() -> {
            publisher.publish(List.of(new AllBlocksCleared()));
            first[0] = SubscriberFrames.receive(late, TOPIC);
            return first[0] != null;
        });
        long k = first[0].seq();
        assertTrue(k >= live.size(), "the first live batch comes after the run's: " + k);
        assertEquals(List.of(new AllBlocksCleared()), first[0].batch().events());

        List<List<byte[]>> replayed = TestSockets.replay(publisher.replayEndpoint(), 0);
        long expectedSeq = 0;
        for (List<byte[]> frames : replayed) {
            assertEquals(0, frames.get(0).length, "the REQ-style empty delimiter");
            long seq = ByteBuffer.wrap(frames.get(1)).getLong();
            if (seq == -1) {
                assertEquals(0, frames.get(2).length, "the end-of-replay marker has an empty payload");
                break;
            }
            assertEquals(expectedSeq, seq, "replay from 0 without gaps");
            if (seq < live.size()) {
                assertArrayEquals(live.get((int) seq).payload(), frames.get(2), "replayed as published");
            }
            expectedSeq++;
        }
        assertTrue(expectedSeq > k, "replay and live together cover 0.." + k + " (replay ended at " + expectedSeq + ")");
    }

    /** The simulator's log: every event of every step, in order. */
    private static List<EngineEvent> simulate(SimulationOptions options, ZmqKvEventPublisher publisher) {
        return new Simulator(options, () -> (seq, event) -> List.of(), config -> ledger(config, publisher)).events();
    }

    private static KvLedger ledger(EngineConfig config, ZmqKvEventPublisher publisher) {
        return KvLedger.builder().config(config).store(LedgerStore.discarding()).listener(publisher).build();
    }
}

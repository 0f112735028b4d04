package io.kvledger.infrastructure.kvevents;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.KvLedger;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.command.ResetCache;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.state.BlockHashes;
import io.kvledger.infrastructure.kvevents.KvEvent.AllBlocksCleared;
import io.kvledger.infrastructure.kvevents.KvEvent.BlockRemoved;
import io.kvledger.infrastructure.kvevents.KvEvent.BlockStored;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.zeromq.ZMQ;

/** A real SUB and a real DEALER on 127.0.0.1 against the publisher, driven by a ledger through the embedding API. */
class ZmqKvEventPublisherTest {

    private static final String TOPIC = "kv@pod-0@model";
    private static final List<Integer> R1 = List.of(1, 2, 3, 4, 5, 6, 7, 8);
    private static final List<Integer> R2 = List.of(9, 10, 11, 12);

    @Test
    void aSubscriberGetsEachStepsTierChangesAsNumberedBatchesAndReplayResendsThem() {
        try (ZmqKvEventPublisher publisher = ZmqKvEventPublisher.builder("tcp://127.0.0.1:*")
                .replayEndpoint("tcp://127.0.0.1:*").topic(TOPIC).build();
             TestSockets.Subscriber subscriber = TestSockets.subscriber(publisher, TOPIC, 1)) {
            ZMQ.Socket sub = subscriber.socket();

            runScenario(publisher);

            List<byte[]> payloads = new ArrayList<>();
            List<KvEvent> received = new ArrayList<>();
            for (long seq = 0; seq < 4; seq++) {
                List<byte[]> frames = receive(sub);
                assertEquals(3, frames.size(), "topic, seq, payload");
                assertEquals(TOPIC, new String(frames.get(0), StandardCharsets.UTF_8));
                assertEquals(seq, ByteBuffer.wrap(frames.get(1)).getLong(), "8-byte big-endian seq, no gaps");
                assertEquals(8, frames.get(1).length);
                KvEventBatch batch = KvEventCodec.decode(frames.get(2));
                assertEquals(0, batch.dataParallelRank());
                assertTrue(batch.ts() > 1.7e9, "wall-clock seconds: " + batch.ts());
                received.addAll(batch.events());
                payloads.add(frames.get(2));
            }
            assertEquals(expected(), received);
            // The publisher counts a batch after its send returns, so the subscriber can hold the fourth first.
            await().atMost(Duration.ofSeconds(10)).until(() -> publisher.published() == 4);

            List<List<byte[]>> replayed = TestSockets.replay(publisher.replayEndpoint(), 2);
            assertEquals(3, replayed.size(), "seq 2, seq 3, the end marker");
            for (int i = 0; i < 2; i++) {
                List<byte[]> frames = replayed.get(i);
                assertEquals(3, frames.size(), "empty delimiter, seq, payload");
                assertEquals(0, frames.get(0).length);
                assertEquals(i + 2, ByteBuffer.wrap(frames.get(1)).getLong());
                assertArrayEquals(payloads.get(i + 2), frames.get(2), "the batch as it was published");
            }
            assertArrayEquals(ZmqKvEventPublisher.END_OF_REPLAY, replayed.get(2).get(1));
            assertEquals(0, replayed.get(2).get(2).length);
        }
    }

    @Test
    void anEndpointInUseIsRefusedAndClosingStopsThePublisher() {
        try (ZmqKvEventPublisher first = ZmqKvEventPublisher.builder("tcp://127.0.0.1:*").build()) {
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> ZmqKvEventPublisher.builder(first.endpoint()).build());
            assertTrue(refused.getMessage().contains("cannot bind"), refused.getMessage());
        }
        ZmqKvEventPublisher closed = ZmqKvEventPublisher.builder("tcp://127.0.0.1:*").build();
        closed.close();
        assertThrows(IllegalStateException.class, () -> closed.publish(List.of(new AllBlocksCleared())));
    }

    /** B = 4, F = 1, room for 2 chunks: two stored, one evicted for a third, then a reset. */
    private static void runScenario(ZmqKvEventPublisher publisher) {
        EngineConfig config = EngineConfig.DEFAULTS.withGpuBlockSize(4).withCpuCapacityChunks(2);
        try (KvLedger ledger = KvLedger.builder().config(config).listener(publisher).build()) {
            ledger.step(List.of(new RegisterRequest("r1", R1), new MatchPrefix("r1"),
                    new AllocateBlocks("r1", List.of(1, 2)), new ComputeTokens("r1", 8)));
            ledger.step(List.of(new CompleteTransfer(0)));
            ledger.step(List.of(new RegisterRequest("r2", R2), new MatchPrefix("r2"),
                    new AllocateBlocks("r2", List.of(3)), new ComputeTokens("r2", 4)));
            ledger.step(List.of(new CompleteTransfer(1)));
            ledger.step(List.of(new ResetCache()));
        }
    }

    /** Derived from the tokens alone: the domain's chained hashes, low 64 bits, and the chunks' tokens. */
    private static List<KvEvent> expected() {
        BlockHashes r1 = BlockHashes.of(4, R1);
        BlockHashes r2 = BlockHashes.of(4, R2);
        long h0 = low64(r1.get(0));
        long h1 = low64(r1.get(1));
        long h2 = low64(r2.get(0));
        return List.of(
                new BlockStored(List.of(h0), null, List.of(1, 2, 3, 4), 4, null, "CPU", null, 0, "full_attention"),
                new BlockStored(List.of(h1), h0, List.of(5, 6, 7, 8), 4, null, "CPU", null, 0, "full_attention"),
                // The offer touched chunk 0 after chunk 1 (a lower index is more recent): chunk 1 is the LRU one.
                new BlockRemoved(List.of(h1), "CPU", 0),
                new BlockStored(List.of(h2), null, List.of(9, 10, 11, 12), 4, null, "CPU", null, 0, "full_attention"),
                new AllBlocksCleared());
    }

    private static long low64(String hex) {
        return Long.parseUnsignedLong(hex.substring(hex.length() - 16), 16);
    }

    private static List<byte[]> receive(ZMQ.Socket socket) {
        List<byte[]> frames = new ArrayList<>();
        byte[] first = socket.recv();
        assertNotNull(first, "a message within the receive timeout");
        frames.add(first);
        while (socket.hasReceiveMore()) {
            frames.add(socket.recv());
        }
        assertFalse(frames.isEmpty());
        return frames;
    }
}

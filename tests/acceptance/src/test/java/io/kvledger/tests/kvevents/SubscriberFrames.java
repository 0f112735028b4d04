package io.kvledger.tests.kvevents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.kvledger.infrastructure.kvevents.KvEvent;
import io.kvledger.infrastructure.kvevents.KvEventBatch;
import io.kvledger.infrastructure.kvevents.KvEventCodec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/** Reads vLLM's three-frame KV event messages off a SUB socket, checking the framing of each. */
final class SubscriberFrames {

    /** One message: its sequence number, the payload as sent, and the payload decoded. */
    record Message(long seq, byte[] payload, KvEventBatch batch) {
    }

    private SubscriberFrames() {
    }

    /** Receives until {@code events} events have arrived; each message must come within the socket's timeout. */
    static List<Message> receiveEvents(ZMQ.Socket sub, String topic, int events) {
        List<Message> messages = new ArrayList<>();
        int seen = 0;
        while (seen < events) {
            Message message = receive(sub, topic);
            assertNotNull(message, "only " + seen + " of " + events + " events arrived");
            messages.add(message);
            seen += message.batch().events().size();
        }
        assertEquals(events, seen, "no more events than the log's");
        return messages;
    }

    /** The next message, or {@code null} when none comes within the socket's receive timeout. */
    static Message receive(ZMQ.Socket sub, String topic) {
        byte[] first = sub.recv();
        if (first == null) {
            return null;
        }
        List<byte[]> frames = new ArrayList<>(List.of(first));
        while (sub.hasReceiveMore()) {
            frames.add(sub.recv());
        }
        assertEquals(3, frames.size(), "topic, seq, payload");
        assertEquals(topic, new String(frames.get(0), StandardCharsets.UTF_8));
        assertEquals(8, frames.get(1).length, "the seq is 8 bytes");
        return new Message(ByteBuffer.wrap(frames.get(1)).getLong(), frames.get(2), KvEventCodec.decode(frames.get(2)));
    }

    /** {@code sub} receives exactly {@code expected} on {@code topic}, in batches numbered from 0, then nothing. */
    static void assertReceivesExactly(ZMQ.Socket sub, String topic, List<KvEvent> expected) {
        List<Message> messages = receiveEvents(sub, topic, expected.size());
        assertEquals(expected, events(messages));
        for (int i = 0; i < messages.size(); i++) {
            assertEquals(i, messages.get(i).seq());
        }
        sub.setReceiveTimeOut(300);
        org.junit.jupiter.api.Assertions.assertNull(receive(sub, topic), "nothing more");
    }

    static List<KvEvent> events(List<Message> messages) {
        List<KvEvent> events = new ArrayList<>();
        messages.forEach(m -> events.addAll(m.batch().events()));
        return events;
    }

    record Connected(ZContext context, ZMQ.Socket sub) {
    }

    /**
     * A SUB on its own context whose ZeroMQ handshake with a publisher completed (the run or server waits
     * for it); a connection whose handshake stalls for 3 s is dropped and made again, as a router does.
     */
    static Connected handshaken(String endpoint) {
        for (int attempt = 0; attempt < 8; attempt++) {
            ZContext context = new ZContext();
            ZMQ.Socket sub = context.createSocket(SocketType.SUB);
            sub.setLinger(0);
            sub.setRcvHWM(0);
            sub.setReceiveTimeOut(10_000);
            sub.monitor("inproc://run-subscriber-" + attempt, ZMQ.EVENT_HANDSHAKE_PROTOCOL);
            ZMQ.Socket handshakes = context.createSocket(SocketType.PAIR);
            handshakes.connect("inproc://run-subscriber-" + attempt);
            handshakes.setReceiveTimeOut(3_000);
            sub.subscribe("kv@".getBytes(StandardCharsets.UTF_8));
            sub.connect(endpoint); // before the run binds, ZeroMQ retries until it does
            if (ZMQ.Event.recv(handshakes) != null) {
                return new Connected(context, sub);
            }
            context.close();
        }
        throw new AssertionError("no handshake with " + endpoint + " in 8 attempts");
    }
}

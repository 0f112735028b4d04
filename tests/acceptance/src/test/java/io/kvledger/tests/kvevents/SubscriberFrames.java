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

    static List<KvEvent> events(List<Message> messages) {
        List<KvEvent> events = new ArrayList<>();
        messages.forEach(m -> events.addAll(m.batch().events()));
        return events;
    }
}

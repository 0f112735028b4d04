package io.kvledger.infrastructure.kvevents;

import static org.awaitility.Awaitility.await;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.core.ConditionTimeoutException;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * Clients as a router makes them: a connection whose handshake stalls is dropped and made again (on
 * this loaded 2-core machine a fresh ZeroMQ TCP connection sometimes never completes its handshake),
 * a replay request without an answer is made again on a new socket (ZeroMQ's "lazy pirate"). Shared
 * with the acceptance tests through this module's test jar.
 */
public final class TestSockets {

    /** A SUB socket on its own context, subscribed to {@code topic} once the publisher counts {@code subscriptions}. */
    public record Subscriber(ZContext context, ZMQ.Socket socket) implements AutoCloseable {
        @Override
        public void close() {
            context.close();
        }
    }

    private TestSockets() {
    }

    public static Subscriber subscriber(ZmqKvEventPublisher publisher, String topic, int subscriptions) {
        for (int attempt = 0; attempt < 5; attempt++) {
            ZContext context = new ZContext();
            ZMQ.Socket sub = context.createSocket(SocketType.SUB);
            sub.setLinger(0);
            sub.setRcvHWM(0);
            sub.setReceiveTimeOut(10_000);
            sub.subscribe(topic.getBytes(StandardCharsets.UTF_8));
            sub.connect(publisher.endpoint());
            try {
                await().atMost(Duration.ofSeconds(3)).until(() -> publisher.subscribers() >= subscriptions);
                return new Subscriber(context, sub);
            } catch (ConditionTimeoutException e) {
                context.close();
                await().atMost(Duration.ofSeconds(3)).until(() -> publisher.subscribers() < subscriptions);
            }
        }
        throw new AssertionError("no subscription reached the publisher in 5 attempts");
    }

    /** Every message of one replay from {@code start}, the end marker included. */
    public static List<List<byte[]>> replay(String endpoint, long start) {
        for (int attempt = 0; attempt < 5; attempt++) {
            try (ZContext context = new ZContext()) {
                ZMQ.Socket dealer = context.createSocket(SocketType.DEALER);
                dealer.setLinger(0);
                dealer.setReceiveTimeOut(2_000);
                dealer.connect(endpoint);
                dealer.sendMore(new byte[0]);
                dealer.send(ByteBuffer.allocate(8).putLong(start).array());
                List<List<byte[]>> messages = new ArrayList<>();
                for (byte[] first = dealer.recv(); first != null; first = dealer.recv()) {
                    List<byte[]> frames = new ArrayList<>(List.of(first));
                    while (dealer.hasReceiveMore()) {
                        frames.add(dealer.recv());
                    }
                    messages.add(frames);
                    if (frames.size() == 3 && ByteBuffer.wrap(frames.get(1)).getLong() == -1) {
                        return messages;
                    }
                }
            }
        }
        throw new AssertionError("no complete replay from " + endpoint + " in 5 attempts");
    }
}

package io.kvledger.infrastructure.kvevents;

import io.kvledger.application.StepListener;
import io.kvledger.application.engine.StepResult;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * Publishes the CPU tier's changes as vLLM KV-cache events, in vLLM's wire format ({@code
 * ZmqEventPublisher} in {@code vllm/distributed/kv_events.py}): a PUB socket sends each step's batch
 * as three frames (topic, an 8-byte big-endian sequence number from 0, the msgpack batch), and an
 * optional ROUTER replay socket answers a start sequence number with every buffered batch from it
 * ({@code seq, payload} frames) and then an end marker ({@code -1}, empty). A {@link StepListener}:
 *
 * <pre>{@code
 * try (ZmqKvEventPublisher kvEvents = ZmqKvEventPublisher.builder("tcp://127.0.0.1:5557")
 *         .replayEndpoint("tcp://127.0.0.1:5558").topic("kv@engine-0@my-model").build()) {
 *     KvLedger ledger = KvLedger.builder().listener(kvEvents).build();
 *     ...
 * }
 * }</pre>
 *
 * <p>The scheduler's thread only turns the step into events and queues them; a thread of the
 * publisher's own owns the sockets (ZeroMQ sockets are not thread-safe), encodes and sends. A
 * sequence number is taken when a batch is queued, so a batch dropped because the queue is full
 * leaves a gap a subscriber can see. The PUB socket is an XPUB, which behaves the same for
 * subscribers and also tells the publisher how many are subscribed ({@link #subscribers()}).
 * Endpoints are bound ({@code tcp://127.0.0.1:*} picks a free port; see {@link #endpoint()}).
 */
public final class ZmqKvEventPublisher implements StepListener, AutoCloseable {

    private static final int POLL_MILLIS = 2;
    static final byte[] END_OF_REPLAY = ByteBuffer.allocate(8).putLong(-1).array();

    private record Pending(long seq, KvEventBatch batch) {
    }

    private record Sent(long seq, byte[] payload) {
    }

    private final Builder options;
    private final CpuTierChanges changes;
    private final BlockingQueue<Pending> queue;
    private final AtomicLong nextSeq = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong published = new AtomicLong();
    private final CompletableFuture<String[]> bound = new CompletableFuture<>();
    private final Thread thread;
    private volatile int subscribers;
    private volatile boolean running = true;

    private ZmqKvEventPublisher(Builder options) {
        this.options = options;
        this.changes = new CpuTierChanges(options.medium);
        this.queue = new ArrayBlockingQueue<>(options.maxQueueSize);
        this.thread = new Thread(this::publishLoop, "kvledger-kv-events");
        thread.setDaemon(true);
        thread.start();
        try {
            bound.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            close();
            throw new IllegalStateException("cannot bind the KV event sockets: " + bindFailure(e.getCause()), e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            close();
            throw new IllegalStateException("the KV event publisher did not start", e);
        }
    }

    public static Builder builder(String endpoint) {
        return new Builder(endpoint);
    }

    /** The PUB endpoint actually bound (with the port a {@code *} picked). */
    public String endpoint() {
        return bound.join()[0];
    }

    /** The replay endpoint actually bound, or {@code null} without one. */
    public String replayEndpoint() {
        return bound.join()[1];
    }

    /** Subscriptions the PUB socket has now (a subscriber may subscribe to several topics). */
    public int subscribers() {
        return subscribers;
    }

    /** Waits until at least {@code count} subscriptions are made; {@code false} when the time ran out. */
    public boolean awaitSubscribers(int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (subscribers < count) {
            if (System.nanoTime() >= deadline) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }

    /** Whether the publishing thread runs (it stops after {@link #close}, or on an error it cannot go on from). */
    public boolean alive() {
        return thread.isAlive();
    }

    /** Batches handed to the socket so far. */
    public long published() {
        return published.get();
    }

    /** Batches dropped because the queue was full (each left a gap in the sequence numbers). */
    public long dropped() {
        return dropped.get();
    }

    @Override
    public void onStep(int commands, StepResult result, long elapsedNanos) {
        List<KvEvent> events = changes.apply(result.events(), result.state());
        if (!events.isEmpty()) {
            publish(events);
        }
    }

    /** Queues one batch; never blocks the caller. */
    public void publish(List<KvEvent> events) {
        if (!running) {
            throw new IllegalStateException("the KV event publisher is closed");
        }
        double ts = options.clock.millis() / 1000.0;
        Pending pending = new Pending(nextSeq.getAndIncrement(), new KvEventBatch(ts, events, options.dataParallelRank));
        if (!queue.offer(pending)) {
            dropped.incrementAndGet();
        }
    }

    /** Sends what is queued, closes the sockets (lingering so sent batches leave) and terminates the context. */
    @Override
    public void close() {
        running = false;
        try {
            thread.join(options.lingerMillis + 5_000L);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Why a bind failed, in an endpoint's terms: ZeroMQ's own message, or the port ZeroMQ could not read as a number. */
    private String bindFailure(Throwable cause) {
        if (cause instanceof NumberFormatException) {
            String endpoints = options.endpoint + (options.replayEndpoint == null ? "" : " or " + options.replayEndpoint);
            return "the port of " + endpoints + " is not a number (write tcp://HOST:PORT, or tcp://HOST:* for a free port)";
        }
        if (cause instanceof org.zeromq.ZMQException zmq) { // "Errno 49" says nothing: ZeroMQ's words for its code
            String endpoints = options.endpoint + (options.replayEndpoint == null ? "" : " or " + options.replayEndpoint);
            try {
                return endpoints + ": " + ZMQ.Error.findByCode(zmq.getErrorCode()).getMessage();
            } catch (IllegalArgumentException unknownCode) {
                return endpoints + ": " + zmq.getMessage();
            }
        }
        return cause.getMessage();
    }

    private void publishLoop() {
        try (ZContext context = new ZContext()) {
            ZMQ.Socket pub = context.createSocket(SocketType.XPUB);
            pub.setLinger(options.lingerMillis);
            pub.setSndHWM(options.hwm);
            pub.setXpubVerbose(true);
            ZMQ.Socket replay = null;
            try {
                pub.bind(options.endpoint);
                if (options.replayEndpoint != null) {
                    replay = context.createSocket(SocketType.ROUTER);
                    replay.setLinger(options.lingerMillis);
                    replay.bind(options.replayEndpoint);
                }
            } catch (RuntimeException e) {
                bound.completeExceptionally(e);
                return;
            }
            bound.complete(new String[] {pub.getLastEndpoint(), replay == null ? null : replay.getLastEndpoint()});
            serve(pub, replay);
        } catch (RuntimeException e) {
            bound.completeExceptionally(e);
        }
    }

    private void serve(ZMQ.Socket pub, ZMQ.Socket replay) {
        byte[] topic = options.topic.getBytes(StandardCharsets.UTF_8);
        ArrayDeque<Sent> buffer = new ArrayDeque<>();
        while (true) {
            // Non-blocking reads on the sockets themselves (no Poller): each read also makes ZeroMQ attach the
            // connections that arrived since, so new subscribers and replay clients are seen within one interval.
            subscriptions(pub);
            if (replay != null) {
                replay(replay, buffer);
            }
            Pending pending;
            try {
                pending = queue.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (pending == null) {
                if (!running) {
                    return;
                }
                continue;
            }
            for (; pending != null; pending = queue.poll()) {
                byte[] payload;
                try {
                    payload = KvEventCodec.encode(pending.batch(), options.encoding);
                } catch (RuntimeException e) {
                    dropped.incrementAndGet(); // cannot happen for events this module makes; never stop publishing
                    continue;
                }
                pub.sendMore(topic);
                pub.sendMore(seqBytes(pending.seq()));
                pub.send(payload);
                published.incrementAndGet();
                buffer.addLast(new Sent(pending.seq(), payload));
                if (buffer.size() > options.bufferSteps) {
                    buffer.removeFirst();
                }
            }
        }
    }

    private void subscriptions(ZMQ.Socket pub) {
        for (byte[] message = pub.recv(ZMQ.DONTWAIT); message != null; message = pub.recv(ZMQ.DONTWAIT)) {
            if (message.length > 0 && message[0] == 1) {
                subscribers++;
            } else if (message.length > 0 && message[0] == 0) {
                subscribers = Math.max(0, subscribers - 1);
            }
        }
    }

    /** A request is {@code [identity, empty, start seq]}, as a DEALER client sends it (a REQ takes only one reply); anything else is skipped. */
    private void replay(ZMQ.Socket replay, ArrayDeque<Sent> buffer) {
        for (byte[] identity = replay.recv(ZMQ.DONTWAIT); identity != null; identity = replay.recv(ZMQ.DONTWAIT)) {
            java.util.List<byte[]> frames = new java.util.ArrayList<>();
            while (replay.hasReceiveMore()) {
                frames.add(replay.recv());
            }
            if (frames.size() != 2 || frames.get(0).length != 0 || frames.get(1).length != 8) {
                continue;
            }
            long start = ByteBuffer.wrap(frames.get(1)).getLong();
            for (Sent sent : buffer) {
                if (sent.seq() >= start) {
                    replay.sendMore(identity);
                    replay.sendMore(new byte[0]);
                    replay.sendMore(seqBytes(sent.seq()));
                    replay.send(sent.payload());
                }
            }
            replay.sendMore(identity);
            replay.sendMore(new byte[0]);
            replay.sendMore(END_OF_REPLAY);
            replay.send(new byte[0]);
        }
    }

    static byte[] seqBytes(long seq) {
        return ByteBuffer.allocate(8).putLong(seq).array();
    }

    /** The publisher's settings; vLLM's {@code KVEventsConfig} defaults where it has them. */
    public static final class Builder {
        private final String endpoint;
        private String replayEndpoint;
        private String topic = "";
        private int bufferSteps = 10_000;
        private int hwm = 100_000;
        private int maxQueueSize = 100_000;
        private Integer dataParallelRank = 0;
        private KvEventEncoding encoding = KvEventEncoding.MAP;
        private String medium = "CPU";
        private int lingerMillis = 1_000;
        private Clock clock = Clock.systemUTC();

        private Builder(String endpoint) {
            this.endpoint = endpoint;
        }

        /** The ROUTER endpoint for replay requests (none by default). */
        public Builder replayEndpoint(String value) {
            replayEndpoint = value;
            return this;
        }

        /** The first frame of every message (vLLM: empty by default; llm-d expects {@code kv@<pod>@<model>}). */
        public Builder topic(String value) {
            topic = value;
            return this;
        }

        /** Batches kept for replay. */
        public Builder bufferSteps(int value) {
            bufferSteps = value;
            return this;
        }

        public Builder highWaterMark(int value) {
            hwm = value;
            return this;
        }

        /** Batches waiting to be sent before new ones are dropped. */
        public Builder maxQueueSize(int value) {
            maxQueueSize = value;
            return this;
        }

        /** The batches' {@code data_parallel_rank} (0 by default, as vLLM's publisher sets it). */
        public Builder dataParallelRank(Integer value) {
            dataParallelRank = value;
            return this;
        }

        public Builder encoding(KvEventEncoding value) {
            encoding = value;
            return this;
        }

        public Builder medium(String value) {
            medium = value;
            return this;
        }

        /** How long closing waits for sent messages to leave. */
        public Builder lingerMillis(int value) {
            lingerMillis = value;
            return this;
        }

        /** Where the batches' timestamps come from. */
        public Builder clock(Clock value) {
            clock = value;
            return this;
        }

        /** Binds the sockets; throws {@link IllegalStateException} when an endpoint cannot be bound. */
        public ZmqKvEventPublisher build() {
            return new ZmqKvEventPublisher(this);
        }
    }
}

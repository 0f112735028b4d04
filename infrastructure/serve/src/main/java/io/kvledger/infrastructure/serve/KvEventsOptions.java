package io.kvledger.infrastructure.serve;

import io.kvledger.infrastructure.kvevents.KvEventEncoding;
import io.kvledger.infrastructure.kvevents.ZmqKvEventPublisher;
import java.io.PrintStream;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The options that publish the CPU tier's changes as vLLM KV-cache events while a command runs the engine: one
 * class, mixed into {@code kvledger run} and {@code kvledger serve} (docs/kv-events.md).
 */
public final class KvEventsOptions {

    @Option(names = "--kv-events", paramLabel = "ENDPOINT",
            description = "Publish the CPU tier's changes as vLLM KV-cache events on this ZeroMQ PUB endpoint, bound"
                    + " (e.g. tcp://127.0.0.1:5557; docs/kv-events.md).")
    String endpoint;

    @Option(names = "--kv-events-replay", paramLabel = "ENDPOINT",
            description = "With --kv-events: a ROUTER endpoint that replays buffered batches from a start seq.")
    String replayEndpoint;

    @Option(names = "--kv-events-topic", paramLabel = "TOPIC", defaultValue = "",
            description = "With --kv-events: the topic frame (llm-d expects kv@<pod>@<model>; default empty, as vLLM).")
    String topic;

    @Option(names = "--kv-events-encoding", paramLabel = "MAP|ARRAY", defaultValue = "MAP",
            description = "With --kv-events: events as type-tagged maps (vLLM since 0.26, the default) or tagged"
                    + " arrays (vLLM up to 0.25).")
    KvEventEncoding encoding;

    @Option(names = "--kv-events-wait", paramLabel = "MS", defaultValue = "0",
            description = "With --kv-events: wait up to MS milliseconds for a subscriber before the first step"
                    + " (a PUB socket drops what it sends before anyone subscribes).")
    long waitMillis;

    @Option(names = "--kv-events-linger", paramLabel = "MS", defaultValue = "0",
            description = "With --kv-events: keep publishing (and replaying) for MS milliseconds after the run (or the server) ends.")
    long lingerMillis;

    /** Whether {@code --kv-events} was given. */
    public boolean requested() {
        return endpoint != null;
    }

    /** The publisher, or {@code null} without {@code --kv-events}. */
    public ZmqKvEventPublisher open() {
        if (endpoint == null) {
            return null;
        }
        return ZmqKvEventPublisher.builder(endpoint).replayEndpoint(replayEndpoint).topic(topic)
                .encoding(encoding).build();
    }

    /** Waits up to {@code --kv-events-wait} for a first subscriber, saying on {@code log} when none came. */
    public void awaitSubscriber(ZmqKvEventPublisher publisher, PrintStream log) throws InterruptedException {
        if (publisher != null && waitMillis > 0 && !publisher.awaitSubscribers(1, Duration.ofMillis(waitMillis))) {
            log.println("kvledger: no KV-event subscriber within " + waitMillis + " ms; running anyway");
        }
    }

    /** Keeps the publisher up for {@code --kv-events-linger} after the engine's last step. */
    public void linger(ZmqKvEventPublisher publisher) throws InterruptedException {
        if (publisher != null && lingerMillis > 0) {
            Thread.sleep(lingerMillis);
        }
    }
}

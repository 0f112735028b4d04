package io.kvledger.infrastructure.serve;

import io.kvledger.application.StepListener;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.infrastructure.metrics.MicrometerStepListener;
import io.kvledger.infrastructure.store.JsonlEventStorageEngine;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One engine served to one client at a time, over a Unix domain socket or a pair of streams, with its
 * metrics on an optional HTTP port. {@link #stop} (on SIGTERM, or at the end of standard input) stops
 * accepting, lets the step in progress finish and its answer be written whole (for a grace period),
 * answers any later request {@code SHUTTING_DOWN} without running it, closes the connection, then the
 * engine (which flushes the store), and removes the socket file.
 */
public final class LedgerServer implements AutoCloseable {

    static final String SERVER = "kvledger 0.1.0";

    private final ServedEngine engine;
    private final ServeMetrics metrics;
    private final MetricsEndpoint endpoint;
    private final PrintStream log;
    private volatile UnixSocketListener listener;
    private long graceNanos = DEFAULT_GRACE_NANOS;
    private Session current;
    private boolean stopped;
    private boolean clean = true;

    /** How long {@link #stop} waits for the answer in progress by default (a client that does not read holds it up). */
    static final long DEFAULT_GRACE_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(10);

    private LedgerServer(ServedEngine engine, ServeMetrics metrics, MetricsEndpoint endpoint, PrintStream log) {
        this.engine = engine;
        this.metrics = metrics;
        this.endpoint = endpoint;
        this.log = log;
    }

    /**
     * @param store       the durable store (owned from here on), or {@code null} for memory
     * @param config      the engine's config if fixed at start; otherwise the first hello's
     * @param metricsPort the Prometheus endpoint's port on 127.0.0.1 (0: a free one), or -1 for none
     */
    public static LedgerServer start(JsonlEventStorageEngine store, Optional<EngineConfig> config, int metricsPort,
                                     PrintStream log) throws IOException {
        return start(store, config, metricsPort, List.of(), log);
    }

    /** As {@link #start(JsonlEventStorageEngine, Optional, int, PrintStream)}, the engine's steps also to {@code others}. */
    public static LedgerServer start(JsonlEventStorageEngine store, Optional<EngineConfig> config, int metricsPort,
                                     List<StepListener> others, PrintStream log) throws IOException {
        return start(store == null ? null : ServedStore.of(store), config, metricsPort, others, log);
    }

    /** As {@link #start(JsonlEventStorageEngine, Optional, int, List, PrintStream)}, on any store (owned from here on). */
    static LedgerServer start(ServedStore store, Optional<EngineConfig> config, int metricsPort,
                              List<StepListener> others, PrintStream log) throws IOException {
        List<StepListener> listeners = new ArrayList<>(others);
        ServeMetrics metrics = ServeMetrics.none();
        MetricsEndpoint endpoint = null;
        if (metricsPort >= 0) {
            PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            listeners.add(new MicrometerStepListener(registry, "engine"));
            metrics = new ServeMetrics(registry);
            try {
                endpoint = MetricsEndpoint.start(registry, metricsPort);
            } catch (IOException e) {
                if (store != null) {
                    store.close();
                }
                throw e;
            }
            log.println("kvledger serve: metrics on http://127.0.0.1:" + endpoint.port() + "/metrics");
        }
        ServedEngine engine;
        try {
            engine = new ServedEngine(store, config, listeners);
        } catch (RuntimeException e) {
            if (endpoint != null) {
                endpoint.close();
            }
            if (store != null) {
                store.close();
            }
            throw e;
        }
        return new LedgerServer(engine, metrics, endpoint, log);
    }

    /** Serves clients on a Unix domain socket at {@code path} until {@link #stop}. */
    public void serveSocket(Path path) throws IOException {
        UnixSocketListener bound = UnixSocketListener.bind(path, log);
        listener = bound;
        log.println("kvledger serve: listening on " + path);
        bound.acceptUntilClosed(this::session, metrics);
    }

    /** Serves one client over a pair of streams until its input ends. */
    public void serveStreams(InputStream in, OutputStream out) throws IOException {
        log.println("kvledger serve: serving on standard streams");
        metrics.session();
        session().serve(in, out, out);
    }

    /** How long {@link #stop} waits for the step in progress and its whole answer before it cuts the connection. */
    public synchronized void graceNanos(long nanos) {
        graceNanos = nanos;
    }

    /** The session of the next client; one that begins while the server stops only hears {@code SHUTTING_DOWN}. */
    private synchronized Session session() {
        Session session = new Session(engine, metrics, log, SERVER);
        current = session;
        if (stopped) {
            session.stop(0);
        }
        return session;
    }

    /**
     * Stops the server; idempotent, safe from a signal's thread while a step runs on another. The step in
     * progress finishes and its answer is written whole, as long as the client reads it within the grace
     * period; if it does not, the connection is cut (the step stays stored) and {@link #stoppedCleanly}
     * says so.
     */
    public synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        engine.beginShutdown(); // a step not yet begun is answered SHUTTING_DOWN
        UnixSocketListener bound = listener;
        if (bound != null) {
            try {
                bound.stopAccepting();
            } catch (IOException e) {
                log.println("kvledger serve: cannot remove the socket (" + e.getMessage() + ")");
            }
        }
        Session session = current;
        clean = session == null || session.stop(graceNanos);
        engine.close(); // after the step in progress
        if (!clean) {
            log.println("kvledger serve: the client did not read its last answer within the grace period ("
                    + java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(graceNanos) + " ms), so the connection was cut;"
                    + " the last step stored is seq " + engine.lastStepFirstSeq() + " to " + engine.lastSeq()
                    + " (kvledger export --store reads it back)");
        }
        if (bound != null) {
            try {
                bound.close();
            } catch (IOException e) {
                log.println("kvledger serve: cannot remove the socket (" + e.getMessage() + ")");
            }
        }
        if (endpoint != null) {
            endpoint.close();
        }
        log.println("kvledger serve: stopped after " + engine.steps() + " steps at seq " + engine.lastSeq());
    }

    /** Whether {@link #stop} delivered every answer of a step that ran (false: one was cut after its grace period). */
    public synchronized boolean stoppedCleanly() {
        return clean;
    }

    @Override
    public void close() {
        stop();
    }

    int metricsPort() {
        return endpoint == null ? -1 : endpoint.port();
    }
}

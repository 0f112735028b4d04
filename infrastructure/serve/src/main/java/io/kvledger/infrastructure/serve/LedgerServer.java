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
 * metrics on an optional HTTP port. {@link #stop} (the SIGTERM hook, or the end of standard input)
 * stops accepting, waits for the step in progress, closes the engine (which flushes the store) and
 * removes the socket file.
 */
public final class LedgerServer implements AutoCloseable {

    static final String SERVER = "kvledger 0.1.0";

    private final ServedEngine engine;
    private final ServeMetrics metrics;
    private final MetricsEndpoint endpoint;
    private final PrintStream log;
    private volatile UnixSocketListener listener;
    private boolean stopped;

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
        session().serve(in, out);
    }

    private Session session() {
        return new Session(engine, metrics, log, SERVER);
    }

    /** Stops the server; idempotent, safe from a shutdown hook while a step runs on another thread. */
    public synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        UnixSocketListener bound = listener;
        if (bound != null) {
            try {
                bound.stopAccepting();
            } catch (IOException e) {
                log.println("kvledger serve: cannot remove the socket (" + e.getMessage() + ")");
            }
        }
        engine.close(); // after the step in progress, whose answer still reaches the client
        if (bound != null) {
            try {
                bound.close();
            } catch (IOException e) {
                log.println("kvledger serve: cannot close the client's connection (" + e.getMessage() + ")");
            }
        }
        if (endpoint != null) {
            endpoint.close();
        }
        log.println("kvledger serve: stopped after " + engine.steps() + " steps at seq " + engine.lastSeq());
    }

    @Override
    public void close() {
        stop();
    }

    int metricsPort() {
        return endpoint == null ? -1 : endpoint.port();
    }
}

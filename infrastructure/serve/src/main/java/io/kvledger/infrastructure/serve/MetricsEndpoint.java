package io.kvledger.infrastructure.serve;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * {@code GET /metrics} in Prometheus' text format, on 127.0.0.1 only, served by the JDK's own HTTP server; any
 * other path is 404 (the JDK's contexts match by prefix, so {@code /metricsX} is refused here).
 */
final class MetricsEndpoint implements AutoCloseable {

    private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer http;

    private MetricsEndpoint(HttpServer http) {
        this.http = http;
    }

    /** Listens on {@code port} of the loopback interface (0: any free port, see {@link #port()}). */
    static MetricsEndpoint start(PrometheusMeterRegistry registry, int port) throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        http.createContext("/metrics", exchange -> answer(exchange, registry));
        http.setExecutor(Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "kvledger-metrics");
            thread.setDaemon(true);
            return thread;
        }));
        http.start();
        return new MetricsEndpoint(http);
    }

    int port() {
        return http.getAddress().getPort();
    }

    private static void answer(HttpExchange exchange, PrometheusMeterRegistry registry) throws IOException {
        try (exchange) {
            if (!"/metrics".equals(exchange.getRequestURI().getPath())) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            if (!"GET".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        http.stop(0);
    }
}

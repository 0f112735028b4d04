package io.kvledger.infrastructure.serve;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.infrastructure.store.JsonlEventStorageEngine;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/** A real server in this JVM on a real Unix domain socket, served on its own thread. */
final class ServerHarness implements AutoCloseable {

    final LedgerServer server;
    final Path socket;
    final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private final Thread thread;

    ServerHarness(Path socket, JsonlEventStorageEngine store, Optional<EngineConfig> config, int metricsPort)
            throws IOException {
        this.socket = socket;
        PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);
        this.server = LedgerServer.start(store, config, metricsPort, out);
        this.thread = new Thread(() -> {
            try {
                server.serveSocket(socket);
            } catch (IOException e) {
                out.println("harness: " + e);
            }
        }, "test-server");
        thread.start();
        Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> Files.exists(socket));
    }

    static ServerHarness inMemory(Path dir) throws IOException {
        return new ServerHarness(dir.resolve("kvledger.sock"), null, Optional.empty(), -1);
    }

    String log() {
        return log.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        server.stop();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

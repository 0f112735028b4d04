package io.kvledger.tests.serve;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.serve.LedgerServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/** A real in-memory server on a real Unix domain socket, and one client of it. */
final class ServeClient implements AutoCloseable {

    private final LedgerServer server;
    private final Thread thread;
    private final SocketChannel channel;
    private final BufferedReader in;

    ServeClient(Path socket) throws IOException {
        server = LedgerServer.start(null, Optional.empty(), -1, new PrintStream(PrintStream.nullOutputStream()));
        thread = new Thread(() -> {
            try {
                server.serveSocket(socket);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, "served-logs-server");
        thread.start();
        Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> Files.exists(socket));
        channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        channel.connect(UnixDomainSocketAddress.of(socket));
        in = new BufferedReader(new InputStreamReader(Channels.newInputStream(channel), StandardCharsets.UTF_8));
    }

    JsonNode request(String line) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8));
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
        return EventJson.mapper().readTree(in.readLine());
    }

    @Override
    public void close() throws Exception {
        channel.close();
        server.stop();
        thread.join(10_000);
    }
}

package io.kvledger.infrastructure.serve;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.infrastructure.json.EventJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** A test's client on a real Unix domain socket: a line out, a line back. */
final class UnixClient implements AutoCloseable {

    private final SocketChannel channel;
    private final BufferedReader in;

    UnixClient(Path socket) throws IOException {
        channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        channel.connect(UnixDomainSocketAddress.of(socket));
        in = new BufferedReader(new InputStreamReader(Channels.newInputStream(channel), StandardCharsets.UTF_8));
    }

    void send(String text) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
    }

    JsonNode request(String line) throws IOException {
        send(line + "\n");
        return answer();
    }

    /** The next answer, or {@code null} when the server closed the connection. */
    JsonNode answer() throws IOException {
        String line = in.readLine();
        return line == null ? null : EventJson.mapper().readTree(line);
    }

    JsonNode hello() throws IOException {
        return request("{\"hello\": {\"protocol\": 1, \"client\": \"test\"}}");
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}

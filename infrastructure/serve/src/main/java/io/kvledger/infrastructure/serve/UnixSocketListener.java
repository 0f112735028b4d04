package io.kvledger.infrastructure.serve;

import io.kvledger.infrastructure.serve.ProtocolError.Code;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Accepts clients on a Unix domain socket, one at a time: while a client is connected, another is
 * answered with a {@code BUSY} error and closed. A socket file left by a server that died is replaced;
 * one a live server listens on is refused.
 */
final class UnixSocketListener implements AutoCloseable {

    /** How long a new client waits for a connected session that is ending before it is refused. */
    private static final long RECONNECT_GRACE_MILLIS = 500;
    private static final int S_IFMT = 0170000;
    private static final int S_IFSOCK = 0140000;

    private final Path path;
    private final ServerSocketChannel server;
    private final AtomicReference<SocketChannel> active = new AtomicReference<>();
    private final PrintStream log;

    private UnixSocketListener(Path path, ServerSocketChannel server, PrintStream log) {
        this.path = path;
        this.server = server;
        this.log = log;
    }

    /** @throws SocketInUseException when a live server listens on {@code path}, or it is not a socket */
    static UnixSocketListener bind(Path path, PrintStream log) throws IOException {
        if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            removeStale(path);
        }
        if (path.toAbsolutePath().getParent() != null) {
            Files.createDirectories(path.toAbsolutePath().getParent());
        }
        // Bound (and listening) under a temporary name, then renamed: the socket file appears only once a
        // client can connect to it, so a client that waits for the file is never refused.
        Path binding = path.toAbsolutePath().resolveSibling("." + path.getFileName() + ".binding-" + ProcessHandle.current().pid());
        Files.deleteIfExists(binding);
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            server.bind(UnixDomainSocketAddress.of(binding));
            Files.move(binding, path, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            server.close();
            Files.deleteIfExists(binding);
            throw e;
        }
        return new UnixSocketListener(path, server, log);
    }

    private static void removeStale(Path path) throws IOException {
        int mode = (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        if ((mode & S_IFMT) != S_IFSOCK) {
            throw new SocketInUseException(path + " exists and is not a socket");
        }
        try (SocketChannel probe = SocketChannel.open(UnixDomainSocketAddress.of(path))) {
            throw new SocketInUseException("another server is listening on " + path);
        } catch (IOException refused) {
            if (refused instanceof SocketInUseException) {
                throw refused;
            }
            Files.delete(path); // nobody listens: left by a server that died
        }
    }

    /** Accepts clients until {@link #close}; each is served on its own thread, one at a time. */
    void acceptUntilClosed(SessionFactory sessions, ServeMetrics metrics) throws IOException {
        while (true) {
            SocketChannel client;
            try {
                client = server.accept();
            } catch (ClosedChannelException e) {
                return;
            }
            if (!claim(client)) {
                refuseBusy(client, metrics);
                continue;
            }
            metrics.session();
            Thread thread = new Thread(() -> serve(client, sessions), "kvledger-session");
            thread.setDaemon(true);
            thread.start();
        }
    }

    /**
     * Makes {@code client} the connected one. A client that reconnects right after closing should not find
     * its own old session still there, so a connected session gets a moment to notice its end first.
     */
    private boolean claim(SocketChannel client) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RECONNECT_GRACE_MILLIS);
        synchronized (active) {
            while (!active.compareAndSet(null, client)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(active, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
    }

    private void release(SocketChannel client) {
        synchronized (active) {
            active.compareAndSet(client, null);
            active.notifyAll();
        }
    }

    private void serve(SocketChannel client, SessionFactory sessions) {
        try (client) {
            InputStream in = new BufferedInputStream(Channels.newInputStream(client), 64 * 1024);
            OutputStream out = new ChannelOutput(client);
            sessions.create().serve(in, out, client);
            log.println("kvledger serve: client disconnected");
        } catch (IOException e) {
            log.println("kvledger serve: client connection lost (" + reason(e) + ")");
        } finally {
            release(client);
        }
    }

    /** Why a connection ended, in words: a JDK exception about a closed channel has no message of its own. */
    static String reason(IOException e) {
        if (e instanceof java.nio.channels.AsynchronousCloseException) {
            return "the server closed it while stopping";
        }
        if (e instanceof ClosedChannelException) {
            return "the connection was already closed";
        }
        String message = e.getMessage();
        if (message == null || message.isBlank()) {
            return "the connection failed without a reason from the system";
        }
        if (message.contains("Broken pipe")) {
            return "the client closed its end before reading the answer (broken pipe)";
        }
        if (message.contains("Connection reset")) {
            return "the client reset the connection";
        }
        return message;
    }

    /**
     * Answers {@code BUSY} and ends the connection without a reset: the output is shut first (the client
     * reads the answer, then the end), and what the client sent is read until it closes, for a few
     * seconds at most, on a thread of its own so the listener goes on accepting.
     */
    private void refuseBusy(SocketChannel client, ServeMetrics metrics) {
        metrics.refusedClient();
        metrics.error(Code.BUSY);
        log.println("kvledger serve: refused a second client while one is connected");
        Thread thread = new Thread(() -> {
            try (client) {
                AnswerWriter answer = new AnswerWriter();
                answer.error(new ProtocolError(Code.BUSY,
                        "another client is connected to this server (one client at a time); try again when it has closed"));
                answer.sendTo(Channels.newOutputStream(client));
                client.shutdownOutput();
                client.configureBlocking(false);
                java.nio.ByteBuffer sink = java.nio.ByteBuffer.allocate(4096);
                long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(3);
                while (System.nanoTime() < deadline) {
                    sink.clear();
                    int n = client.read(sink);
                    if (n < 0) {
                        break;
                    }
                    if (n == 0) {
                        Thread.sleep(5);
                    }
                }
            } catch (IOException e) {
                // the refused client left already
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "kvledger-refuse");
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops accepting new clients and removes the socket file; the connected client stays. */
    void stopAccepting() throws IOException {
        server.close();
        Files.deleteIfExists(path);
    }

    /** Stops accepting, closes the connected client's connection and removes the socket file. */
    @Override
    public void close() throws IOException {
        server.close();
        SocketChannel client = active.get();
        if (client != null) {
            client.close();
        }
        Files.deleteIfExists(path);
    }

    Path path() {
        return path;
    }

    /**
     * Writes straight to the channel. The JDK's {@code Channels.newOutputStream} takes the channel's blocking
     * lock, which a read in progress holds, so a stop could not tell a client waiting between requests that
     * the server is stopping.
     */
    private static final class ChannelOutput extends OutputStream {
        private final SocketChannel channel;

        ChannelOutput(SocketChannel channel) {
            this.channel = channel;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(bytes, offset, length);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
        }
    }

    @FunctionalInterface
    interface SessionFactory {
        Session create();
    }

    static final class SocketInUseException extends IOException {
        SocketInUseException(String message) {
            super(message);
        }
    }
}

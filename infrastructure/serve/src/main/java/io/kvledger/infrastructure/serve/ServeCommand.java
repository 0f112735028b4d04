package io.kvledger.infrastructure.serve;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.application.ConfigMismatchException;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.json.JsonProblems;
import io.kvledger.infrastructure.kvevents.ZmqKvEventPublisher;
import io.kvledger.infrastructure.scenario.ScenarioReader;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.JsonlEventStorageEngine;
import io.kvledger.infrastructure.store.StoreLocation;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.axonframework.eventsourcing.eventstore.EventStoreException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code kvledger serve}: the embedding API as a local sidecar (docs/serve-protocol.md). */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Serves one engine to a host in any language: JSON Lines, one request per scheduler step"
                + " (docs/serve-protocol.md). One client at a time; SIGTERM (or, with --stdio, the end of standard"
                + " input) stops it after the step in progress and flushes the store."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped (SIGTERM or SIGINT, or the end of standard input with --stdio), every answer delivered",
                "2:bad options, a socket a live server listens on, or a store that cannot be used",
                "143:stopped, but the client did not read the answer to its last step within --shutdown-grace"
                        + " (the step is stored; stderr names its seqs)"})
public final class ServeCommand implements Callable<Integer> {

    @ArgGroup(exclusive = true, multiplicity = "1")
    Transport transport;

    static final class Transport {
        @Option(names = "--socket", paramLabel = "PATH", description = "Listen on a Unix domain socket at PATH.")
        Path socket;

        @Option(names = "--stdio", description = "Serve one client over standard input and output (logs go to stderr).")
        boolean stdio;
    }

    @Option(names = "--store", paramLabel = "FILE|DIR/|URL", description = "Keep the events in this store, read as"
            + " `kvledger run --store` reads it: a store file, a store directory (a path ending with /, or file:DIR/),"
            + " or a database URL (jdbc:postgresql://HOST:PORT/DB?user=U, engine id 'engine'); created when missing,"
            + " continued when it holds an engine. Default: memory.")
    String store;

    @Option(names = "--fsync", paramLabel = "POLICY", converter = FsyncConverter.class, defaultValue = "always",
            description = "With --store: always (every step), never, or interval:MS. Default: ${DEFAULT-VALUE}.")
    FsyncPolicy fsync;

    @Option(names = "--config", paramLabel = "JSON", description = "Fix the engine's config at start, as a scenario's"
            + " config line gives it, e.g. '{\"gpuBlockSize\": 4}'. Without it the first hello's config (or the"
            + " stored one) is used.")
    String config;

    @Option(names = "--metrics-port", paramLabel = "PORT", defaultValue = "-1",
            description = "Serve Prometheus metrics at http://127.0.0.1:PORT/metrics (0: a free port, printed on stderr).")
    int metricsPort;

    @Option(names = "--shutdown-grace", paramLabel = "MS", defaultValue = "10000",
            description = "On SIGTERM, how long the step in progress and its whole answer may take (a client that does"
                    + " not read holds it up) before the connection is cut. Default: ${DEFAULT-VALUE}.")
    long shutdownGraceMillis;

    @Mixin
    KvEventsOptions kvEvents;

    /** The exit status of a stop that had to cut an answer: the one a process ended by SIGTERM has. */
    static final int ANSWER_CUT = 143;

    private static final PrintStream ERR = new PrintStream(new FileOutputStream(FileDescriptor.err), true,
            StandardCharsets.UTF_8);

    /** Runs {@code kvledger serve ARGS} as a program of its own (the tests' child processes use it). */
    public static void main(String[] args) {
        System.setProperty("axoniq.update-checker.disabled", "true");
        System.setProperty("disable-axoniq-console-message", "true");
        System.exit(new picocli.CommandLine(new ServeCommand()).execute(args));
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (shutdownGraceMillis < 0) {
            return fail("--shutdown-grace must be >= 0 milliseconds, was " + shutdownGraceMillis);
        }
        Optional<EngineConfig> fixed;
        try {
            fixed = config == null ? Optional.empty() : Optional.of(ScenarioReader.config(configObject(config)));
        } catch (IllegalArgumentException e) {
            return fail("--config: " + e.getMessage());
        }
        if (metricsPort > 65535 || metricsPort < -1) {
            return fail("--metrics-port must be a port from 0 (a free one) to 65535, was " + metricsPort);
        }
        OutputStream protocolOut = null;
        if (transport.stdio) {
            // Standard output carries the protocol only: anything printed on System.out goes to stderr.
            protocolOut = new FileOutputStream(FileDescriptor.out);
            System.setOut(ERR);
        }
        ZmqKvEventPublisher publisher;
        try {
            publisher = kvEvents.open();
        } catch (IllegalStateException e) {
            return fail("--kv-events: " + e.getMessage());
        }
        try (publisher) {
            return serve(fixed, protocolOut, publisher);
        }
    }

    /** {@code --config}'s value, a JSON object (a config line's {@code config}), or why it is not one. */
    private static JsonNode configObject(String text) {
        JsonNode node;
        try {
            node = EventJson.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(JsonProblems.parseFailure(text, e));
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("must be a JSON object of config fields (contract section 2), e.g."
                    + " {\"gpuBlockSize\": 16}, was " + (node == null ? "empty" : JsonProblems.show(node)));
        }
        return node;
    }

    private int serve(Optional<EngineConfig> fixed, OutputStream protocolOut, ZmqKvEventPublisher publisher)
            throws IOException, InterruptedException {
        LedgerServer server;
        try {
            server = LedgerServer.start(openStore(), fixed, metricsPort,
                    publisher == null ? List.of() : List.of(publisher), ERR);
        } catch (EventStoreException | ConfigMismatchException | IllegalArgumentException e) {
            return fail("store " + store + ": " + withoutLocation(e.getMessage()));
        } catch (IOException e) {
            return fail("cannot serve metrics on port " + metricsPort + ": " + e.getMessage());
        }
        if (publisher != null) {
            ERR.println("kvledger serve: KV events on " + publisher.endpoint());
            kvEvents.awaitSubscriber(publisher, ERR);
        }
        server.graceNanos(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(shutdownGraceMillis));
        // SIGTERM and SIGINT stop the server as a request to stop, not as the JVM's end: the stop runs to its
        // end (the answer in progress delivered) and the command exits 0, or 143 if an answer was cut. Any
        // other end of the JVM still stops it through the hook.
        Runnable stopOnSignal = () -> {
            server.stop();
            if (transport.stdio) {
                // standard input cannot be unblocked; the stop is complete, so the process ends here
                try {
                    kvEvents.linger(publisher);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                System.exit(exitStatus(server));
            }
        };
        for (String name : List.of("TERM", "INT")) {
            sun.misc.Signal.handle(new sun.misc.Signal(name),
                    signal -> new Thread(stopOnSignal, "kvledger-serve-stop").start());
        }
        Thread hook = new Thread(server::stop, "kvledger-serve-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            if (transport.stdio) {
                server.serveStreams(new FileInputStream(FileDescriptor.in), protocolOut);
            } else {
                server.serveSocket(transport.socket);
            }
        } catch (UnixSocketListener.SocketInUseException e) {
            server.stop();
            return fail(e.getMessage());
        } catch (IOException e) {
            ERR.println("kvledger serve: " + e.getMessage());
        } finally {
            server.stop();
        }
        kvEvents.linger(publisher);
        return exitStatus(server);
    }

    /** The store as {@code --store} names it, read as every command reads a location ({@link StoreLocation}). */
    private ServedStore openStore() {
        if (store == null) {
            return null;
        }
        StoreLocation location = StoreLocation.parse(store);
        if (location.isPlainFile()) {
            return ServedStore.of(JsonlEventStorageEngine.open(location.path(), fsync));
        }
        return ServedStore.of(store, location.open(fsync));
    }

    /** The store's own message, which often begins with the location already: said once. */
    private String withoutLocation(String message) {
        String said = message == null ? "cannot be used" : message;
        return said.startsWith(store + ": ") ? said.substring(store.length() + 2) : said;
    }

    private static int exitStatus(LedgerServer server) {
        return server.stoppedCleanly() ? 0 : ANSWER_CUT;
    }

    private static int fail(String message) {
        ERR.println("kvledger: " + message);
        return 2;
    }

    static final class FsyncConverter implements ITypeConverter<FsyncPolicy> {
        @Override
        public FsyncPolicy convert(String value) {
            try {
                return FsyncPolicy.parse(value);
            } catch (IllegalArgumentException e) {
                // picocli would add the exception's class name; the message says it all.
                throw new picocli.CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}

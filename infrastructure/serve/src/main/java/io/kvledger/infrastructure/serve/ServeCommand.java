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
        exitCodeList = {"0:stopped (SIGTERM, or the end of standard input with --stdio)",
                "2:bad options, a socket a live server listens on, or a store that cannot be used"})
public final class ServeCommand implements Callable<Integer> {

    @ArgGroup(exclusive = true, multiplicity = "1")
    Transport transport;

    static final class Transport {
        @Option(names = "--socket", paramLabel = "PATH", description = "Listen on a Unix domain socket at PATH.")
        Path socket;

        @Option(names = "--stdio", description = "Serve one client over standard input and output (logs go to stderr).")
        boolean stdio;
    }

    @Option(names = "--store", paramLabel = "FILE", description = "Keep the events in this store file (created when"
            + " missing, continued when it holds an engine), as `kvledger run --store` does. Default: memory.")
    Path store;

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

    @Mixin
    KvEventsOptions kvEvents;

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
            JsonlEventStorageEngine opened = store == null ? null : JsonlEventStorageEngine.open(store, fsync);
            server = LedgerServer.start(opened, fixed, metricsPort,
                    publisher == null ? List.of() : List.of(publisher), ERR);
        } catch (EventStoreException | ConfigMismatchException e) {
            return fail("store " + store + ": " + e.getMessage());
        } catch (IOException e) {
            return fail("cannot serve metrics on port " + metricsPort + ": " + e.getMessage());
        }
        if (publisher != null) {
            ERR.println("kvledger serve: KV events on " + publisher.endpoint());
            kvEvents.awaitSubscriber(publisher, ERR);
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
        return 0;
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

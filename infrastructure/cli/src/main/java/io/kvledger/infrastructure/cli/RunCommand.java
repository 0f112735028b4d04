package io.kvledger.infrastructure.cli;

import io.kvledger.application.ConfigMismatchException;
import io.kvledger.application.EngineConflictException;
import io.kvledger.application.KvLedger;
import io.kvledger.application.LedgerStore;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.infrastructure.log.EventLogWriter;
import io.kvledger.infrastructure.scenario.MalformedLineException;
import io.kvledger.infrastructure.store.FileStores;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.JsonlEventStorageEngine;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.axonframework.eventsourcing.eventstore.EventStoreException;
import picocli.CommandLine.Command;
import io.kvledger.infrastructure.kvevents.ZmqKvEventPublisher;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Executes a scenario's commands and writes the event log (contract section 5).",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the scenario ran to its end (rejected commands included)",
                "2:a malformed line (named on stderr; the events before it are kept), a missing file, or a store that"
                        + " cannot be used (corrupt, locked by another process, or stored with another config)"})
final class RunCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "SCENARIO", description = "JSON Lines scenario: an optional config line, then commands.")
    Path scenario;

    @Option(names = {"-o", "--output"}, paramLabel = "EVENTS", description = "Write the event log here instead of stdout.")
    Path output;

    @Option(names = "--store", paramLabel = "FILE|URL", description = {
            "Also keep the events in this store file (created when missing): a JSON Lines event log whose lines carry"
                    + " an envelope, readable by every tool. On a store that already holds events the run continues"
                    + " them: seq goes on and earlier requests are known; a config line must equal the stored config"
                    + " (without one the stored config is used). The output still holds this run's events, from seq 1.",
            "A torn end left by a killed run is cut and reported on stderr.",
            "Or a database URL, jdbc:postgresql://HOST:PORT/DB?user=U (the JDBC store on the class path): many"
                    + " engines share it, each under its --engine id."})
    String store;

    @Option(names = "--engine", paramLabel = "ID", defaultValue = "engine",
            description = "The engine's id in the store (several engines may share a database). Default: ${DEFAULT-VALUE}.")
    String engineId;

    @Option(names = "--fsync", paramLabel = "POLICY", converter = FsyncConverter.class, defaultValue = "always",
            description = "With --store, when appends are forced to disk: always (every step), never, or interval:MS."
                    + " Default: ${DEFAULT-VALUE}.")
    FsyncPolicy fsync;

    @Mixin
    KvEventsOptions kvEvents;

    private ZmqKvEventPublisher publisher;

    @Override
    public Integer call() throws IOException, InterruptedException {
        ScenarioRunner runner = new ScenarioRunner(this::ledger);
        if (!Files.isRegularFile(scenario)) {
            return Cli.fail("cannot read " + scenario + ": no such file");
        }
        try (ZmqKvEventPublisher kv = kvEvents.open(); InputStream in = Files.newInputStream(scenario);
             Writer out = openOutput()) {
            publisher = kv;
            kvEvents.awaitSubscriber(kv);
            runner.run(in, new EventLogWriter(out));
            out.flush();
            kvEvents.linger(kv);
            return 0;
        } catch (IllegalStateException e) {
            if (publisher == null && kvEvents.endpoint != null) {
                return Cli.fail("--kv-events: " + e.getMessage());
            }
            throw e;
        } catch (NoSuchFileException e) {
            return Cli.fail("cannot read " + e.getFile() + ": no such file");
        } catch (MalformedLineException e) {
            return Cli.fail(scenario + ": " + e.getMessage());
        } catch (UnusableStoreException e) {
            return Cli.fail("store " + store + ": " + e.getMessage());
        } catch (EngineConflictException e) {
            return Cli.fail("store " + store + ": " + e.getMessage());
        }
    }

    /** The store cannot be opened or resumed: bad input (exit 2), unlike a failure while appending (exit 1). */
    private static final class UnusableStoreException extends RuntimeException {
        UnusableStoreException(RuntimeException cause) {
            super(cause.getMessage(), cause);
        }
    }

    private KvLedger ledger(Optional<EngineConfig> config) {
        if (store == null) {
            KvLedger.Builder builder = KvLedger.builder();
            config.ifPresent(builder::config);
            withKvEvents(builder);
            return builder.build();
        }
        try {
            // A torn end the open cuts is reported by the store's own warning, on stderr.
            KvLedger.Builder builder = StoreLocations.isLocation(store)
                    ? KvLedger.builder().store(LedgerStore.of(store)).engineId(engineId)
                    : FileStores.builder(JsonlEventStorageEngine.open(Path.of(store), fsync)).engineId(engineId);
            config.ifPresent(builder::config);
            withKvEvents(builder);
            return builder.build();
        } catch (EventStoreException | ConfigMismatchException | IllegalArgumentException e) {
            throw new UnusableStoreException(e);
        }
    }

    private void withKvEvents(KvLedger.Builder builder) {
        if (publisher != null) {
            builder.listener(publisher);
        }
    }

    private Writer openOutput() throws IOException {
        if (output == null) {
            return new BufferedWriter(new OutputStreamWriter(Cli.stdout(), StandardCharsets.UTF_8)) {
                @Override
                public void close() throws IOException {
                    flush(); // stdout stays open for whoever runs us
                }
            };
        }
        return Files.newBufferedWriter(output, StandardCharsets.UTF_8);
    }

    static final class FsyncConverter implements ITypeConverter<FsyncPolicy> {
        @Override
        public FsyncPolicy convert(String value) {
            return FsyncPolicy.parse(value);
        }
    }
}

package io.kvledger.infrastructure.cli;

import io.kvledger.application.ConfigMismatchException;
import io.kvledger.application.EngineConflictException;
import io.kvledger.application.KvLedger;
import io.kvledger.application.LedgerStore;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.simulation.host.ScenarioRunner;
import io.kvledger.infrastructure.kvevents.ZmqKvEventPublisher;
import io.kvledger.infrastructure.log.EventLogWriter;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.scenario.MalformedLineException;
import io.kvledger.infrastructure.scenario.UnknownField;
import io.kvledger.infrastructure.serve.KvEventsOptions;
import io.kvledger.infrastructure.store.FileStores;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.JsonlEventStorageEngine;
import io.kvledger.infrastructure.store.StoreLocation;
import io.kvledger.infrastructure.store.StoreCorruptedException;
import io.kvledger.application.spi.OpenStore;
import java.util.stream.Stream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.axonframework.eventsourcing.eventstore.EventStoreException;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Executes a scenario's commands and writes the event log (contract section 5).",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the scenario ran to its end (rejected commands included)",
                "2:a malformed line (named on stderr; the events before it are kept), a missing or unreadable file,"
                        + " an output that cannot be written (an existing -o file is then left as it was), or a store"
                        + " that cannot be used (corrupt, locked by another process, stored with another config, or"
                        + " full)"})
final class RunCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "SCENARIO", description = "JSON Lines scenario: an optional config line, then commands.")
    Path scenario;

    @Option(names = {"-o", "--output"}, paramLabel = "EVENTS", description = {
            "Write the event log here instead of stdout (missing directories are created). It is written to a"
                    + " temporary file beside it, renamed over it at the end: a refused or failed run leaves the"
                    + " file as it was."})
    Path output;

    @Option(names = "--store", paramLabel = "FILE|DIR/|URL", description = {
            "Also keep the events in this store file (created with its missing directories): a JSON Lines event"
                    + " log whose lines carry an envelope, readable by every tool. On a store that already holds"
                    + " events the run continues them: seq goes on and earlier requests are known; a config line"
                    + " must equal the stored config (without one the stored config is used). The output is then"
                    + " the whole log, the stored events followed by this run's, so it audits as a whole.",
            "A torn end left by a killed run is cut and reported on stderr.",
            "A path ending with / (or file:DIR/, or file:DIR/?segmentBytes=N...) is a store directory of segments;"
                    + " a path naming an existing directory without its / is refused.",
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

    @Option(names = "--progress", description = "Report progress on stderr even when it is not a terminal.")
    boolean progress;

    @Mixin
    KvEventsOptions kvEvents;

    private ZmqKvEventPublisher publisher;
    // The store the ledger runs on, read back through the same descriptor (re-opening the file and
    // closing it would drop the process's lock on it; issue 23): one of the two, or neither.
    private JsonlEventStorageEngine storeFile;
    private OpenStore storeLocation;

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (engineId.isEmpty()) {
            return Cli.fail("--engine must not be empty: it names the engine's events in the store");
        }
        CountingInputStream in;
        try {
            in = new CountingInputStream(Inputs.open(scenario));
        } catch (InputFailure e) {
            return Cli.fail(e.getMessage());
        }
        Progress shown = Progress.of(progress, Cli.stderr(), "run", Inputs.size(scenario));
        Hooks hooks = new Hooks(in, shown);
        ScenarioRunner runner = new ScenarioRunner(this::ledger, hooks);
        try (in; ZmqKvEventPublisher kv = kvEvents.open(); Output out = Output.to(output); Writer writer = out.writer()) {
            publisher = kv;
            kvEvents.awaitSubscriber(kv, Cli.stderr());
            try {
                runner.run(in, new EventLogWriter(writer));
            } catch (MalformedLineException e) {
                writer.flush();
                out.commit(); // the events before the malformed line are kept (contract section 4)
                hooks.finish();
                return Cli.fail(scenario + ": " + e.getMessage());
            }
            writer.flush();
            out.commit();
            hooks.finish();
            kvEvents.linger(kv);
            return 0;
        } catch (IllegalStateException e) {
            if (publisher == null && kvEvents.requested()) {
                return Cli.fail("--kv-events: " + e.getMessage());
            }
            throw e;
        } catch (UnusableStoreException e) {
            return Cli.fail(storeMessage(e.getMessage()));
        } catch (EngineConflictException e) {
            return Cli.fail("store " + store + ": " + e.getMessage());
        }
    }

    /** "store S: " and the store's own message, which often begins with the path already: said once. */
    private String storeMessage(String message) {
        String said = message == null ? "cannot be used" : message;
        if (said.startsWith(store + ": ")) {
            said = said.substring(store.length() + 2);
        } else if (said.startsWith(store + " ")) {
            said = said.substring(store.length() + 1);
        }
        return "store " + store + ": " + said;
    }

    /** The store cannot be opened, resumed or appended to: exit 2, unlike an internal failure. */
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
            KvLedger.Builder builder;
            StoreLocation location = StoreLocation.parse(store); // the one reading of a location, as serve's
            if (!location.isPlainFile()) {
                OpenStore open = location.open(fsync);
                storeLocation = open;
                builder = KvLedger.builder().store(LedgerStore.opened(store, () -> open)).engineId(engineId);
            } else {
                JsonlEventStorageEngine engine = JsonlEventStorageEngine.open(location.path(), fsync);
                storeFile = engine;
                if (engine.snapshotRejected() != null) {
                    Cli.say("store " + store + ": " + engine.snapshotRejected() + "; opening from the events instead");
                }
                if (engine.uncheckedSteps() != null) {
                    Cli.say("store " + store + ": " + engine.uncheckedSteps());
                }
                if (engine.recoveryReport().recovered()) {
                    Cli.say("store " + store + ": recovered from a torn end: " + engine.recoveryReport());
                }
                builder = FileStores.builder(engine).engineId(engineId);
            }
            config.ifPresent(builder::config);
            withKvEvents(builder);
            return builder.build();
        } catch (EventStoreException | ConfigMismatchException | IllegalArgumentException e) {
            throw new UnusableStoreException(e);
        }
    }

    /** A resumed store's events come first in the output; progress follows the scenario's bytes. */
    private final class Hooks implements ScenarioRunner.Hooks {
        private final CountingInputStream in;
        private final Progress progress;
        private EventLogWriter log;

        Hooks(CountingInputStream in, Progress progress) {
            this.in = in;
            this.progress = progress;
        }

        /** A warning, not a failure: the contract ignores unknown fields, so the output does not change. */
        @Override
        public void unknownField(UnknownField field) {
            Cli.say(scenario + ": " + field.message());
        }

        @Override
        public void opened(KvLedger ledger, EventLogWriter log) {
            this.log = log;
            if (!ledger.resumed()) {
                log.write(ledger.configured());
                return;
            }
            if (storeLocation != null) {
                StoreLocations.readEvents(storeLocation, engineId, log::write);
                return;
            }
            try (Stream<LogEntry> stored = storeFile.storedEntries()) {
                stored.forEach(entry -> {
                    if (entry.event() != null) {
                        log.write(entry.event());
                    } else {
                        log.writeLine(entry.raw()); // a type this version does not know is kept as it was
                    }
                });
            } catch (StoreCorruptedException e) {
                throw new IllegalStateException("store " + store + " opened but cannot be read back: " + e.getMessage(), e);
            }
        }

        @Override
        public void stepped(EventLogWriter log) {
            if (progress != null) {
                progress.update(log.lastSeq(), in.count(), log.lastSeq());
            }
        }

        void finish() {
            if (progress != null) {
                progress.finish(log == null ? 0 : log.lastSeq(), in.count(), log == null ? 0 : log.lastSeq());
            }
        }
    }

    private void withKvEvents(KvLedger.Builder builder) {
        if (publisher != null) {
            builder.listener(publisher);
        }
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

package io.kvledger.infrastructure.cli;

import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.log.EventLogWriter;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.log.MalformedLogException;
import io.kvledger.infrastructure.store.StoreLog;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.StoreLocation;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import org.axonframework.eventsourcing.eventstore.EventStoreException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "export", mixinStandardHelpOptions = true,
        description = {"Writes one engine's stored events as an event log (contract section 3), for replay, audit,"
                + " explain and shrink.",
                "A store file or directory is only read (never locked, tidied or appended to, so a read-only one"
                        + " exports too), as the log tools read it: its steps checked, a torn step at its end left"
                        + " out with a word on stderr."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the log was written", "2:the store cannot be read (damaged, empty, or its first segments"
                + " dropped), or holds no events of the engine"})
final class ExportCommand implements Callable<Integer> {

    @Option(names = "--store", required = true, paramLabel = "FILE|DIR/|URL",
            description = "A store file, a store directory (DIR/ or file:DIR/), or a database URL such as"
                    + " jdbc:postgresql://HOST:PORT/DB?user=U.")
    String store;

    @Option(names = "--engine", paramLabel = "ID", defaultValue = "engine",
            description = "The engine whose events to write. Default: ${DEFAULT-VALUE}.")
    String engineId;

    @Option(names = {"-o", "--output"}, paramLabel = "LOG", description = "Write the log here instead of stdout.")
    Path output;

    @Override
    public Integer call() throws IOException {
        if (engineId.isEmpty()) {
            return Cli.fail("--engine must not be empty: it names the engine's events in the store");
        }
        // Through the commands' one output path: checked writes, and a file replaced only when complete.
        try (Output out = Output.to(output); Writer writer = out.writer()) {
            EventLogWriter log = new EventLogWriter(writer);
            if (read(log) == 0) {
                throw new IllegalArgumentException("the store holds no events of engine " + engineId);
            }
            log.flush();
            writer.flush();
            out.commit();
        } catch (EventStoreException | IllegalArgumentException e) {
            return Cli.fail("store " + store + ": " + e.getMessage());
        }
        return 0;
    }

    private long read(EventLogWriter log) {
        StoreLocation location = StoreLocation.parseForReading(store); // the one reading of a location
        if (location.path() == null) {
            return StoreLocations.readEvents(location.opening(FsyncPolicy.NEVER), engineId, log::write);
        }
        return readFileStore(location.path(), log);
    }

    /**
     * A store file or directory read as the log tools read it ({@link StoreLog}), never opened for appending:
     * no lock taken, nothing tidied, so a store on a read-only file system, or one a ledger is writing,
     * exports; the lines of engine {@code engineId}'s messages (an envelope names the engine of its step).
     */
    private long readFileStore(Path path, EventLogWriter log) {
        if (!Files.exists(path)) {
            throw new IllegalArgumentException("no such file or directory");
        }
        if (Files.isRegularFile(path) && path.toFile().length() == 0) {
            throw new IllegalArgumentException("the store is empty, so there is no event log to write: "
                    + LogInput.EMPTY_STORE);
        }
        long count = 0;
        try (StoreLog stored = StoreLog.open(path, UnaryOperator.identity())) {
            if (stored.base() != null) {
                throw new IllegalArgumentException("its first segment kept begins after seq " + stored.seqBefore()
                        + " (retention dropped the ones before): an event log begins with the engine's first event;"
                        + " replay, audit and explain read the directory itself, from that segment's base");
            }
            String engine = null;
            var reader = stored.reader();
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                if (entry.envelope() != null) {
                    engine = entry.envelope().aggregateId(); // the first line of a step names its engine
                }
                if (engineId.equals(engine)) {
                    EngineEvent event = entry.event();
                    if (event != null) {
                        log.write(event);
                    } else {
                        log.writeLine(entry.raw()); // a type this version does not fold, kept as it was
                    }
                    count++;
                }
            }
            stored.tornStep().ifPresent(torn -> Cli.say(path + ": " + torn.describe()));
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(Files.isDirectory(path)
                    ? "a directory without store segments (segment-<seq>.jsonl[.gz])" : "no such file or directory");
        } catch (MalformedLogException e) {
            throw new IllegalArgumentException(e.getMessage());
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read it: " + OutputFailure.reason(e), e);
        }
        return count;
    }
}

package io.kvledger.infrastructure.cli;

import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.log.EventLogWriter;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.StoreLocation;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.axonframework.eventsourcing.eventstore.EventStoreException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "export", mixinStandardHelpOptions = true,
        description = "Writes one engine's stored events as an event log (contract section 3), for replay, audit,"
                + " explain and shrink.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the log was written", "2:the store cannot be opened, or holds no events of the engine"})
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
        // Through the commands' one output path: checked writes, and a file replaced only when complete.
        try (Output out = Output.to(output); Writer writer = out.writer()) {
            EventLogWriter log = new EventLogWriter(writer);
            if (read(log::write) == 0) {
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

    private long read(Consumer<EngineEvent> each) {
        StoreLocation location = StoreLocation.parseForReading(store); // the one reading of a location
        if (location.path() != null && !Files.exists(location.path())) {
            // opening it would create a store: export reads one
            throw new IllegalArgumentException(location.kind() == StoreLocation.Kind.DIRECTORY ? "no such directory" : "no such file");
        }
        return StoreLocations.readEvents(location.opening(FsyncPolicy.NEVER), engineId, each);
    }
}

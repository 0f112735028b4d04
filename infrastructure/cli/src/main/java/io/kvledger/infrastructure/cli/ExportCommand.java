package io.kvledger.infrastructure.cli;

import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.log.EventLogWriter;
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

    @Option(names = "--store", required = true, paramLabel = "FILE|URL",
            description = "A store file, or a database URL such as jdbc:postgresql://HOST:PORT/DB?user=U.")
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
        if (!StoreLocations.isLocation(store) && !Files.exists(Path.of(store))) {
            throw new IllegalArgumentException("no such file");
        }
        return StoreLocations.readEvents(StoreLocations.isLocation(store) ? store : "file:" + store + "?fsync=never", engineId, each);
    }
}

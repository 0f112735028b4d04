package io.kvledger.infrastructure.cli;

import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.log.EventLogWriter;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
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
        Path partial = output == null ? null : output.resolveSibling(output.getFileName() + ".partial");
        try (Writer out = output == null ? stdout() : Files.newBufferedWriter(partial, StandardCharsets.UTF_8)) {
            EventLogWriter log = new EventLogWriter(out);
            long count = read(log::write);
            if (count == 0) {
                throw new IllegalArgumentException("the store holds no events of engine " + engineId);
            }
            log.flush();
        } catch (EventStoreException | IllegalArgumentException e) {
            if (partial != null) {
                Files.deleteIfExists(partial);
            }
            return Cli.fail("store " + store + ": " + e.getMessage());
        }
        if (output != null) {
            Files.move(partial, output, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        return 0;
    }

    private long read(Consumer<EngineEvent> each) {
        if (!StoreLocations.isLocation(store) && !Files.exists(Path.of(store))) {
            throw new IllegalArgumentException("no such file");
        }
        return StoreLocations.readEvents(StoreLocations.isLocation(store) ? store : "file:" + store + "?fsync=never", engineId, each);
    }

    private static Writer stdout() {
        return new BufferedWriter(new OutputStreamWriter(Cli.stdout(), StandardCharsets.UTF_8)) {
            @Override
            public void close() throws IOException {
                flush();
            }
        };
    }
}

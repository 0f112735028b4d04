package io.kvledger.infrastructure.store;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.log.MalformedLogException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.axonframework.eventsourcing.eventstore.EventStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reads a closed segment of a store directory ({@link SegmentedEventStorageEngine}) line by line. */
final class ClosedSegmentLines {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentedEventStorageEngine.class);

    private ClosedSegmentLines() {
    }

    /**
     * A closed segment's lines, decompressed when it is compressed, read as lines of a log of {@code config}
     * (a segment but the first begins after its base, so its lines' shapes come from the config it continues).
     */
    static Stream<LogEntry> of(SegmentFiles.Segment segment, EngineConfig config) {
        InputStream in;
        try {
            in = SegmentFiles.openDecompressed(segment.file(), UnaryOperator.identity());
        } catch (IOException e) {
            throw new EventStoreException("cannot read the segment " + segment.file() + ": " + e.getMessage(), e);
        }
        EventLogReader reader = EventLogReader.continuing(in, segment.firstSeq() - 1, segment.firstSeq() - 1, config)
                .checking(new StepChecksums(true));
        Spliterator<LogEntry> lines = new Spliterators.AbstractSpliterator<>(Long.MAX_VALUE,
                Spliterator.ORDERED | Spliterator.NONNULL) {
            @Override
            public boolean tryAdvance(Consumer<? super LogEntry> action) {
                try {
                    LogEntry entry = reader.next();
                    if (entry == null) {
                        return false;
                    }
                    action.accept(entry);
                    return true;
                } catch (MalformedLogException e) {
                    throw StoreCorruptedException.of(segment.file(), e, "");
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
        return StreamSupport.stream(lines, false).onClose(() -> {
            try {
                in.close();
            } catch (IOException e) {
                LOG.debug("closing {}: {}", segment.file(), e.toString());
            }
        });
    }
}

package io.kvledger.infrastructure.store;

import io.kvledger.infrastructure.log.LogEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;

/** Regroups a store's lines into the Axon messages they were written from: a new message at each {@link StoreLines#startsMessage}. */
final class StoreMessages {

    private StoreMessages() {
    }

    /** The messages of {@code aggregateIdentifier} among {@code lines} (other aggregates' lines are skipped), as Axon loads them. */
    static Stream<DomainEventMessage<?>> ofAggregate(Stream<LogEntry> lines, String aggregateIdentifier) {
        return of(lines)
                .filter(group -> aggregateIdentifier.equals(group.get(0).envelope().aggregateId()))
                .map(StoreLines::domainMessage);
    }

    /** The messages among {@code lines} that end after line {@code after}, as a tracking processor reads them. */
    static Stream<TrackedEventMessage<?>> trackedAfter(Stream<LogEntry> lines, long after) {
        return of(lines)
                .filter(group -> group.get(group.size() - 1).seq() > after)
                .map(StoreLines::trackedMessage);
    }

    static Stream<List<LogEntry>> of(Stream<LogEntry> lines) {
        Spliterator<LogEntry> source = lines.spliterator();
        Spliterator<List<LogEntry>> groups = new Spliterators.AbstractSpliterator<>(Long.MAX_VALUE,
                Spliterator.ORDERED | Spliterator.NONNULL) {
            private LogEntry lookahead;
            private boolean ended;

            @Override
            public boolean tryAdvance(Consumer<? super List<LogEntry>> action) {
                if (lookahead == null && !ended && !source.tryAdvance(line -> lookahead = line)) {
                    ended = true;
                }
                if (lookahead == null) {
                    return false;
                }
                List<LogEntry> group = new ArrayList<>();
                group.add(lookahead);
                lookahead = null;
                while (!ended && lookahead == null) {
                    if (!source.tryAdvance(line -> {
                        if (!StoreLines.startsMessage(line)) {
                            group.add(line);
                        } else {
                            lookahead = line;
                        }
                    })) {
                        ended = true;
                    }
                }
                action.accept(group);
                return true;
            }
        };
        return StreamSupport.stream(groups, false).onClose(lines::close);
    }
}

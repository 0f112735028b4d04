package io.kvledger.infrastructure.store;

import io.kvledger.domain.event.EngineEvent;
import java.util.List;
import org.axonframework.eventhandling.DomainEventMessage;

/**
 * A checked append laid out as a store's lines ({@link StoreLines}): one line per domain event, a
 * step's message spanning as many lines as it has events, encoded into the store's encoder, with what
 * the index needs of each line once the bytes are written.
 */
final class EncodedAppend {

    private final long[] offsets;
    private final String[] aggregateIds;
    private final boolean[] starts;

    private EncodedAppend(int lines) {
        this.offsets = new long[lines];
        this.aggregateIds = new String[lines];
        this.starts = new boolean[lines];
    }

    /** Encodes {@code append} into {@code encoder} (reset first), its lines after seq {@code lastSeq} from offset {@code end}. */
    static EncodedAppend encode(StoreLineEncoder encoder, AppendChecks.Append append, long lastSeq, long end) {
        int lines = append.lines();
        EncodedAppend encoded = new EncodedAppend(lines);
        encoder.reset();
        long seq = lastSeq;
        int line = 0;
        for (int m = 0; m < append.messages().size(); m++) {
            DomainEventMessage<?> message = append.messages().get(m);
            List<EngineEvent> events = append.contents().get(m);
            StoreLines.MessageEnvelope envelope = StoreLines.MessageEnvelope.of(message);
            for (int part = 0; part < events.size(); part++, line++) {
                encoded.offsets[line] = end + encoder.position();
                encoded.aggregateIds[line] = message.getAggregateIdentifier();
                encoded.starts[line] = part == 0;
                StoreLines.encode(encoder, ++seq, envelope, events.get(part), part, lines - 1 - line, line == 0);
            }
        }
        return encoded;
    }

    /** Adds the lines, once written, to {@code index}. */
    void indexInto(StoreIndex index) {
        for (int i = 0; i < offsets.length; i++) {
            index.add(offsets[i], aggregateIds[i], starts[i]);
        }
    }
}

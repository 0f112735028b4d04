package io.kvledger.infrastructure.store;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Where each event of a store file is: the byte offset of each line (by seq) and, for each aggregate,
 * the seq of the first line of each of its Axon messages (by aggregate sequence number, which has no
 * gaps; a step's message spans one line per domain event). At most 16 bytes a line; loads and
 * tracking reads go straight to their first line instead of scanning the file. Not thread-safe: the
 * store guards it.
 */
final class StoreIndex {

    private final LongList offsets = new LongList();
    private final Map<String, LongList> aggregates = new HashMap<>();

    /**
     * Records the next line, seq {@link #lastSeq()} + 1: the first line of its aggregate's next message
     * when {@code startsMessage}, else one more line of the message before it.
     */
    void add(long offset, String aggregateId, boolean startsMessage) {
        offsets.add(offset);
        if (startsMessage) {
            aggregates.computeIfAbsent(aggregateId, id -> new LongList()).add(offsets.size());
        }
    }

    /** The seq of the last line; 0 when the store is empty. */
    long lastSeq() {
        return offsets.size();
    }

    /** The byte offset of line {@code seq}, from 1 to {@link #lastSeq()}. */
    long offsetOf(long seq) {
        return offsets.get(seq - 1);
    }

    /** The sequence number the aggregate's next message must have: 0 for an aggregate with none. */
    long nextSequence(String aggregateId) {
        LongList seqs = aggregates.get(aggregateId);
        return seqs == null ? 0 : seqs.size();
    }

    /** The seq of the first line of the aggregate's message with the given sequence number, if it has one. */
    OptionalLong seqOf(String aggregateId, long sequenceNumber) {
        LongList seqs = aggregates.get(aggregateId);
        if (seqs == null || sequenceNumber < 0 || sequenceNumber >= seqs.size()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(seqs.get(sequenceNumber));
    }

    /** A growable array of longs, so that a million events are 8 MB rather than a million boxed Longs. */
    private static final class LongList {
        private long[] values = new long[16];
        private int size;

        void add(long value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }

        long get(long index) {
            return values[Math.toIntExact(index)];
        }

        int size() {
            return size;
        }
    }
}

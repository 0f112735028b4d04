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
 *
 * <p>An index opened from a snapshot starts after the snapshot's last line ({@link #baseSeq()}): the
 * lines before it are not indexed, and the aggregate of the snapshot starts at the snapshot's next
 * sequence number; reads of what lies before are the store's to make from the file's start.
 */
final class StoreIndex {

    private long baseSeq;
    private Map<String, Long> baseNext;
    private LongList offsets = new LongList();
    private final Map<String, LongList> aggregates = new HashMap<>();

    /** An index of a whole file. */
    StoreIndex() {
        this(0, Map.of());
    }

    /** An index of the lines after {@code baseSeq}, with the aggregates' next sequence numbers there. */
    StoreIndex(long baseSeq, Map<String, Long> baseNext) {
        this.baseSeq = baseSeq;
        this.baseNext = Map.copyOf(baseNext);
    }

    /**
     * Forgets the lines up to {@code seq}, which end a message of the index's only aggregate (a
     * snapshot was taken after it), so that the index holds only the lines after the latest snapshot
     * however long the store runs. Does nothing when the index holds several aggregates.
     */
    void rebase(long seq) {
        if (seq <= baseSeq || seq > lastSeq() || aggregates.size() != 1) {
            return;
        }
        Map.Entry<String, LongList> only = aggregates.entrySet().iterator().next();
        LongList starts = only.getValue();
        int kept = 0;
        while (kept < starts.size() && starts.get(starts.size() - 1 - kept) > seq) {
            kept++;
        }
        long nextAtSeq = nextSequence(only.getKey()) - kept;
        LongList keptStarts = new LongList();
        for (int i = starts.size() - kept; i < starts.size(); i++) {
            keptStarts.add(starts.get(i));
        }
        LongList keptOffsets = new LongList();
        for (long line = seq + 1; line <= lastSeq(); line++) {
            keptOffsets.add(offsetOf(line));
        }
        offsets = keptOffsets;
        aggregates.put(only.getKey(), keptStarts);
        baseNext = Map.of(only.getKey(), nextAtSeq);
        baseSeq = seq;
    }

    /** The seq of the last line not indexed (0 for an index of the whole file). */
    long baseSeq() {
        return baseSeq;
    }

    /** The first sequence number of the aggregate that is indexed. */
    long baseSequence(String aggregateId) {
        return baseNext.getOrDefault(aggregateId, 0L);
    }

    /**
     * Records the next line, seq {@link #lastSeq()} + 1: the first line of its aggregate's next message
     * when {@code startsMessage}, else one more line of the message before it.
     */
    void add(long offset, String aggregateId, boolean startsMessage) {
        offsets.add(offset);
        if (startsMessage) {
            aggregates.computeIfAbsent(aggregateId, id -> new LongList()).add(lastSeq());
        }
    }

    /** The seq of the last line; 0 when the store is empty. */
    long lastSeq() {
        return baseSeq + offsets.size();
    }

    /** The byte offset of line {@code seq}, from {@link #baseSeq()} + 1 to {@link #lastSeq()}. */
    long offsetOf(long seq) {
        return offsets.get(seq - 1 - baseSeq);
    }

    /** The sequence number the aggregate's next message must have: 0 for an aggregate with none. */
    long nextSequence(String aggregateId) {
        LongList seqs = aggregates.get(aggregateId);
        return baseSequence(aggregateId) + (seqs == null ? 0 : seqs.size());
    }

    /**
     * The seq of the first line of the aggregate's message with the given sequence number, if it has
     * one and it is indexed (at or after {@link #baseSequence}).
     */
    OptionalLong seqOf(String aggregateId, long sequenceNumber) {
        LongList seqs = aggregates.get(aggregateId);
        long index = sequenceNumber - baseSequence(aggregateId);
        if (seqs == null || index < 0 || index >= seqs.size()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(seqs.get(index));
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

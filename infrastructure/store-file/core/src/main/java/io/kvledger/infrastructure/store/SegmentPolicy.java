package io.kvledger.infrastructure.store;

import java.time.Duration;

/**
 * How a store directory rolls, compresses and keeps its segments.
 *
 * @param segmentBytes  a segment rolls after the step that takes it to at least this many bytes
 * @param segmentAge    a segment with events rolls after the step that finds it this old (since this
 *                      process began or opened it); {@code null} for no age limit
 * @param compress      whether closed segments are gzip-compressed (in the background)
 * @param retainBytes   the newest segments are kept within this many bytes (files and sidecars), the
 *                      current one always; 0 keeps everything
 * @param retainAge     closed segments last written longer ago than this are dropped; {@code null} keeps them
 * @param snapshotEvery events between two snapshots within a segment (0 for none)
 */
public record SegmentPolicy(long segmentBytes, Duration segmentAge, boolean compress, long retainBytes,
        Duration retainAge, long snapshotEvery) {

    /** 64 MB segments, compressed, all kept, snapshots every 25,000 events. */
    public static final SegmentPolicy DEFAULTS = new SegmentPolicy(64L << 20, null, true, 0, null,
            JsonlEventStorageEngine.DEFAULT_SNAPSHOT_EVERY);

    public SegmentPolicy {
        if (segmentBytes <= 0) {
            throw new IllegalArgumentException("segmentBytes must be > 0, was " + segmentBytes);
        }
        if (retainBytes < 0) {
            throw new IllegalArgumentException("retainBytes must be >= 0, was " + retainBytes);
        }
        if (snapshotEvery < 0) {
            throw new IllegalArgumentException("snapshotEvery must be >= 0, was " + snapshotEvery);
        }
    }

    public SegmentPolicy withSegmentBytes(long bytes) {
        return new SegmentPolicy(bytes, segmentAge, compress, retainBytes, retainAge, snapshotEvery);
    }

    public SegmentPolicy withSegmentAge(Duration age) {
        return new SegmentPolicy(segmentBytes, age, compress, retainBytes, retainAge, snapshotEvery);
    }

    public SegmentPolicy withCompress(boolean on) {
        return new SegmentPolicy(segmentBytes, segmentAge, on, retainBytes, retainAge, snapshotEvery);
    }

    public SegmentPolicy withRetainBytes(long bytes) {
        return new SegmentPolicy(segmentBytes, segmentAge, compress, bytes, retainAge, snapshotEvery);
    }

    public SegmentPolicy withRetainAge(Duration age) {
        return new SegmentPolicy(segmentBytes, segmentAge, compress, retainBytes, age, snapshotEvery);
    }

    public SegmentPolicy withSnapshotEvery(long events) {
        return new SegmentPolicy(segmentBytes, segmentAge, compress, retainBytes, retainAge, events);
    }
}

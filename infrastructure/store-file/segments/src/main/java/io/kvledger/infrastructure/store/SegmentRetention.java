package io.kvledger.infrastructure.store;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retention of a store directory, like a flight recorder: the newest segments are kept within the
 * byte budget (the current segment always), closed segments last written before the age limit are
 * dropped, oldest first, and one log line says what went. The first segment kept begins with its base,
 * so it is still replayed and audited on its own.
 */
final class SegmentRetention {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentRetention.class);

    private SegmentRetention() {
    }

    /** On the store's background thread (the only one that removes segments). */
    static void apply(SegmentedEventStorageEngine store, SegmentPolicy policy) {
        if (policy.retainBytes() == 0 && policy.retainAge() == null) {
            return;
        }
        List<SegmentFiles.Segment> closed = store.snapshotOfClosed();
        long total = store.currentBytes();
        for (SegmentFiles.Segment segment : closed) {
            total += segment.bytes();
        }
        Instant oldest = policy.retainAge() == null ? null : Instant.now().minus(policy.retainAge());
        List<SegmentFiles.Segment> dropped = new ArrayList<>();
        long droppedBytes = 0;
        for (SegmentFiles.Segment segment : closed) {
            boolean overBudget = policy.retainBytes() > 0 && total > policy.retainBytes();
            if (!overBudget && !(oldest != null && lastWritten(segment).isBefore(oldest))) {
                break;
            }
            long bytes = segment.bytes();
            try {
                store.forget(segment);
                SegmentFiles.delete(segment);
            } catch (IOException e) {
                LOG.warn("kvledger: store {}: cannot remove {}: {}", store.directory(), segment.file(), e.toString());
                break;
            }
            dropped.add(segment);
            droppedBytes += bytes;
            total -= bytes;
        }
        if (!dropped.isEmpty()) {
            long lastDropped = store.snapshotOfClosed().stream().mapToLong(SegmentFiles.Segment::firstSeq).min()
                    .orElse(store.currentFirstSeq()) - 1;
            LOG.warn("kvledger: store {}: retention dropped {} segment(s), seq {} to {} ({} bytes); {} bytes kept{}{}",
                    store.directory(), dropped.size(), dropped.get(0).firstSeq(), lastDropped, droppedBytes, total,
                    policy.retainBytes() > 0 ? " within " + policy.retainBytes() : "",
                    policy.retainAge() == null ? "" : ", none older than " + format(policy.retainAge()));
        }
    }

    private static Instant lastWritten(SegmentFiles.Segment segment) {
        try {
            return Files.getLastModifiedTime(segment.file()).toInstant();
        } catch (IOException e) {
            return Instant.now();
        }
    }

    private static String format(Duration age) {
        return age.toString().substring(2).toLowerCase();
    }
}

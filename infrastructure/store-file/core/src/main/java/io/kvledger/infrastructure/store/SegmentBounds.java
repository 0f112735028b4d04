package io.kvledger.infrastructure.store;

import io.kvledger.domain.config.EngineConfig;
import java.io.IOException;

/**
 * Where a store file stands as a segment of a store directory ({@code SegmentedEventStorageEngine} (kvledger-store-segments)):
 * the line and message it begins after (its base) and where its end stands, which the directory reads
 * to decide a roll and to write the next segment's base. Apart from {@link JsonlEventStorageEngine} so
 * that what a directory needs of its segments changes on its own; a single-file store begins after
 * nothing. What it reads of the appends and the index is guarded by the store's lock.
 */
final class SegmentBounds {

    private final Object lock; // the store's
    private final StoreFile storeFile;
    private final StoreIndex index;
    private final QueuedAppends appends;
    // The seq before the file's first line: 0, or a segment's base seq (its first line is baseSeq + 1).
    private final long fileBaseSeq;
    private final long fileBaseSequenceNumber;

    SegmentBounds(Object lock, StoreFile storeFile, StoreIndex index, QueuedAppends appends, SnapshotFile.Snapshot base) {
        this.lock = lock;
        this.storeFile = storeFile;
        this.index = index;
        this.appends = appends;
        this.fileBaseSeq = base == null ? 0 : base.seq();
        this.fileBaseSequenceNumber = base == null ? -1 : base.sequenceNumber();
    }

    /** The seq before this file's first line: 0, or the base seq of a segment. */
    long fileBaseSeq() {
        return fileBaseSeq;
    }

    /** The aggregate sequence number of the last message before this file (-1 when it has no base). */
    long fileBaseSequenceNumber() {
        return fileBaseSequenceNumber;
    }

    /** The config of the log the segments continue: what a closed segment's lines are read with. */
    EngineConfig logConfig() {
        return storeFile.config();
    }

    /** The bytes of whole appends in the file. */
    long endOffset() {
        synchronized (lock) {
            return appends.end();
        }
    }

    /**
     * The bytes of whole appends once those queued are written too: exact when none is queued, else
     * estimated from the bytes per line written so far (a segment rolls on it without waiting for the writer).
     */
    long takenBytes() {
        synchronized (lock) {
            long end = appends.end();
            long queuedLines = appends.lastSeq() - index.lastSeq();
            if (queuedLines == 0) {
                return end;
            }
            long writtenLines = index.lastSeq() - fileBaseSeq;
            long perLine = writtenLines > 0 && end > 0 ? Math.max(1, end / writtenLines) : 128;
            return end + queuedLines * perLine;
        }
    }

    /** Where the state after the last append stands (for a segment's roll); {@code null} when nothing is stored. */
    StoreSnapshots.Point lastPoint() {
        synchronized (lock) {
            String lastAggregate = appends.lastAggregate();
            if (lastAggregate == null || index.lastSeq() == 0) {
                return null;
            }
            return new StoreSnapshots.Point(lastAggregate, index.nextSequence(lastAggregate) - 1, index.lastSeq(), appends.end());
        }
    }

    /** The file's last line (newline excluded), which a roll's next segment records the CRC of. */
    byte[] lastLine() throws IOException {
        synchronized (lock) {
            return SnapshotFile.lineEndingAt(storeFile.channel(), appends.end());
        }
    }
}

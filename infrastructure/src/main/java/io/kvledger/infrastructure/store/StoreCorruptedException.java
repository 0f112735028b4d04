package io.kvledger.infrastructure.store;

import java.nio.file.Path;
import org.axonframework.eventsourcing.eventstore.EventStoreException;

/**
 * A store file that cannot be trusted: a bad line that is not a torn end of the file. The store does
 * not open it, rather than cut or skip events already written; the message names the file and line.
 */
public final class StoreCorruptedException extends EventStoreException {

    private final long line;

    public StoreCorruptedException(Path file, long line, String reason) {
        super(file + (line > 0 ? ": line " + line : "") + ": " + reason);
        this.line = line;
    }

    /** The physical line, from 1; 0 when the problem is not one line's. */
    public long line() {
        return line;
    }
}

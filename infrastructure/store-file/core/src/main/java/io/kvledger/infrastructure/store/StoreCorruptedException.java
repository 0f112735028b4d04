package io.kvledger.infrastructure.store;

import io.kvledger.infrastructure.log.MalformedLogException;
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

    /** The reader's complaint about a line of {@code file}, its reason after {@code context}. */
    static StoreCorruptedException of(Path file, MalformedLogException e, String context) {
        String prefix = "line " + e.line() + ": ";
        String reason = e.getMessage().startsWith(prefix) ? e.getMessage().substring(prefix.length()) : e.getMessage();
        return new StoreCorruptedException(file, e.line(), context + reason);
    }

    /** The physical line, from 1; 0 when the problem is not one line's. */
    public long line() {
        return line;
    }
}

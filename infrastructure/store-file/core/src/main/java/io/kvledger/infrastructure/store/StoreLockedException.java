package io.kvledger.infrastructure.store;

import java.nio.file.Path;
import org.axonframework.eventsourcing.eventstore.EventStoreException;

/** Another process (or another store in this one) has the file open for appending. */
public final class StoreLockedException extends EventStoreException {

    public StoreLockedException(Path file) {
        super(file + " is locked: another process or store has it open for appending");
    }
}

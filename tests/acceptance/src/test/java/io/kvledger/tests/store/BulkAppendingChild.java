package io.kvledger.tests.store;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.JsonlEventStorageEngine;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;

/**
 * The process {@link KillDuringBulkAppendTest} kills: it appends big batches straight to the file
 * store (no engine deciding in between), so that much of its time is spent inside the write a SIGKILL
 * can cut. After each append is written (the store flushed) it prints {@code ack SEQ} and flushes.
 *
 * <p>Arguments: the store file and the fsync policy.
 */
public final class BulkAppendingChild {

    static final int BATCH = 64;
    /** Long ids: cheap to encode for their size, so the write is a good share of an append's time. */
    static final int ID_LENGTH = 32 * 1024;

    private BulkAppendingChild() {
    }

    public static void main(String[] args) {
        PrintStream out = System.out;
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(Path.of(args[0]), FsyncPolicy.parse(args[1]))) {
            // Under never an append returns before it is written: a flush waits for the write, so that the
            // next append's write is what the parent's kill aims at.
            store.appendEvents(message(0, event(0)));
            store.flush();
            out.println("ack " + store.writtenSeq());
            for (long next = 1; !Thread.currentThread().isInterrupted(); next += BATCH) {
                List<DomainEventMessage<?>> batch = new ArrayList<>(BATCH);
                for (long n = next; n < next + BATCH; n++) {
                    batch.add(message(n, event(n)));
                }
                store.appendEvents(batch);
                store.flush();
                out.println("ack " + store.writtenSeq());
                out.flush();
            }
        }
    }

    /** The event at aggregate sequence number {@code n}, the same in every process. */
    static EngineEvent event(long n) {
        if (n == 0) {
            return EngineConfigured.of(EngineConfig.DEFAULTS);
        }
        String id = n + "-" + String.valueOf((char) ('a' + n % 26)).repeat(ID_LENGTH);
        return new RequestAborted(id);
    }

    private static DomainEventMessage<?> message(long n, EngineEvent event) {
        return new GenericDomainEventMessage<>("EngineAggregate", "engine", n, event);
    }
}

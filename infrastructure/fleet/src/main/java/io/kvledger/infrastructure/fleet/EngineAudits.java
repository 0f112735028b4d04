package io.kvledger.infrastructure.fleet;

import io.kvledger.application.audit.Auditor;
import io.kvledger.application.engine.StepEvents;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.store.jdbc.PostgresStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The continuous audit's folds, one {@link Auditor} per engine, kept in memory between batches. Each
 * knows the engine's message it folded last; when a message does not follow it (this node took the
 * segment over, or a batch was rolled back), the engine is folded again from the store up to that
 * message. A stream has no end, so {@code Auditor.finish()} is never called: a command is judged when
 * the next event arrives.
 */
final class EngineAudits {

    private record Followed(Auditor auditor, long lastSequenceNumber, long seq) {
    }

    private final PostgresStore store;
    private final Map<String, Followed> followed = new ConcurrentHashMap<>();

    EngineAudits(PostgresStore store) {
        this.store = store;
    }

    /**
     * The auditor of {@code engineId} as of the message before {@code sequenceNumber}, whose last event
     * had seq {@code seq}; refolded from the store when it was not following the engine up to there.
     */
    Auditor before(String engineId, long sequenceNumber, long seq) {
        Followed known = followed.get(engineId);
        if (known != null && known.lastSequenceNumber() == sequenceNumber - 1) {
            check(engineId, known.seq(), seq);
            return known.auditor();
        }
        followed.remove(engineId);
        Auditor auditor = new Auditor();
        long[] folded = {0};
        if (sequenceNumber > 0) {
            store.engine().readEvents(engineId, 0).asStream().takeWhile(m -> m.getSequenceNumber() < sequenceNumber)
                    .forEach(message -> {
                        Object payload = message.getPayload();
                        for (EngineEvent event : payload instanceof StepEvents s ? s.events() : List.of((EngineEvent) payload)) {
                            auditor.check(++folded[0], event);
                        }
                    });
        }
        check(engineId, folded[0], seq);
        return auditor;
    }

    /** The engine's auditor has checked every event of message {@code sequenceNumber}, the last with seq {@code seq}. */
    void advanced(String engineId, Auditor auditor, long sequenceNumber, long seq) {
        followed.put(engineId, new Followed(auditor, sequenceNumber, seq));
    }

    /** Forgets the engine (its batch rolled back): its next message refolds it. */
    void forget(String engineId) {
        followed.remove(engineId);
    }

    private static void check(String engineId, long folded, long seq) {
        if (folded != seq) {
            throw new IllegalStateException("engine " + engineId + ": the audit folded " + folded
                    + " events but the view has applied " + seq);
        }
    }
}

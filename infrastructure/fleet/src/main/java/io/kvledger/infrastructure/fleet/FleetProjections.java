package io.kvledger.infrastructure.fleet;

import io.kvledger.application.audit.Auditor;
import io.kvledger.application.check.Finding;
import io.kvledger.application.engine.StepEvents;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.store.jdbc.PostgresStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.SequenceNumber;
import org.axonframework.messaging.annotation.SourceId;

/**
 * The fleet's projections, fed one engine's step at a time, in order (the processor's segments split by
 * engine id). Every write goes through the processor's transaction, the one that also moves its token,
 * so a batch and its token commit together: a node killed mid-batch leaves neither, and the node that
 * takes the segment over redoes the batch. Each engine's last applied message is kept with the
 * projections, so a message delivered again is recognised and only counted ({@code redelivered}), and one
 * arriving out of order fails its batch instead of being skipped. The audit keeps each engine's fold in memory; when an event
 * does not follow the one it last folded (another node had the segment, or a batch rolled back), it
 * folds the engine again from the store up to that event. A stream has no end, so the audit never calls
 * {@code Auditor.finish()}: a command is judged when the next event arrives, and an engine's last command
 * is judged when the engine steps again ({@code kvledger audit} judges it at the end of its log).
 */
final class FleetProjections {

    private record Audit(Auditor auditor, long lastSequenceNumber, long seq) {
    }

    private final PostgresStore store;
    private final FleetSchema schema;
    private final Map<String, Audit> audits = new ConcurrentHashMap<>();

    FleetProjections(PostgresStore store, FleetSchema schema) {
        this.store = store;
        this.schema = schema;
    }

    @EventHandler
    void on(StepEvents step, @SourceId String engineId, @SequenceNumber long sequenceNumber) throws SQLException {
        apply(engineId, sequenceNumber, step.events());
    }

    @EventHandler
    void on(EngineEvent event, @SourceId String engineId, @SequenceNumber long sequenceNumber) throws SQLException {
        apply(engineId, sequenceNumber, List.of(event));
    }

    private void apply(String engineId, long sequenceNumber, List<EngineEvent> events) throws SQLException {
        try (Connection c = store.transactions().getConnection()) {
            long last = lastMessage(c, engineId);
            if (sequenceNumber <= last) {
                // Delivered again (a segment changed hands around this batch): applied already, counted only.
                try (PreparedStatement again = c.prepareStatement("UPDATE " + schema.engine()
                        + " SET redelivered = redelivered + 1 WHERE engine_id = ?")) {
                    again.setString(1, engineId);
                    again.executeUpdate();
                }
                return;
            }
            if (sequenceNumber != last + 1) {
                // Never skip: the batch fails, rolls back and is retried, and the stall is visible.
                throw new IllegalStateException("engine " + engineId + ": message " + sequenceNumber
                        + " arrived after message " + last + "; the ones between are missing");
            }
            Audit audit = auditFor(engineId, sequenceNumber);
            long seq = audit.seq();
            List<Finding> violations = new ArrayList<>();
            for (EngineEvent event : events) {
                seq++;
                violations.addAll(audit.auditor().check(seq, event));
                tier(c, engineId, event);
            }
            try (PreparedStatement counted = c.prepareStatement("INSERT INTO " + schema.engine()
                    + " (engine_id, events, last_seq, last_message, redelivered) VALUES (?, ?, ?, ?, 0)"
                    + " ON CONFLICT (engine_id) DO UPDATE SET events = " + schema.engine() + ".events + EXCLUDED.events,"
                    + " last_seq = EXCLUDED.last_seq, last_message = EXCLUDED.last_message")) {
                counted.setString(1, engineId);
                counted.setLong(2, events.size());
                counted.setLong(3, seq);
                counted.setLong(4, sequenceNumber);
                counted.executeUpdate();
            }
            if (!violations.isEmpty()) {
                try (PreparedStatement found = c.prepareStatement("INSERT INTO " + schema.violation()
                        + " (engine_id, seq, code, request_id, reason) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
                    for (Finding v : violations) {
                        found.setString(1, engineId);
                        found.setLong(2, v.seq());
                        found.setString(3, v.code().name());
                        found.setString(4, v.requestId());
                        found.setString(5, v.reason());
                        found.addBatch();
                    }
                    found.executeBatch();
                }
            }
            audits.put(engineId, new Audit(audit.auditor(), sequenceNumber, seq));
        }
    }

    /** The sequence number of the engine's last message applied, -1 before its first. */
    private long lastMessage(Connection c, String engineId) throws SQLException {
        try (PreparedStatement q = c.prepareStatement("SELECT last_message FROM " + schema.engine() + " WHERE engine_id = ?")) {
            q.setString(1, engineId);
            try (ResultSet r = q.executeQuery()) {
                return r.next() ? r.getLong(1) : -1;
            }
        }
    }

    private void tier(Connection c, String engineId, EngineEvent event) throws SQLException {
        if (event instanceof ChunksStored stored) {
            keys(c, "INSERT INTO " + schema.tierChunk() + " (engine_id, chunk_key) VALUES (?, ?) ON CONFLICT DO NOTHING",
                    engineId, stored.keys());
        } else if (event instanceof ChunksEvicted evicted) {
            keys(c, "DELETE FROM " + schema.tierChunk() + " WHERE engine_id = ? AND chunk_key = ?", engineId, evicted.keys());
        } else if (event instanceof CacheReset || event instanceof EngineConfigured) {
            try (PreparedStatement clear = c.prepareStatement("DELETE FROM " + schema.tierChunk() + " WHERE engine_id = ?")) {
                clear.setString(1, engineId);
                clear.executeUpdate();
            }
        }
    }

    private static void keys(Connection c, String sql, String engineId, List<String> keys) throws SQLException {
        if (keys.isEmpty()) {
            return;
        }
        try (PreparedStatement statement = c.prepareStatement(sql)) {
            for (String key : keys) {
                statement.setString(1, engineId);
                statement.setString(2, key);
                statement.addBatch();
            }
            statement.executeBatch();
        }
    }

    /** The engine's audit as of the message before {@code sequenceNumber}, refolded from the store when unknown. */
    private Audit auditFor(String engineId, long sequenceNumber) {
        Audit known = audits.get(engineId);
        if (known != null && known.lastSequenceNumber() == sequenceNumber - 1) {
            return known;
        }
        Auditor auditor = new Auditor();
        long[] seq = {0};
        if (sequenceNumber > 0) {
            store.engine().readEvents(engineId, 0).asStream().takeWhile(m -> m.getSequenceNumber() < sequenceNumber)
                    .forEach(message -> {
                        Object payload = message.getPayload();
                        for (EngineEvent event : payload instanceof StepEvents s ? s.events() : List.of((EngineEvent) payload)) {
                            auditor.check(++seq[0], event);
                        }
                    });
        }
        return new Audit(auditor, sequenceNumber - 1, seq[0]);
    }

    /** Events of {@code engineId} the view has seen, for tests and lag. */
    static long seen(Connection c, FleetSchema schema, String engineId) throws SQLException {
        try (PreparedStatement q = c.prepareStatement("SELECT events FROM " + schema.engine() + " WHERE engine_id = ?")) {
            q.setString(1, engineId);
            try (ResultSet r = q.executeQuery()) {
                return r.next() ? r.getLong(1) : 0;
            }
        }
    }
}

package io.kvledger.infrastructure.fleet;

import io.kvledger.application.finding.Finding;
import io.kvledger.domain.group.GroupKeys;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The projection writes of one processor batch, gathered in memory and written when the batch commits,
 * in its transaction (the one that also stores the token): per batch one clear, one delete and one
 * insert of tier keys, one upsert per engine of its counters and one insert of the violations, whatever
 * the batch's size. Each engine's last applied message is read once, when the batch first meets the
 * engine, and followed in memory from there.
 */
final class ProjectionBatch {

    /** One engine as this batch has left it. */
    static final class EngineProgress {
        final String engineId;
        long lastMessage;
        long lastSeq;
        long messages;
        long events;
        long redelivered;
        final TierChanges tier = new TierChanges();

        private EngineProgress(String engineId, long lastMessage, long lastSeq) {
            this.engineId = engineId;
            this.lastMessage = lastMessage;
            this.lastSeq = lastSeq;
        }

        /** Message {@code sequenceNumber} of {@code count} events was applied, its last event seq {@code seq}. */
        void applied(long sequenceNumber, long seq, int count) {
            lastMessage = sequenceNumber;
            lastSeq = seq;
            messages++;
            events += count;
        }
    }

    private final FleetSchema schema;
    private final Map<String, EngineProgress> engines = new LinkedHashMap<>();
    private final List<Finding> violations = new ArrayList<>();
    private final List<String> violationEngines = new ArrayList<>();

    ProjectionBatch(FleetSchema schema) {
        this.schema = schema;
    }

    /** The engine as of the batch so far: from the view's table at the batch's first message of it. */
    EngineProgress engine(Connection c, String engineId) throws SQLException {
        EngineProgress known = engines.get(engineId);
        if (known != null) {
            return known;
        }
        EngineProgress progress;
        try (PreparedStatement q = c.prepareStatement(
                "SELECT last_message, last_seq FROM " + schema.engine() + " WHERE engine_id = ?")) {
            q.setString(1, engineId);
            try (ResultSet r = q.executeQuery()) {
                progress = r.next() ? new EngineProgress(engineId, r.getLong(1), r.getLong(2))
                        : new EngineProgress(engineId, -1, 0);
            }
        }
        engines.put(engineId, progress);
        return progress;
    }

    void violation(String engineId, Finding finding) {
        violationEngines.add(engineId);
        violations.add(finding);
    }

    /** The engines this batch has met, in order. */
    Iterable<String> engineIds() {
        return engines.keySet();
    }

    /** Writes everything gathered, on the batch's transaction connection. */
    void write(Connection c) throws SQLException {
        writeTier(c);
        writeViolations(c);
        writeCounters(c);
    }

    private void writeTier(Connection c) throws SQLException {
        List<String> cleared = new ArrayList<>();
        List<String> removedEngines = new ArrayList<>();
        List<String> removedKeys = new ArrayList<>();
        List<String> addedEngines = new ArrayList<>();
        List<String> addedKeys = new ArrayList<>();
        List<Integer> addedGroups = new ArrayList<>();
        for (EngineProgress e : engines.values()) {
            if (e.tier.cleared()) {
                cleared.add(e.engineId);
            }
            for (String key : e.tier.removed()) {
                removedEngines.add(e.engineId);
                removedKeys.add(key);
            }
            for (String key : e.tier.added()) {
                addedEngines.add(e.engineId);
                addedKeys.add(key);
                addedGroups.add(GroupKeys.groupOf(key, Integer.MAX_VALUE));
            }
        }
        if (!cleared.isEmpty()) {
            try (PreparedStatement clear = c.prepareStatement(
                    "DELETE FROM " + schema.tierChunk() + " WHERE engine_id = ANY (?)")) {
                clear.setArray(1, varchars(c, cleared));
                clear.executeUpdate();
            }
        }
        if (!removedKeys.isEmpty()) {
            try (PreparedStatement remove = c.prepareStatement("DELETE FROM " + schema.tierChunk() + " t USING unnest(?, ?)"
                    + " AS gone (engine_id, chunk_key) WHERE t.engine_id = gone.engine_id AND t.chunk_key = gone.chunk_key")) {
                remove.setArray(1, varchars(c, removedEngines));
                remove.setArray(2, varchars(c, removedKeys));
                remove.executeUpdate();
            }
        }
        if (!addedKeys.isEmpty()) {
            try (PreparedStatement add = c.prepareStatement("INSERT INTO " + schema.tierChunk()
                    + " (engine_id, chunk_key, group_idx) SELECT * FROM unnest(?, ?, ?) ON CONFLICT DO NOTHING")) {
                add.setArray(1, varchars(c, addedEngines));
                add.setArray(2, varchars(c, addedKeys));
                add.setArray(3, c.createArrayOf("integer", addedGroups.toArray()));
                add.executeUpdate();
            }
        }
    }

    private void writeViolations(Connection c) throws SQLException {
        if (violations.isEmpty()) {
            return;
        }
        try (PreparedStatement found = c.prepareStatement("INSERT INTO " + schema.violation()
                + " (engine_id, seq, code, request_id, reason) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
            for (int i = 0; i < violations.size(); i++) {
                Finding v = violations.get(i);
                found.setString(1, violationEngines.get(i));
                found.setLong(2, v.seq());
                found.setString(3, v.code().name());
                found.setString(4, v.requestId());
                found.setString(5, v.reason());
                found.addBatch();
            }
            found.executeBatch();
        }
    }

    private void writeCounters(Connection c) throws SQLException {
        try (PreparedStatement counted = c.prepareStatement("INSERT INTO " + schema.engine()
                + " (engine_id, events, last_seq, last_message, redelivered) VALUES (?, ?, ?, ?, ?)"
                + " ON CONFLICT (engine_id) DO UPDATE SET events = " + schema.engine() + ".events + EXCLUDED.events,"
                + " last_seq = EXCLUDED.last_seq, last_message = EXCLUDED.last_message,"
                + " redelivered = " + schema.engine() + ".redelivered + EXCLUDED.redelivered")) {
            int rows = 0;
            for (EngineProgress e : engines.values()) {
                if (e.messages == 0 && e.redelivered == 0) {
                    continue; // met, but nothing to change
                }
                counted.setString(1, e.engineId);
                counted.setLong(2, e.events);
                counted.setLong(3, e.lastSeq);
                counted.setLong(4, e.lastMessage);
                counted.setLong(5, e.redelivered);
                counted.addBatch();
                rows++;
            }
            if (rows > 0) {
                counted.executeBatch();
            }
        }
    }

    private static Array varchars(Connection c, List<String> values) throws SQLException {
        return c.createArrayOf("varchar", values.toArray());
    }
}

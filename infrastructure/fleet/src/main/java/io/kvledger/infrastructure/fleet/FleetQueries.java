package io.kvledger.infrastructure.fleet;

import io.kvledger.application.check.FindingCodes;
import io.kvledger.application.audit.AuditRules;
import io.kvledger.application.finding.Finding;
import io.kvledger.infrastructure.store.jdbc.PostgresStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/** Reads a fleet view's projections: what a KV-aware router and an operator ask. */
public final class FleetQueries {

    /** One violation the fleet audit recorded: the audit's finding, in the log of engine {@code engineId}. */
    public record EngineFinding(String engineId, Finding finding) {
    }

    /** Per engine: events stored, and events the view has seen (equal when it has caught up). */
    public record EngineProgress(String engineId, long stored, long seen) {
    }

    private final PostgresStore store;
    private final FleetSchema schema;

    public FleetQueries(PostgresStore store, String view) {
        this.store = store;
        this.schema = new FleetSchema(view);
        schema.create(store);
    }

    /** The engines whose CPU tier holds each key (loadable now), sorted. */
    public Map<String, List<String>> holders(List<String> keys) throws SQLException {
        return holders(keys, null);
    }

    /**
     * The engines whose CPU tier holds each key of KV cache group {@code group}, sorted: what a router asks
     * for one group's prefix keys (a key of another group is held by none here).
     */
    public Map<String, List<String>> holders(int group, List<String> keys) throws SQLException {
        return holders(keys, group);
    }

    private Map<String, List<String>> holders(List<String> keys, Integer group) throws SQLException {
        Map<String, List<String>> holders = new LinkedHashMap<>();
        try (Connection c = store.dataSource().getConnection(); PreparedStatement q = c.prepareStatement(
                "SELECT engine_id FROM " + schema.tierChunk() + " WHERE chunk_key = ?"
                        + (group == null ? "" : " AND group_idx = ?") + " ORDER BY engine_id")) {
            for (String key : keys) {
                q.setString(1, key);
                if (group != null) {
                    q.setInt(2, group);
                }
                List<String> engines = new ArrayList<>();
                try (ResultSet r = q.executeQuery()) {
                    while (r.next()) {
                        engines.add(r.getString(1));
                    }
                }
                holders.put(key, engines);
            }
        }
        return holders;
    }

    /** Per engine and KV cache group, the chunks its CPU tier holds (a view without groups has group 0 only). */
    public SortedMap<String, SortedMap<Integer, Long>> chunksByGroup() throws SQLException {
        SortedMap<String, SortedMap<Integer, Long>> counts = new TreeMap<>();
        try (Connection c = store.dataSource().getConnection(); PreparedStatement q = c.prepareStatement(
                "SELECT engine_id, group_idx, count(*) FROM " + schema.tierChunk() + " GROUP BY engine_id, group_idx");
             ResultSet r = q.executeQuery()) {
            while (r.next()) {
                counts.computeIfAbsent(r.getString(1), e -> new TreeMap<>()).put(r.getInt(2), r.getLong(3));
            }
        }
        return counts;
    }

    /** Every engine's tier keys, sorted: the whole index. */
    public SortedMap<String, TreeSet<String>> index() throws SQLException {
        SortedMap<String, TreeSet<String>> index = new TreeMap<>();
        try (Connection c = store.dataSource().getConnection(); PreparedStatement q = c.prepareStatement(
                "SELECT engine_id, chunk_key FROM " + schema.tierChunk()); ResultSet r = q.executeQuery()) {
            while (r.next()) {
                index.computeIfAbsent(r.getString(1), e -> new TreeSet<>()).add(r.getString(2));
            }
        }
        return index;
    }

    /** The violations recorded, by engine and seq. */
    public List<EngineFinding> violations() throws SQLException {
        return violations(AuditRules.ALL);
    }

    /**
     * The violations recorded that {@code rules} keeps ({@link AuditRules#SAFETY}: the safety class of contract
     * 9.2 only), by engine and seq. A finding's class follows from its code and reason, so it is not stored.
     */
    public List<EngineFinding> violations(AuditRules rules) throws SQLException {
        List<EngineFinding> found = new ArrayList<>();
        try (Connection c = store.dataSource().getConnection(); PreparedStatement q = c.prepareStatement(
                "SELECT engine_id, seq, code, request_id, reason FROM " + schema.violation() + " ORDER BY engine_id, seq, code");
             ResultSet r = q.executeQuery()) {
            while (r.next()) {
                Finding finding = new Finding(r.getLong(2), FindingCodes.parse(r.getString(3)), r.getString(4), r.getString(5));
                if (rules.keeps(finding)) {
                    found.add(new EngineFinding(r.getString(1), finding));
                }
            }
        }
        return found;
    }

    /**
     * Stored against seen domain events, per engine that has any. The view applies each stored message exactly once
     * and counts its events ({@code seen}), so the stored events are the seen ones and those of the messages it has
     * not applied yet: only those messages' payloads are read, and a view that has caught up reads none. So this
     * costs the store's message count, not its size ({@link #storedEvents()} reads every payload).
     */
    public List<EngineProgress> progress() throws SQLException {
        // One statement, so one snapshot: the view's counters and the messages past them as of the same moment (two
        // statements could pair counters read before a batch committed with a backlog read after it).
        List<EngineProgress> progress = new ArrayList<>();
        try (Connection c = store.dataSource().getConnection(); PreparedStatement q = c.prepareStatement(
                "SELECT coalesce(s.engine, v.engine_id), coalesce(v.events, 0) + coalesce(s.backlog, 0), coalesce(v.events, 0)"
                        + " FROM (SELECT d.aggregateidentifier AS engine, sum(CASE WHEN d.sequencenumber > coalesce(e.last_message, -1)"
                        + " THEN " + EVENTS_OF_MESSAGE + " ELSE 0 END) AS backlog FROM domainevententry d LEFT JOIN " + schema.engine()
                        + " e ON e.engine_id = d.aggregateidentifier GROUP BY d.aggregateidentifier) s FULL JOIN " + schema.engine()
                        + " v ON v.engine_id = s.engine");
             ResultSet r = q.executeQuery()) {
            while (r.next()) {
                progress.add(new EngineProgress(r.getString(1), r.getLong(2), r.getLong(3)));
            }
        }
        progress.sort(java.util.Comparator.comparing(EngineProgress::engineId)); // ids ascending, as Java orders them
        return progress;
    }

    /**
     * The domain events stored per engine that has any, counted from every stored payload: the store's size in
     * reads (about half a second of the database's CPU per million events), for checks of {@link #progress()}.
     */
    public SortedMap<String, Long> storedEvents() throws SQLException {
        SortedMap<String, Long> stored = new TreeMap<>();
        try (Connection c = store.dataSource().getConnection(); PreparedStatement q = c.prepareStatement(
                "SELECT aggregateidentifier, sum(" + EVENTS_OF_MESSAGE + ") FROM domainevententry GROUP BY aggregateidentifier");
             ResultSet r = q.executeQuery()) {
            while (r.next()) {
                stored.put(r.getString(1), r.getLong(2));
            }
        }
        return stored;
    }

    /** A stored message's domain events: a step is one message of many events, anything else one. */
    private static final String EVENTS_OF_MESSAGE = "json_array_length(CASE WHEN payloadtype = 'StepEvents' "
            + "THEN convert_from(payload, 'UTF8')::json ELSE '[0]'::json END)";

    /** Per engine, messages delivered again after they were applied (recognised and skipped). */
    public Map<String, Long> redelivered() throws SQLException {
        Map<String, Long> again = new TreeMap<>();
        try (Connection c = store.dataSource().getConnection(); PreparedStatement q = c.prepareStatement(
                "SELECT engine_id, redelivered FROM " + schema.engine() + " WHERE redelivered > 0"); ResultSet r = q.executeQuery()) {
            while (r.next()) {
                again.put(r.getString(1), r.getLong(2));
            }
        }
        return again;
    }

    /**
     * Per engine the view is behind on, the stored messages (steps) it has not applied yet. Compares
     * sequence numbers, not events, so no payload is read: cheap enough to poll while engines write.
     */
    public Map<String, Long> messagesBehind() throws SQLException {
        Map<String, Long> behind = new TreeMap<>();
        try (Connection c = store.dataSource().getConnection(); PreparedStatement q = c.prepareStatement(
                "SELECT s.aggregateidentifier, s.last - coalesce(e.last_message, -1) FROM (SELECT aggregateidentifier,"
                        + " max(sequencenumber) AS last FROM domainevententry GROUP BY aggregateidentifier) s LEFT JOIN "
                        + schema.engine() + " e ON e.engine_id = s.aggregateidentifier WHERE coalesce(e.last_message, -1) <> s.last");
             ResultSet r = q.executeQuery()) {
            while (r.next()) {
                behind.put(r.getString(1), r.getLong(2));
            }
        }
        return behind;
    }

    /** Whether the view has applied every stored message (each exactly once: see {@link #progress()} for events). */
    public boolean caughtUp() throws SQLException {
        return messagesBehind().isEmpty();
    }
}

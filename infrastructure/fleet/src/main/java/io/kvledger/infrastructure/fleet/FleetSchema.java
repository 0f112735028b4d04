package io.kvledger.infrastructure.fleet;

import io.kvledger.infrastructure.store.jdbc.PostgresStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Pattern;

/**
 * The projection tables of one fleet view, named after it ({@code <view>_...}) so several views (the
 * fleet's, a single node's reference) can share a database:
 * <ul>
 * <li>{@code _tier_chunk(engine_id, chunk_key, group_idx)}: which engine's CPU tier holds which loadable chunk key,
 * of which KV cache group (0 without groups; a key names one group, so the key alone stays the row's identity);
 * <li>{@code _engine(engine_id, events, last_seq, last_message, redelivered)}: events applied per engine, the
 * seq of the last, the sequence number of its message, and how many messages came again (and were skipped);
 * <li>{@code _violation(engine_id, seq, code, request_id, reason)}: what the audit's rules found.
 * </ul>
 */
public final class FleetSchema {

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,30}");
    private static final long LOCK = 0x666c656574L; // "fleet"

    private final String view;

    public FleetSchema(String view) {
        if (!NAME.matcher(view).matches()) {
            throw new IllegalArgumentException("a view name is lower case letters, digits and _, was " + view);
        }
        this.view = view;
    }

    public String view() {
        return view;
    }

    public String tierChunk() {
        return view + "_tier_chunk";
    }

    public String engine() {
        return view + "_engine";
    }

    public String violation() {
        return view + "_violation";
    }

    /** Creates the tables when missing; several nodes may start at once. */
    public void create(PostgresStore store) {
        store.transactions().executeInTransaction(() -> {
            try (Connection c = store.transactions().getConnection(); Statement s = c.createStatement()) {
                s.execute("SELECT pg_advisory_xact_lock(" + LOCK + ")");
                s.execute("CREATE TABLE IF NOT EXISTS " + tierChunk()
                        + " (engine_id varchar(255) NOT NULL, chunk_key varchar(255) NOT NULL, PRIMARY KEY (engine_id, chunk_key))");
                s.execute("CREATE INDEX IF NOT EXISTS " + tierChunk() + "_by_key ON " + tierChunk() + " (chunk_key)");
                // The KV cache group of the key (contract 7.1); a view made before groups gets it as 0, which all its keys are.
                s.execute("ALTER TABLE " + tierChunk() + " ADD COLUMN IF NOT EXISTS group_idx integer NOT NULL DEFAULT 0");
                s.execute("CREATE TABLE IF NOT EXISTS " + engine()
                        + " (engine_id varchar(255) PRIMARY KEY, events bigint NOT NULL, last_seq bigint NOT NULL,"
                        + " last_message bigint NOT NULL, redelivered bigint NOT NULL)");
                s.execute("CREATE TABLE IF NOT EXISTS " + violation() + " (engine_id varchar(255) NOT NULL, seq bigint NOT NULL,"
                        + " code varchar(64) NOT NULL, request_id varchar(255), reason text NOT NULL, PRIMARY KEY (engine_id, seq, code))");
            } catch (SQLException e) {
                throw new IllegalStateException("cannot create the tables of view " + view + ": " + e.getMessage(), e);
            }
        });
    }
}

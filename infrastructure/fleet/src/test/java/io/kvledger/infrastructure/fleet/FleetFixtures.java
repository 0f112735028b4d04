package io.kvledger.infrastructure.fleet;

import io.kvledger.application.audit.Auditor;
import io.kvledger.application.finding.Finding;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.simulation.SimulationOptions;
import io.kvledger.simulation.Simulator;
import io.kvledger.infrastructure.store.jdbc.PostgresStore;
import java.io.File;
import java.io.InputStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.axonframework.eventhandling.GenericDomainEventMessage;

/** Engines writing to a shared store, processing nodes in child JVMs, and what they should build. */
final class FleetFixtures {

    private FleetFixtures() {
    }

    /** Runs a seeded simulation as engine {@code engineId} of the store; returns its events. */
    static List<EngineEvent> simulate(PostgresStore store, String engineId, long seed, int requests) {
        SimulationOptions options = SimulationOptions.DEFAULTS.withRequests(requests).withSeed(seed);
        return new Simulator(options, () -> (seq, event) -> List.of(), config -> store.ledger(engineId).config(config).build()).events();
    }


    /** Stores a captured log (one message per event, as a log imported line by line) as engine {@code engineId}. */
    static List<EngineEvent> importLog(PostgresStore store, String engineId, String resource) throws Exception {
        List<EngineEvent> events = new ArrayList<>();
        try (InputStream in = FleetFixtures.class.getResourceAsStream(resource)) {
            EventLogReader reader = new EventLogReader(in);
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                events.add(entry.event());
            }
        }
        List<GenericDomainEventMessage<EngineEvent>> messages = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            messages.add(new GenericDomainEventMessage<>("EngineAggregate", engineId, i, events.get(i)));
        }
        store.engine().appendEvents(messages);
        return events;
    }

    /** What {@code kvledger audit} finds in these events, but for the last command (a stream never ends). */
    static List<String> audit(List<EngineEvent> events) {
        Auditor auditor = new Auditor();
        List<String> found = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            for (Finding v : auditor.check(i + 1, events.get(i))) {
                found.add(v.seq() + " " + v.code().name());
            }
        }
        return found;
    }

    /** A processing node in a JVM of its own ({@link ChildNode}, what {@code kvledger fleet node} runs). */
    static Process childNode(String url, String view, String nodeId, int segments) throws Exception {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder builder = new ProcessBuilder(java.toString(), "-Xmx256m", "-XX:TieredStopAtLevel=1",
                "-Daxoniq.update-checker.disabled=true", "-Ddisable-axoniq-console-message=true",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp", classPath, ChildNode.class.getName(), url, view, nodeId, String.valueOf(segments));
        builder.redirectErrorStream(true);
        builder.redirectOutput(new File(System.getProperty("java.io.tmpdir"), "kvledger-fleet-" + nodeId + ".log"));
        return builder.start();
    }

    /** How many of the view's segments each node claims now. */
    static Map<String, Integer> owners(PostgresStore store, String view) throws SQLException {
        Map<String, Integer> owners = new TreeMap<>();
        try (Connection c = store.dataSource().getConnection(); PreparedStatement q = c.prepareStatement(
                "SELECT coalesce(owner, '(none)'), count(*) FROM tokenentry WHERE processorname = ? GROUP BY owner")) {
            q.setString(1, view);
            try (ResultSet r = q.executeQuery()) {
                while (r.next()) {
                    owners.put(r.getString(1), r.getInt(2));
                }
            }
        } catch (SQLException e) {
            if (e.getMessage().contains("does not exist")) {
                return owners; // no node has created the token table yet
            }
            throw e;
        }
        return owners;
    }
}

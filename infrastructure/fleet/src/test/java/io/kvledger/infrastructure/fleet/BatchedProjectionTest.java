package io.kvledger.infrastructure.fleet;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.audit.Auditor;
import io.kvledger.application.finding.Finding;
import io.kvledger.application.engine.StepEvents;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.store.jdbc.PostgresStore;
import io.kvledger.infrastructure.store.jdbc.TestPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The batched view against what applying each event on its own gives, on a real PostgreSQL: batches of
 * many messages touching the same keys, a batch rolled back when it is written, messages delivered
 * again across batch boundaries, and a hole.
 */
@ExtendWith(TestPostgres.class)
class BatchedProjectionTest {

    private static final Duration PATIENCE = Duration.ofSeconds(120);

    /** Every engine's messages, as appended. */
    private final Map<String, List<List<EngineEvent>>> written = new TreeMap<>();

    @Test
    void batchesOfManyMessagesBuildTheTierThatEventByEventApplicationBuilds() throws Exception {
        String url = TestPostgres.newDatabase();
        try (PostgresStore store = PostgresStore.open(url, 4)) {
            for (long seed = 0; seed < 40; seed++) {
                Random random = new Random(seed);
                for (int engine = 0; engine < 2; engine++) {
                    appendRandom(store, "s" + seed + "-e" + engine, random, 20 + random.nextInt(20));
                }
            }
            try (FleetNode batched = FleetNode.start(store, "batched", "b", FleetNode.Settings.of(2).withoutAudit());
                 FleetNode single = FleetNode.start(store, "single", "s", FleetNode.Settings.of(2).withBatchSize(1).withoutAudit())) {
                FleetQueries batchedView = new FleetQueries(store, "batched");
                FleetQueries singleView = new FleetQueries(store, "single");
                await().atMost(PATIENCE).until(() -> batchedView.caughtUp() && singleView.caughtUp());
                assertEquals(model(), batchedView.index(), "batched: the tier of each event applied in turn");
                assertEquals(model(), singleView.index(), "one message a batch");
                assertExactlyOnce(batchedView);
                assertTrue(batchedView.violations().isEmpty(), "no audit, no violations");
            }
        }
    }

    @Test
    void aBatchRolledBackWhenWrittenLeavesViewTokenAndAuditAsIfItNeverRan() throws Exception {
        String url = TestPostgres.newDatabase();
        try (PostgresStore store = PostgresStore.open(url, 4)) {
            FleetQueries view = new FleetQueries(store, "rolled");
            try (Connection c = store.dataSource().getConnection(); Statement s = c.createStatement()) {
                // A sequence is not rolled back: the first two batches holding the key fail, the third passes.
                s.execute("CREATE SEQUENCE poison_attempts");
                s.execute("CREATE FUNCTION poison() RETURNS trigger AS $$ BEGIN IF NEW.chunk_key = 'poison'"
                        + " AND nextval('poison_attempts') <= 2 THEN RAISE EXCEPTION 'poisoned'; END IF; RETURN NEW; END $$"
                        + " LANGUAGE plpgsql");
                s.execute("CREATE TRIGGER poison BEFORE INSERT ON rolled_tier_chunk FOR EACH ROW EXECUTE FUNCTION poison()");
            }
            Random random = new Random(7);
            for (int engine = 0; engine < 3; engine++) {
                appendRandom(store, "e" + engine, random, 30);
            }
            appendRandom(store, "e1", random, 10);
            append(store, "e1", List.of(new ChunksStored(List.of("poison", "k1")))); // last: nothing resets it after
            appendRandom(store, "e2", random, 10);
            try (FleetNode node = FleetNode.start(store, "rolled", "n", FleetNode.Settings.of(1).withBatchSize(16))) {
                await().atMost(PATIENCE).until(view::caughtUp);
            }
            assertTrue(attempts(store) >= 3, "the poisoned batch failed twice, then passed");
            assertEquals(model(), view.index());
            assertExactlyOnce(view);
            assertAuditedAsEachEngineAlone(view);
        }
    }

    @Test
    void messagesDeliveredAgainAcrossBatchBoundariesAreCountedAndNotApplied() throws Exception {
        String url = TestPostgres.newDatabase();
        try (PostgresStore store = PostgresStore.open(url, 4)) {
            FleetQueries view = new FleetQueries(store, "again");
            Random random = new Random(11);
            appendRandom(store, "e0", random, 10);
            appendRandom(store, "e1", random, 10);
            runUntilCaughtUp(store, view);
            List<Object[]> tokens = tokens(store, "again");

            appendRandom(store, "e0", random, 10);
            appendRandom(store, "e1", random, 10);
            assertStoredAsCounted(view); // behind by 20 messages
            runUntilCaughtUp(store, view);
            restore(store, "again", tokens); // the last 20 messages will come again

            appendRandom(store, "e0", random, 10);
            appendRandom(store, "e1", random, 10);
            runUntilCaughtUp(store, view);

            assertEquals(Map.of("e0", 10L, "e1", 10L), view.redelivered(), "each message of the second part came again");
            assertEquals(model(), view.index());
            assertExactlyOnce(view);
            assertAuditedAsEachEngineAlone(view);
        }
    }

    @Test
    void aMessageAfterAHoleStallsItsSegmentInsteadOfBeingSkipped() throws Exception {
        String url = TestPostgres.newDatabase();
        try (PostgresStore store = PostgresStore.open(url, 4)) {
            FleetQueries view = new FleetQueries(store, "holes");
            append(store, "holey", List.of(EngineConfigured.of(EngineConfig.DEFAULTS), new ChunksStored(List.of("a"))));
            append(store, "before", List.of(EngineConfigured.of(EngineConfig.DEFAULTS)));
            appendAt(store, "holey", 2, List.of(new ChunksStored(List.of("b")))); // message 1 is missing
            append(store, "after", List.of(EngineConfigured.of(EngineConfig.DEFAULTS), new ChunksStored(List.of("c"))));
            try (FleetNode node = FleetNode.start(store, "holes", "n", FleetNode.Settings.of(1).withBatchSize(1))) {
                await().atMost(PATIENCE).until(() -> !view.messagesBehind().containsKey("before")
                        && view.messagesBehind().getOrDefault("holey", 0L) == 2);
                Thread.sleep(3_000); // several retries of the failing batch
                assertEquals(Map.of("holey", 2L, "after", 1L), view.messagesBehind(), "nothing past the hole was applied");
                assertEquals(Map.of("holey", new TreeSet<>(List.of("a"))), view.index());
                assertStoredAsCounted(view); // stalled behind a hole
            }
        }
    }

    private void runUntilCaughtUp(PostgresStore store, FleetQueries view) {
        try (FleetNode node = FleetNode.start(store, "again", "n", FleetNode.Settings.of(1).withBatchSize(4))) {
            await().atMost(PATIENCE).until(view::caughtUp);
        }
    }

    /** Appends {@code messages} messages of random tier events to the engine, configuring it first when new. */
    private void appendRandom(PostgresStore store, String engineId, Random random, int messages) {
        for (int m = 0; m < messages; m++) {
            List<EngineEvent> events = new ArrayList<>();
            if (!written.containsKey(engineId) && m == 0) {
                events.add(EngineConfigured.of(EngineConfig.DEFAULTS));
            }
            events.addAll(TierChangesTest.randomEvents(random, random.nextInt(12)));
            append(store, engineId, events);
        }
    }

    private void append(PostgresStore store, String engineId, List<EngineEvent> events) {
        appendAt(store, engineId, written.getOrDefault(engineId, List.of()).size(), events);
    }

    private void appendAt(PostgresStore store, String engineId, long sequenceNumber, List<EngineEvent> events) {
        store.engine().appendEvents(List.of(new GenericDomainEventMessage<>("EngineAggregate", engineId, sequenceNumber,
                new StepEvents(events))));
        written.computeIfAbsent(engineId, e -> new ArrayList<>()).add(events);
    }

    /** Each engine's tier, every event applied on its own in order; engines holding nothing left out. */
    private SortedMap<String, TreeSet<String>> model() {
        SortedMap<String, TreeSet<String>> index = new TreeMap<>();
        written.forEach((engine, messages) -> {
            TreeSet<String> rows = new TreeSet<>();
            messages.forEach(events -> events.forEach(event -> TierChangesTest.applyOneByOne(rows, event)));
            if (!rows.isEmpty()) {
                index.put(engine, rows);
            }
        });
        return index;
    }

    /**
     * {@code progress()} reads only the payloads of the messages the view has not applied: its stored events are
     * the ones a count of every stored payload gives, caught up or behind.
     */
    private static void assertStoredAsCounted(FleetQueries view) throws Exception {
        Map<String, Long> stored = new TreeMap<>();
        for (FleetQueries.EngineProgress p : view.progress()) {
            stored.put(p.engineId(), p.stored());
        }
        assertEquals(view.storedEvents(), stored, "stored events, from the view's counters and the unapplied payloads");
    }

    private void assertExactlyOnce(FleetQueries view) throws Exception {
        assertStoredAsCounted(view);
        assertEquals(written.keySet(), new TreeSet<>(view.progress().stream().map(FleetQueries.EngineProgress::engineId).toList()));
        for (FleetQueries.EngineProgress p : view.progress()) {
            long events = written.get(p.engineId()).stream().mapToLong(List::size).sum();
            assertEquals(events, p.stored(), p.engineId() + " stored");
            assertEquals(events, p.seen(), p.engineId() + ": every event applied exactly once");
        }
    }

    /** The view's violations are the Auditor's over each engine's events (but for the last command, never judged). */
    private void assertAuditedAsEachEngineAlone(FleetQueries view) throws Exception {
        List<String> expected = new ArrayList<>();
        List<String> expectedSafety = new ArrayList<>();
        written.forEach((engine, messages) -> {
            Auditor auditor = new Auditor();
            long seq = 0;
            for (List<EngineEvent> events : messages) {
                for (EngineEvent event : events) {
                    for (Finding f : auditor.check(++seq, event)) {
                        expected.add(engine + " " + f.seq() + " " + f.code());
                        if (f.isSafety()) {
                            expectedSafety.add(engine + " " + f.seq() + " " + f.code());
                        }
                    }
                }
            }
        });
        List<String> found = view.violations().stream().map(f -> f.engineId() + " " + f.finding().seq() + " " + f.finding().code().name()).toList();
        assertEquals(new TreeSet<>(expected), new TreeSet<>(found));
        assertEquals(expected.size(), found.size(), "each finding once");
        assertFalse(found.isEmpty(), "random tier events break the audit's rules");
        // The stored findings keep their class (it follows from code and reason): the safety ones are asked for alone.
        List<String> safety = view.violations(io.kvledger.application.audit.AuditRules.SAFETY).stream()
                .map(f -> f.engineId() + " " + f.finding().seq() + " " + f.finding().code().name()).toList();
        assertEquals(new TreeSet<>(expectedSafety), new TreeSet<>(safety));
        assertEquals(expectedSafety.size(), safety.size());
    }

    private static long attempts(PostgresStore store) throws Exception {
        try (Connection c = store.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT last_value FROM poison_attempts")) {
            r.next();
            return r.getLong(1);
        }
    }

    private static List<Object[]> tokens(PostgresStore store, String view) throws Exception {
        List<Object[]> tokens = new ArrayList<>();
        try (Connection c = store.dataSource().getConnection(); PreparedStatement q = c.prepareStatement(
                "SELECT segment, token, tokentype FROM tokenentry WHERE processorname = ?")) {
            q.setString(1, view);
            try (ResultSet r = q.executeQuery()) {
                while (r.next()) {
                    tokens.add(new Object[] {r.getInt(1), r.getBytes(2), r.getString(3)});
                }
            }
        }
        return tokens;
    }

    private static void restore(PostgresStore store, String view, List<Object[]> tokens) throws Exception {
        try (Connection c = store.dataSource().getConnection(); PreparedStatement u = c.prepareStatement(
                "UPDATE tokenentry SET token = ?, tokentype = ? WHERE processorname = ? AND segment = ? AND owner IS NULL")) {
            for (Object[] token : tokens) {
                u.setBytes(1, (byte[]) token[1]);
                u.setString(2, (String) token[2]);
                u.setString(3, view);
                u.setInt(4, (Integer) token[0]);
                assertEquals(1, u.executeUpdate(), "the token of segment " + token[0] + " is released and set back");
            }
        }
    }
}

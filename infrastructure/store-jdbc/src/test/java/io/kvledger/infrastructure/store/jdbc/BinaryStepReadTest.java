package io.kvledger.infrastructure.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.engine.StepEvents;
import io.kvledger.domain.event.EngineEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.PGConnection;
import org.postgresql.PGStatement;

/**
 * The store reads stored steps in PostgreSQL's binary format from a statement's first use (not hex text
 * after its fifth), and what comes back that way is what was written: the same steps read through the
 * tracking stream a processor uses, by a store that reads binary and by one whose URL keeps the driver's
 * text default, equal each other and the events appended.
 */
@ExtendWith(TestPostgres.class)
class BinaryStepReadTest {

    @Test
    void givenTheStoreWhenItRunsAStatementThenTheServerPreparedItAtItsFirstUse() throws Exception {
        try (PostgresStore store = PostgresStore.open(TestPostgres.newDatabase(), 2);
             Connection c = store.dataSource().getConnection();
             PreparedStatement q = c.prepareStatement("SELECT payload FROM domainevententry WHERE globalindex > ?")) {
            assertEquals(-1, c.unwrap(PGConnection.class).getPrepareThreshold(), "binary from the first use");
            q.setLong(1, 0);
            try (ResultSet r = q.executeQuery()) {
                assertFalse(r.next());
            }
            assertTrue(q.unwrap(PGStatement.class).isUseServerPrepare(), "prepared by the server at once");
        }
    }

    @Test
    void givenAUrlThatSetsTheThresholdWhenOpenedThenTheUrlWins() throws Exception {
        try (PostgresStore store = PostgresStore.open(TestPostgres.newDatabase() + "&prepareThreshold=5", 1);
             Connection c = store.dataSource().getConnection()) {
            assertEquals(5, c.unwrap(PGConnection.class).getPrepareThreshold());
        }
    }

    @Test
    void givenStepsOfEveryTypeWhenReadInBinaryAndInTextThenBothAreTheStepsWritten() throws Exception {
        String url = TestPostgres.newDatabase();
        List<StepEvents> written = new ArrayList<>();
        Random random = new Random(7);
        try (PostgresStore binary = PostgresStore.open(url, 2);
             PostgresStore text = PostgresStore.open(url + "&prepareThreshold=0", 2)) {
            List<GenericDomainEventMessage<StepEvents>> messages = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                List<EngineEvent> events = new ArrayList<>();
                for (int n = random.nextInt(40); n > 0; n--) {
                    events.add(StableTypeSerializerTest.EVERY_TYPE.get(random.nextInt(StableTypeSerializerTest.EVERY_TYPE.size())));
                }
                StepEvents step = new StepEvents(events);
                written.add(step);
                messages.add(new GenericDomainEventMessage<>("EngineAggregate", "gpu-0", i, step));
            }
            binary.engine().appendEvents(messages);
            assertEquals(written, tracked(binary), "read in binary");
            assertEquals(written, tracked(text), "read as text");
        }
    }

    /** Every stored step, in order, through the tracking stream (the fetches a processing node makes). */
    private static List<StepEvents> tracked(PostgresStore store) {
        try (Stream<? extends TrackedEventMessage<?>> stream = store.engine().readEvents(null, false)) {
            return stream.map(message -> (StepEvents) message.getPayload()).toList();
        }
    }
}
